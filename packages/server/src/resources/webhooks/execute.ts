import { ApiError } from '../../errors/index.js';
import type { StreamedFile } from '../../http/multipart.js';
import type { WebhookRecord } from '../../storage/index.js';
import type {
  MessageService,
  MessageWire,
  WebhookEditInput,
  WebhookMessageInput,
} from '../messages/index.js';
import { assertWebhookName } from './names.js';

/** The message id the interaction routes name an original response by. */
export const ORIGINAL_MESSAGE = '@original';

/** What an execute's query asks for. */
export interface ExecuteOptions {
  /** A thread of the webhook's channel to post in (10003 for any other id). */
  threadId?: string | undefined;
  /** A plain webhook's components are kept only with with_components=true. */
  withComponents?: boolean | undefined;
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
export function createWebhookMessages(
  messages: MessageService,
  /** The webhook's channel, or the thread of it an execute names (WebhookService). */
  targetChannel: (webhook: WebhookRecord, threadId: string | undefined) => Promise<string>,
) {
  const owner = (webhook: WebhookRecord) => ({ webhookId: webhook.id });
  return {
    /** POST /webhooks/{id}/{token}: the message made (the route answers 204 without `wait`). */
    async execute(
      webhook: WebhookRecord,
      request: { input: WebhookMessageInput; files: readonly StreamedFile[] },
      options: ExecuteOptions,
    ): Promise<MessageWire> {
      const channelId = await targetChannel(webhook, options.threadId);
      const input = keptComponents(webhook, request.input, options.withComponents);
      if (input.username != null) assertWebhookName('username', input.username);
      const { wire } = await messages.postAs({
        channelId,
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
    async get(webhook: WebhookRecord, messageId: string, options: ExecuteOptions) {
      const channelId = await targetChannel(webhook, options.threadId);
      return messages.getAs(channelId, messageIdOf(messageId), owner(webhook));
    },

    /** PATCH …/messages/{message_id}. */
    // eslint-disable-next-line max-params -- the shape of the message service's editAs.
    async edit(
      webhook: WebhookRecord,
      messageId: string,
      request: { input: WebhookEditInput; files: readonly StreamedFile[] },
      options: ExecuteOptions,
    ) {
      const channelId = await targetChannel(webhook, options.threadId);
      return messages.editAs(channelId, messageIdOf(messageId), owner(webhook), {
        input: keptComponents(webhook, request.input, options.withComponents),
        files: request.files,
      });
    },

    /** DELETE …/messages/{message_id}. */
    async delete(webhook: WebhookRecord, messageId: string, options: ExecuteOptions) {
      const channelId = await targetChannel(webhook, options.threadId);
      return messages.deleteAs(channelId, messageIdOf(messageId), owner(webhook));
    },
  };
}

export type WebhookMessages = ReturnType<typeof createWebhookMessages>;
