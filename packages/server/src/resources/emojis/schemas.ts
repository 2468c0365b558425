import { z } from 'zod';
import { DisplayName, Snowflake } from '../../http/schemas.js';

/** Emoji names: 2–32 of A–Z, a–z, 0–9 and `_` (the platform's rule). */
export const EmojiName = DisplayName(2, 32).regex(
  /^[A-Za-z0-9_]+$/,
  'Emoji names may only contain letters, numbers and underscores.',
);

/** Role ids that may use the emoji; null or empty means everyone (openapi maxItems 1521). */
const EmojiRoles = z.array(Snowflake).max(1521).nullable().optional();

export const CreateEmojiBody = z.object({
  name: EmojiName,
  image: z.string(),
  roles: EmojiRoles,
});
export type CreateEmojiInput = z.infer<typeof CreateEmojiBody>;

export const ModifyEmojiBody = z.object({
  name: EmojiName.optional(),
  roles: EmojiRoles,
});
export type ModifyEmojiInput = z.infer<typeof ModifyEmojiBody>;

export const EmojiParams = z.object({ guild_id: z.string(), emoji_id: z.string() });

/** The largest emoji image the platform takes: 256 KiB. */
export const MAX_EMOJI_BYTES = 256 * 1024;
/** Emoji slots of a guild without boosts (premium tier 0), static and animated apart. */
export const EMOJI_LIMIT_TIER_0 = 50;
