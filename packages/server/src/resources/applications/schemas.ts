import { ALL_PERMISSIONS, ApplicationFlags } from '@guildhall/protocol';
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

/** The scopes an install link may carry, as the platform's ApplicationOAuth2InstallParams. */
export const INSTALL_SCOPES = ['applications.commands', 'bot'] as const;

/** A permission bitset: a decimal string or an integer, within the known bits. */
const Permissions = z
  .union([z.string().regex(/^\d{1,20}$/, 'Permissions must be a decimal integer.'), z.int().min(0)])
  .transform((value) => BigInt(value))
  .refine((bits) => (bits & ~ALL_PERMISSIONS) === 0n, 'Unknown permission bits.')
  .transform((bits) => bits.toString());

/** `{scopes, permissions}`: what an install link asks for when it names no scope. */
const InstallParamsBody = z.object({
  scopes: z
    .array(z.enum(INSTALL_SCOPES))
    .min(1)
    .refine((scopes) => new Set(scopes).size === scopes.length, 'Scopes must be unique.'),
  permissions: Permissions.nullable()
    .optional()
    .transform((value) => value ?? '0'),
});
export type InstallParamsInput = z.infer<typeof InstallParamsBody>;

const IntegrationTypeBody = z
  .object({ oauth2_install_params: InstallParamsBody.nullable().optional() })
  .nullable();

/**
 * The installation contexts the app supports (a key present enables it: "0" guild, "1" user),
 * each with its default install. A user install cannot add a bot.
 */
const IntegrationTypesConfigBody = z
  .object({
    '0': IntegrationTypeBody.optional(),
    '1': IntegrationTypeBody.optional().superRefine((entry, ctx) => {
      if (entry?.oauth2_install_params?.scopes.includes('bot') === true) {
        ctx.addIssue({
          code: 'custom',
          path: ['oauth2_install_params', 'scopes'],
          message: 'A user install cannot have the bot scope.',
        });
      }
    }),
  })
  .strict()
  .refine(
    (config) => config['0'] !== undefined || config['1'] !== undefined,
    'At least one installation context must be enabled.',
  );

export const ModifyApplicationBody = z.object({
  description: z
    .union([z.string().max(400), z.object({ default: z.string().max(400) })])
    .nullable()
    .optional(),
  icon: z.string().nullable().optional(),
  /** An image data URI (as `icon`); null removes it. */
  cover_image: z.string().nullable().optional(),
  flags: UInt31.nullable().optional(),
  interactions_endpoint_url: HttpUrl.nullable().optional(),
  event_webhooks_url: HttpUrl.nullable().optional(),
  ...EventWebhooksFields,
  tags: z.array(z.string().min(1).max(20)).max(5).nullable().optional(),
  custom_install_url: HttpUrl.nullable().optional(),
  install_params: InstallParamsBody.nullable().optional(),
  integration_types_config: IntegrationTypesConfigBody.optional(),
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
  /** The app's name (its bot keeps its username), under the rules of a new app's name. */
  name: BotUsername.optional(),
  /** DMs and group DMs hidden from the bot's gateway unless it is in them (docs/gateway.md). */
  private_channel_obfuscation: z.boolean().optional(),
  /** Social SDK settings: the terms (relationships.read without approval) and the entrypoint. */
  social_sdk_terms_accepted: z.boolean().optional(),
  connection_entrypoint_url: HttpUrl.nullable().optional(),
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

/** POST /applications/{id}/assets: a rich presence image. */
export const CreateAssetBody = z.object({
  name: z
    .string()
    .min(1)
    .max(32)
    .regex(/^[a-z0-9_]+$/, 'Asset names use lower-case letters, digits and underscores.'),
  /** 1 small, 2 large. */
  type: z.union([z.literal(1), z.literal(2)]),
  image: z.string().min(1),
});
export type CreateAssetInput = z.infer<typeof CreateAssetBody>;

export const AssetParams = z.object({ application_id: z.string(), asset_id: z.string() });
