import { z } from 'zod';
import { DisplayName, Snowflake } from '../../http/schemas.js';

const Volume = z.number().min(0).max(1);
const EmojiName = z.string().min(1).max(32);

/** POST /guilds/{id}/soundboard-sounds (SoundboardCreateRequest): `sound` is a data URI. */
export const CreateSoundBody = z.object({
  name: DisplayName(2, 32),
  sound: z.string(),
  volume: Volume.nullable().optional(),
  emoji_id: Snowflake.nullable().optional(),
  emoji_name: EmojiName.nullable().optional(),
});
export type CreateSoundInput = z.infer<typeof CreateSoundBody>;

export const ModifySoundBody = z.object({
  name: DisplayName(2, 32).optional(),
  volume: Volume.nullable().optional(),
  emoji_id: Snowflake.nullable().optional(),
  emoji_name: EmojiName.nullable().optional(),
});
export type ModifySoundInput = z.infer<typeof ModifySoundBody>;

export const SoundParams = z.object({ guild_id: z.string(), sound_id: z.string() });

export const SendSoundBody = z.object({
  sound_id: Snowflake,
  source_guild_id: Snowflake.nullable().optional(),
});
export type SendSoundInput = z.infer<typeof SendSoundBody>;

/** The largest sound file the platform takes: 512 KiB. */
export const MAX_SOUND_BYTES = 512 * 1024;
/** The longest sound: 5.2 seconds. */
export const MAX_SOUND_SECONDS = 5.2;
/** Sound slots of a guild without boosts (premium tier 0). */
export const SOUND_LIMIT_TIER_0 = 8;
