/** @module The edge of guild tags and primary guilds (docs/social-stats.md). */
import { z } from 'zod';
import { Snowflake } from '../../http/schemas.js';

/** A guild tag: 1 to 4 letters or digits (spec Limits, "Guild tag length"). */
export const MIN_GUILD_TAG_LENGTH = 1;
export const MAX_GUILD_TAG_LENGTH = 4;
/** The longest badge identifier. */
export const MAX_BADGE_LENGTH = 64;

export const GuildTag = z
  .string()
  .regex(
    new RegExp(`^[\\p{L}\\p{N}]{${MIN_GUILD_TAG_LENGTH},${MAX_GUILD_TAG_LENGTH}}$`, 'u'),
    `Must be ${MIN_GUILD_TAG_LENGTH} to ${MAX_GUILD_TAG_LENGTH} letters or digits.`,
  );

/** A badge: an opaque identifier (letters, digits, `_`, `-`). */
export const Badge = z
  .string()
  .regex(
    new RegExp(`^[A-Za-z0-9_-]{1,${MAX_BADGE_LENGTH}}$`),
    'Must be an identifier of letters, digits, _ or -.',
  );

/** PUT /guilds/{guild.id}/tag. */
export const PutGuildTagBody = z.strictObject({
  tag: GuildTag,
  badge: Badge.nullable().optional(),
});
export type PutGuildTagInput = z.output<typeof PutGuildTagBody>;

/** PUT /users/@me/primary-guild: null identity_guild_id clears; identity_enabled defaults to true. */
export const PutPrimaryGuildBody = z.strictObject({
  identity_guild_id: Snowflake.nullable(),
  identity_enabled: z.boolean().optional(),
});
export type PutPrimaryGuildInput = z.output<typeof PutPrimaryGuildBody>;
