import { z } from 'zod';
import { Snowflake } from '../../http/schemas.js';
import { EXTERNAL_AUTH_TYPES, IDENTITY_PROVIDERS } from '../../storage/index.js';
import { DAY_SECONDS } from '../../domain/time.js';

/** The longest external user id (an OIDC subject, or an id a bot vouches for). */
export const MAX_EXTERNAL_ID_LENGTH = 1024;
/** The longest external credential (an ID token, a provider's ticket). */
export const MAX_EXTERNAL_AUTH_TOKEN_LENGTH = 10240;
/** The longest ban an operator may set; longer is permanent (no duration). */
const MAX_BAN_SECONDS = 10 * 365 * DAY_SECONDS;

/** POST /partner-sdk/token/bot (docs/platform-notes.md#provisional-accounts). */
export const BotTokenBody = z.object({
  external_user_id: z.string().min(1).max(MAX_EXTERNAL_ID_LENGTH),
  preferred_global_name: z.string().min(1).max(32).nullish(),
});

/** An external credential; a public client leaves the secret out. */
export const CredentialsBody = z.object({
  client_id: z.string().min(1).max(32),
  client_secret: z.string().min(1).max(256).optional(),
  external_auth_type: z.enum(EXTERNAL_AUTH_TYPES),
  external_auth_token: z.string().min(1).max(MAX_EXTERNAL_AUTH_TOKEN_LENGTH),
});

export const UnmergeBotBody = z.object({
  external_user_id: z.string().min(1).max(MAX_EXTERNAL_ID_LENGTH),
});

export const ChildTokenBody = z.object({
  parent_access_token: z.string().min(1).max(512),
  child_application_id: Snowflake,
  /** Optional for a public parent client (the SDK's ExchangeChildToken). */
  parent_client_secret: z.string().min(1).max(256).optional(),
});

export const OidcProviderBody = z.object({
  issuer: z.string().min(1).max(2048),
  client_id: z.string().min(1).max(255),
});

export const ApplicationParams = z.object({ application_id: z.string() });

export const TestProviderParams = z.object({
  application_id: z.string(),
  provider: z.enum(IDENTITY_PROVIDERS),
});

/** A provider in test mode: only `mode: "test"` exists; production needs the provider. */
export const TestKeyBody = z.object({
  mode: z.literal('test'),
  /** SPKI PEM, at most a 4096-bit RSA key's size with room to spare. */
  public_key: z.string().min(1).max(4096),
});

export const AdminUserParams = z.object({ user_id: Snowflake });

export const AdminBanBody = z.object({
  reason: z.string().max(512).nullish(),
  /** Absent or null: a permanent ban. */
  duration_seconds: z.number().int().min(1).max(MAX_BAN_SECONDS).nullish(),
});

export const AdminLinkParams = z.object({ parent_id: Snowflake, child_id: Snowflake });
