/**
 * The app's initial response to an interaction, wherever it comes from: the body of
 * POST /interactions/{id}/{token}/callback, or the body of the app's answer to the signed POST
 * of its interactions endpoint (the HTTP delivery hands it over as it arrived). Each callback
 * type does what the platform's does (docs/interactions.md#responding); the interaction is
 * acknowledged in the transaction of what the response writes, so it happens once or not at all.
 */
import { MessageFlags } from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import type { StreamedFile } from '../../http/multipart.js';
import { parseInput } from '../../http/validate.js';
import type { InteractionRecord, Repositories, Storage } from '../../storage/index.js';
import { validateModal } from '../components/index.js';
import { loadMessageChannel, type MessageService, type MessageWire } from '../messages/index.js';
import {
  allowedCallbackTypes,
  AutocompleteCallbackBody,
  CALLBACK_TYPES,
  CallbackEnvelope,
  MessageCallbackBody,
  ModalCallbackBody,
  UpdateCallbackBody,
} from './callbackSchemas.js';
import { autocompleteChoicesChecked } from './autocomplete.js';
import type { InteractionLifecycle } from './lifecycle.js';
import type { InteractionActivities } from './ports.js';
import { responseAuthor, sourceMessageId } from './responseAuthor.js';
import { autocompleteDispatch, modalDispatch } from './userDispatches.js';

/** What POST …/callback?with_response=true answers (the platform's InteractionCallbackResponse). */
export interface InteractionCallbackResponse {
  interaction: Record<string, unknown>;
  resource?: { type: number; message?: MessageWire; activity_instance?: { id: string } };
}

/**
 * Handles one initial response of `interaction`: throws the platform's errors (10062 when the
 * interaction failed or expired, 40060 when it was acknowledged already, 50035 for a bad body)
 * and resolves to what a `with_response` callback answers.
 */
export type HandleCallback = (
  interaction: InteractionRecord,
  body: unknown,
  files: readonly StreamedFile[],
) => Promise<InteractionCallbackResponse>;

export { CALLBACK_TYPES } from './callbackSchemas.js';

/**
 * Acknowledges the interaction with `responseType` inside `tx`, or throws why it cannot be:
 * 10062 when it failed, expired or is gone, 40060 when it was acknowledged already.
 */
export async function acknowledgeOrThrow(
  deps: { lifecycle: InteractionLifecycle; now: number },
  tx: Repositories,
  answer: { interaction: InteractionRecord; responseType: number },
): Promise<void> {
  const { interaction, responseType } = answer;
  if (interaction.expiresAt <= deps.now) throw new ApiError('UNKNOWN_INTERACTION');
  if (await deps.lifecycle.acknowledge(tx, interaction, responseType)) return;
  const current = await tx.interactions.findById(interaction.id);
  if (current?.failedAt == null && current !== null) {
    throw new ApiError('INTERACTION_ALREADY_ACKNOWLEDGED');
  }
  throw new ApiError('UNKNOWN_INTERACTION');
}

/** What the callback handler is built from: `storage` is a dispatching storage. */
export interface CallbackDeps {
  storage: Storage;
  clock: { now(): number };
  lifecycle: InteractionLifecycle;
  /** The messages responses make and edit (the message service's app writes). */
  messages: Pick<MessageService, 'postAs' | 'editAs'>;
  /** LAUNCH_ACTIVITY launches or joins the app's instance in the interaction's channel. */
  activities: InteractionActivities;
}

/**
 * Refuses a response the interaction can no longer take before its body is read: 10062 when it
 * is expired or failed (an unanswered one past its 3 s deadline fails now), 40060 when it was
 * acknowledged. The acknowledgement itself checks again, atomically.
 */
async function assertAnswerable(deps: CallbackDeps, interaction: InteractionRecord): Promise<void> {
  const now = deps.clock.now();
  if (interaction.failedAt !== null || interaction.expiresAt <= now) {
    throw new ApiError('UNKNOWN_INTERACTION');
  }
  if (interaction.responseType !== null) throw new ApiError('INTERACTION_ALREADY_ACKNOWLEDGED');
  if (interaction.ackDeadlineAt <= now) {
    await deps.lifecycle.fail(interaction);
    throw new ApiError('UNKNOWN_INTERACTION');
  }
}

/**
 * Runs a write of the response's message data: its 50035 field errors name their fields under
 * `data`, where the callback body has them (`data.components.0…`, `data.flags`).
 */
async function underData<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof ApiError && err.errorName === 'INVALID_FORM_BODY' && err.errors) {
      throw new ApiError('INVALID_FORM_BODY', { errors: { data: err.errors }, cause: err });
    }
    throw err;
  }
}

/** The `interaction` part of a with_response answer, with the message the response made. */
function callbackInteraction(
  interaction: InteractionRecord,
  message: MessageWire | null,
): Record<string, unknown> {
  return {
    id: interaction.id,
    type: interaction.type,
    ...(message === null
      ? {}
      : {
          response_message_id: message.id,
          response_message_loading: (message.flags & MessageFlags.LOADING) !== 0,
          response_message_ephemeral: (message.flags & MessageFlags.EPHEMERAL) !== 0,
        }),
    channel_id: interaction.channelId,
    ...(interaction.guildId === null ? {} : { guild_id: interaction.guildId }),
  };
}

