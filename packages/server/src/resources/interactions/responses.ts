/**
 * The respond side of interactions, in one place for app.ts to wire: the callback handler (the
 * callback route's and the HTTP delivery's), the callback by id and token, and the interaction
 * webhooks the webhook token routes hand over to.
 */
import { isSnowflake } from '@guildhall/protocol';
import { hashSecret } from '../../domain/credentials.js';
import { ApiError } from '../../errors/index.js';
import type { StreamedFile } from '../../http/multipart.js';
import type { InteractionRecord } from '../../storage/index.js';
import type { MessageService } from '../messages/index.js';
import {
  createCallbackHandler,
  type CallbackDeps,
  type InteractionCallbackResponse,
} from './callback.js';
import { createInteractionWebhooks } from './interactionWebhooks.js';

/** The interaction answering to this id and token; 10062 for anything else. */
async function interactionByToken(
  deps: Pick<CallbackDeps, 'storage'>,
  interactionId: string,
  token: string,
): Promise<InteractionRecord> {
  const interaction = isSnowflake(interactionId)
    ? await deps.storage.interactions.findById(interactionId)
    : null;
  // Hashes compare in plain: knowing a hash's prefix does not help find a token.
  if (interaction?.tokenHash !== hashSecret(token)) {
    throw new ApiError('UNKNOWN_INTERACTION');
  }
  return interaction;
}

/** Builds the callback handler, the callback by token and the interaction webhooks. */
export function createInteractionResponses(
  deps: Omit<CallbackDeps, 'messages'> & {
    messages: Pick<MessageService, 'postAs' | 'getAs' | 'editAs' | 'deleteAs'>;
  },
) {
  const handleCallback = createCallbackHandler(deps);
  return {
    handleCallback,
    /** Finds the interaction by id and token (10062 otherwise); the body is read after. */
    find: (interactionId: string, token: string) => interactionByToken(deps, interactionId, token),
    /** POST /interactions/{id}/{token}/callback once the interaction was found. */
    respond(
      interaction: InteractionRecord,
      request: { body: unknown; files: readonly StreamedFile[] },
    ): Promise<InteractionCallbackResponse> {
      return handleCallback(interaction, request.body, request.files);
    },
    webhooks: createInteractionWebhooks(deps),
  };
}

export type InteractionResponses = ReturnType<typeof createInteractionResponses>;
