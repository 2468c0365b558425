import { ApiError } from '../../errors/index.js';
import type { StreamedFile } from '../../http/multipart.js';
import type { WebhookRecord } from '../../storage/index.js';
import type {
  MessageService,
  MessageWire,
  WebhookEditInput,
  WebhookMessageInput,
} from '../messages/index.js';
import { assertWebhookName } from './service.js';

/** The message id the interaction routes name an original response by. */
export const ORIGINAL_MESSAGE = '@original';

/** What an execute's query asks for. */
export interface ExecuteOptions {
  /** Until threads exist, any thread_id names an unknown channel (10003). */
  threadId?: string | undefined;
  /** A plain webhook's components are kept only with with_components=true. */
  withComponents?: boolean | undefined;
}

/** 10003 for a thread_id: this server has no threads yet (docs/webhooks.md#threads). */
function refuseThread(threadId: string | undefined): void {
  if (threadId !== undefined) throw new ApiError('UNKNOWN_CHANNEL');
}

/** An incoming webhook's message id: `@original` is an interaction's only (10008). */
function messageIdOf(messageId: string): string {
  if (messageId === ORIGINAL_MESSAGE) throw new ApiError('UNKNOWN_MESSAGE');
  return messageId;
}

/**
 * A plain webhook (no app owns it) sends components only when the execute says
 * with_components=true; otherwise they are left out, as the platform does.
 */
function keptComponents<T extends { components?: unknown }>(
  webhook: WebhookRecord,
  input: T,
  withComponents: boolean | undefined,
): T {
  if (webhook.applicationId !== null || withComponents === true) return input;
  const rest = { ...input };
  delete rest.components;
  return rest;
}

/**
 * What an incoming webhook does with its messages: executes (as its name and avatar, or the
 * username the execute asks for), and gets, edits and deletes the messages it sent.
 */
export function createWebhookMessages(messages: MessageService) {
  const owner = (webhook: WebhookRecord) => ({ webhookId: webhook.id });
  return {
    /** POST /webhooks/{id}/{token}: the message made (the route answers 204 without `wait`). */
    async execute(
      webhook: WebhookRecord,
      request: { input: WebhookMessageInput; files: readonly StreamedFile[] },
      options: ExecuteOptions,
    ): Promise<MessageWire> {
      refuseThread(options.threadId);
      const input = keptComponents(webhook, request.input, options.withComponents);
      if (input.username != null) assertWebhookName('username', input.username);
      const { wire } = await messages.postAs({
        channelId: webhook.channelId,
        author: {
          kind: 'webhook',
          webhookId: webhook.id,
          username: input.username ?? webhook.name,
          avatar: webhook.avatar,
          applicationId: webhook.applicationId,
        },
        input,
        files: request.files,
      });
      return wire;
    },

    /** GET …/messages/{message_id}. */
    get(webhook: WebhookRecord, messageId: string, options: ExecuteOptions) {
      refuseThread(options.threadId);
      return messages.getAs(webhook.channelId, messageIdOf(messageId), owner(webhook));
    },

    /** PATCH …/messages/{message_id}. */
    // eslint-disable-next-line max-params -- the shape of the message service's editAs.
    edit(
      webhook: WebhookRecord,
      messageId: string,
      request: { input: WebhookEditInput; files: readonly StreamedFile[] },
      options: ExecuteOptions,
    ) {
      refuseThread(options.threadId);
      return messages.editAs(webhook.channelId, messageIdOf(messageId), owner(webhook), {
        input: keptComponents(webhook, request.input, options.withComponents),
        files: request.files,
      });
    },

    /** DELETE …/messages/{message_id}. */
    delete(webhook: WebhookRecord, messageId: string, options: ExecuteOptions) {
      refuseThread(options.threadId);
      return messages.deleteAs(webhook.channelId, messageIdOf(messageId), owner(webhook));
    },
  };
}

export type WebhookMessages = ReturnType<typeof createWebhookMessages>;