/**
 * The callback handler: checks the response's `type` against the interaction's, then does what
 * the type does, acknowledging in the same transaction.
 */
export function createCallbackHandler(deps: CallbackDeps): HandleCallback {
  const { storage, messages } = deps;
  return async (interaction, body, files) => {
    await assertAnswerable(deps, interaction);
    const { type } = parseInput(CallbackEnvelope, body);
    const fromMessageId = sourceMessageId(interaction);
    const allowed = allowedCallbackTypes({
      type: interaction.type,
      fromMessage: fromMessageId !== null,
      hasActivity: await deps.activities.hasActivity(storage, interaction.applicationId),
    });
    if (!allowed.includes(type)) {
      throw invalidField(
        ['type'],
        'BASE_TYPE_CHOICES',
        `Value must be one of {${allowed.join(', ')}}.`,
      );
    }
    const application = await storage.applications.findById(interaction.applicationId);
    if (application === null) throw new ApiError('UNKNOWN_INTERACTION');
    /** Acknowledges with this response, then records what it made the original response. */
    const acknowledge =
      (originalMessageId: string | null) => async (tx: Repositories, message?: { id: string }) => {
        const now = deps.clock.now();
        await acknowledgeOrThrow({ ...deps, now }, tx, { interaction, responseType: type });
        const original = originalMessageId ?? message?.id ?? null;
        if (original !== null) await tx.interactions.setOriginalMessage(interaction.id, original);
      };
    const author = { botUserId: application.botUserId };
    const owner = {
      applicationId: interaction.applicationId,
      ...(application.botUserId === null ? {} : { botUserId: application.botUserId }),
    };

    switch (type) {
      case CALLBACK_TYPES.CHANNEL_MESSAGE_WITH_SOURCE: {
        const { data } = parseInput(MessageCallbackBody, body);
        const { wire } = await underData(() =>
          messages.postAs({
            channelId: interaction.channelId,
            author: responseAuthor(interaction, author),
            input: data ?? {},
            files,
            within: acknowledge(null),
          }),
        );
        return {
          interaction: callbackInteraction(interaction, wire),
          resource: { type, message: wire },
        };
      }
      case CALLBACK_TYPES.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: {
        // Only EPHEMERAL means something here; the rest of the data waits for the edit.
        const { data } = parseInput(MessageCallbackBody, body);
        const { wire } = await messages.postAs({
          channelId: interaction.channelId,
          author: responseAuthor(interaction, { ...author, loading: true }),
          input: { flags: (data?.flags ?? 0) & MessageFlags.EPHEMERAL },
          files: [],
          within: acknowledge(null),
        });
        return { interaction: callbackInteraction(interaction, wire) };
      }
      case CALLBACK_TYPES.DEFERRED_UPDATE_MESSAGE:
        await storage.transaction((tx) => acknowledge(fromMessageId)(tx));
        return { interaction: callbackInteraction(interaction, null) };
      case CALLBACK_TYPES.UPDATE_MESSAGE: {
        const { data } = parseInput(UpdateCallbackBody, body);
        const wire = await underData(() =>
          messages.editAs(interaction.channelId, fromMessageId ?? '', owner, {
            input: data ?? {},
            files,
            within: acknowledge(fromMessageId),
          }),
        );
        return {
          interaction: callbackInteraction(interaction, wire),
          resource: { type, message: wire },
        };
      }
      case CALLBACK_TYPES.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT: {
        const { data } = parseInput(AutocompleteCallbackBody, body);
        const choices = autocompleteChoicesChecked(interaction, data.choices ?? []);
        await storage.transaction(async (tx) => {
          await acknowledge(null)(tx);
          autocompleteDispatch(tx, interaction, choices);
        });
        return { interaction: callbackInteraction(interaction, null) };
      }
      case CALLBACK_TYPES.MODAL: {
        const { data } = parseInput(ModalCallbackBody, body);
        const modal = validateModal(data);
        await storage.transaction(async (tx) => {
          await acknowledge(null)(tx);
          await tx.interactions.setModal(interaction.id, modal.custom_id, modal);
          modalDispatch(tx, { interaction, application, modal });
        });
        return { interaction: callbackInteraction(interaction, null) };
      }
      case CALLBACK_TYPES.LAUNCH_ACTIVITY: {
        // The invoking person launches (or joins) the app's instance where they invoked it.
        const access = await loadMessageChannel(storage, {
          channelId: interaction.channelId,
          userId: interaction.userId,
          nowMs: deps.clock.now(),
        });
        const launched = await storage.transaction(async (tx) => {
          // A launch refused (the person's permissions) rolls the acknowledgement back.
          await acknowledge(null)(tx);
          return deps.activities.launch(tx, {
            applicationId: interaction.applicationId,
            userId: interaction.userId,
            access,
          });
        });
        return {
          interaction: callbackInteraction(interaction, null),
          resource: { type, activity_instance: { id: launched.instance_id } },
        };
      }
      case CALLBACK_TYPES.PONG:
        // Not among the allowed types of any stored interaction (see allowedCallbackTypes).
        throw new TypeError(`callback type ${String(type)} passed the allowed-type check`);
    }
  };
}
