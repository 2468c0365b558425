import type { APISoundboardSound } from 'discord-api-types/v10';
import type { SoundboardSoundRecord, UserRecord } from '../../storage/index.js';
import type { WireShape } from '../wireShape.js';
import { serializeUser } from '../users/index.js';

/** A guild's sound (SoundboardSoundResponse); `user` when the caller may see who made it. */
export function serializeSound(sound: SoundboardSoundRecord, creator: UserRecord | null) {
  return {
    name: sound.name,
    sound_id: sound.id,
    volume: sound.volume,
    emoji_id: sound.emojiId,
    emoji_name: sound.emojiName,
    guild_id: sound.guildId,
    available: sound.available,
    ...(creator === null ? {} : { user: serializeUser(creator) }),
  } satisfies WireShape<APISoundboardSound>;
}

export type SoundWire = ReturnType<typeof serializeSound>;

/** The fields an audit entry tracks, under their wire names. */
export const auditedSound = (sound: SoundboardSoundRecord) => ({
  name: sound.name,
  volume: sound.volume,
  emoji_id: sound.emojiId,
  emoji_name: sound.emojiName,
});

/** VOICE_CHANNEL_EFFECT_SEND's payload: a sound played in a voice channel (service.ts `send`). */
export interface SoundEffectWire {
  channel_id: string;
  guild_id: string;
  user_id: string;
  sound_id: string;
  sound_volume: number;
  /** The sound's emoji, when it has one. */
  emoji?: { id: string | null; name: string | null };
  /** The guild the sound comes from, when the request named one. */
  source_guild_id?: string;
}

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    VOICE_CHANNEL_EFFECT_SEND: SoundEffectWire;
    GUILD_SOUNDBOARD_SOUND_CREATE: SoundWire;
    GUILD_SOUNDBOARD_SOUND_UPDATE: SoundWire;
    GUILD_SOUNDBOARD_SOUND_DELETE: { sound_id: string; guild_id: string };
  }
}
