import type { StreamedFile } from '../../http/multipart.js';
import type { MessageWire, WebhookEditInput, WebhookMessageInput } from '../messages/index.js';

/**
 * /webhooks/{application_id}/{interaction_token}/…: an interaction's original response and
 * followups. The webhook routes hand a token route over to it when `{id}` is not an incoming
 * webhook's id (resources/interactions implements it). Every method throws the platform's
 * errors: 10015 UNKNOWN_WEBHOOK when the token is not a live interaction's of that app.
 */
export interface InteractionWebhooks {
  /** GET /webhooks/{app}/{token}: the app's webhook-like object; 10015 when the token is not a live interaction's. */
  get(applicationId: string, token: string): Promise<Record<string, unknown>>;
  /** POST (followup). */
  execute(
    applicationId: string,
    token: string,
    request: { input: WebhookMessageInput; files: readonly StreamedFile[] },
  ): Promise<MessageWire>;
  /** GET …/messages/{message_id} or …/messages/@original. */
  getMessage(applicationId: string, token: string, messageId: string): Promise<MessageWire>;
  /** PATCH …/messages/{message_id} or …/messages/@original. */
  editMessage(
    applicationId: string,
    token: string,
    messageId: string,
    request: { input: WebhookEditInput; files: readonly StreamedFile[] },
  ): Promise<MessageWire>;
  /** DELETE …/messages/{message_id} or …/messages/@original. */
  deleteMessage(applicationId: string, token: string, messageId: string): Promise<void>;
}
