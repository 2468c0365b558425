import { z } from 'zod';
import { QueryBoolean, Snowflake } from '../../http/schemas.js';

/** The platform's webhook limits (docs/webhooks.md#limits). */
export const WEBHOOK_LIMITS = {
  /** Webhooks of one channel (30007 beyond). */
  maxPerChannel: 15,
  maxName: 80,
  /** Executes of one webhook: 5 per 2 seconds, whoever sends them. */
  executeBucket: { limit: 5, windowMs: 2000 },
} as const;

/** A webhook's name (1–80; the rules on "clyde" and "discord" are checked by the service). */
const Name = z.string().min(1).max(WEBHOOK_LIMITS.maxName);

export const WebhookParams = z.object({ webhook_id: z.string() });
export const WebhookTokenParams = z.object({
  webhook_id: z.string(),
  webhook_token: z.string().max(256),
});
export const WebhookMessageParams = WebhookTokenParams.extend({ message_id: z.string() });

export const CreateWebhookBody = z.object({
  name: Name,
  avatar: z.string().nullable().optional(),
});
export type CreateWebhookInput = z.infer<typeof CreateWebhookBody>;

export const ModifyWebhookBody = z.object({
  name: Name.optional(),
  avatar: z.string().nullable().optional(),
  channel_id: Snowflake.nullable().optional(),
});
export type ModifyWebhookInput = z.infer<typeof ModifyWebhookBody>;

/** PATCH by token: no channel_id (moving a webhook needs MANAGE_WEBHOOKS). */
export const ModifyWebhookByTokenBody = ModifyWebhookBody.omit({ channel_id: true });

/** The query of an execute: `wait` for the message, a thread, components for plain webhooks. */
export const ExecuteQuery = z.object({
  wait: QueryBoolean.optional(),
  thread_id: Snowflake.optional(),
  with_components: QueryBoolean.optional(),
});
export type ExecuteQueryInput = z.infer<typeof ExecuteQuery>;

/** The query of the message routes: a thread, components for plain webhooks. */
export const WebhookMessageQuery = z.object({
  thread_id: Snowflake.optional(),
  with_components: QueryBoolean.optional(),
});
