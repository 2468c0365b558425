import { ApplicationFlags } from '@guildhall/protocol';
import { z } from 'zod';
import { UInt31 } from '../../http/schemas.js';
import { BotUsername } from '../users/index.js';
import { EventWebhooksFields } from './eventWebhooks.js';

const HttpUrl = z.url({ protocol: /^https?$/ }).max(2048);

/** An OAuth2 redirect URI: absolute, no fragment (RFC 6749 §3.1.2); custom schemes allowed. */
const RedirectUri = z
  .string()
  .min(1)
  .max(2048)
  .refine((value) => URL.canParse(value) && !value.includes('#'), 'Not a valid redirect URI.');

/**
 * The flags an app may set on itself: the "limited" intent toggles. The platform sets the rest.
 */
export const SELF_SERVE_APPLICATION_FLAGS =
  ApplicationFlags.GATEWAY_PRESENCE_LIMITED |
  ApplicationFlags.GATEWAY_GUILD_MEMBERS_LIMITED |
  ApplicationFlags.GATEWAY_MESSAGE_CONTENT_LIMITED;

export const ModifyApplicationBody = z.object({
  description: z
    .union([z.string().max(400), z.object({ default: z.string().max(400) })])
    .nullable()
    .optional(),
  icon: z.string().nullable().optional(),
  flags: UInt31.nullable().optional(),
  interactions_endpoint_url: HttpUrl.nullable().optional(),
  event_webhooks_url: HttpUrl.nullable().optional(),
  ...EventWebhooksFields,
  tags: z.array(z.string().min(1).max(20)).max(5).nullable().optional(),
});

/**
 * PATCH /applications/{id} by the owner (session) may also mark the app as using large bot
 * sharding, which turns on the `shard` rule of GET /users/@me/guilds (shown nowhere), and set the
 * OAuth2 client settings. Those are not in the platform's ApplicationFormPartial: a bot token
 * (PATCH /applications/@me) cannot change them, so a leaked bot token cannot redirect users'
 * authorization codes (unknown keys there are ignored, as the rest of that body's are).
 */
export const ModifyOwnedApplicationBody = ModifyApplicationBody.extend({
  large_bot_sharding: z.boolean().optional(),
  redirect_uris: z.array(RedirectUri).max(10).nullable().optional(),
  /** A public OAuth2 client: no secret, PKCE (docs/oauth.md). */
  public_client: z.boolean().optional(),
  /** Whether anyone, or only the owner, may add the bot to a server. */
  bot_public: z.boolean().optional(),
  /** Whether a bot install must complete the authorization code grant. */
  bot_require_code_grant: z.boolean().optional(),
  /** Whether the device authorization grant is accepted (docs/oauth.md). */
  device_flow_enabled: z.boolean().optional(),
});
export type ModifyApplicationInput = z.infer<typeof ModifyApplicationBody> &
  Partial<z.infer<typeof ModifyOwnedApplicationBody>>;

export const CreateApplicationBody = z.object({
  // The name is also the bot's username, so it follows the bot username rules.
  name: BotUsername,
  description: z.string().max(400).optional(),
});
export type CreateApplicationInput = z.infer<typeof CreateApplicationBody>;

export const ApplicationIdParams = z.object({ application_id: z.string() });
