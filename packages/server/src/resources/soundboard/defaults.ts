/**
 * The default soundboard sounds every voice channel offers (GET /soundboard-default-sounds):
 * no guild, no creator. Their ids are the platform's small numbers, so a client's saved
 * favourites keep working. The server has no recordings of its own: each default sound's audio
 * is a short silent MP3 made here, so the CDN path answers a real, playable file
 * (docs/soundboard.md#default-sounds).
 */
import type { APISoundboardSound } from 'discord-api-types/v10';
import type { WireShape } from '../wireShape.js';

export interface DefaultSound {
  id: string;
  name: string;
  emojiName: string;
  /** Playing time of the made audio, in MP3 frames of 1152 samples at 44.1 kHz. */
  frames: number;
}

export const DEFAULT_SOUNDS: readonly DefaultSound[] = [
  { id: '1', name: 'quack', emojiName: '🦆', frames: 20 },
  { id: '2', name: 'airhorn', emojiName: '🔊', frames: 60 },
  { id: '3', name: 'cricket', emojiName: '🦗', frames: 50 },
  { id: '4', name: 'golf clap', emojiName: '⛳', frames: 80 },
  { id: '5', name: 'sad horn', emojiName: '🎺', frames: 90 },
  { id: '6', name: 'ba dum tss', emojiName: '🥁', frames: 70 },
];

export const findDefaultSound = (id: string): DefaultSound | undefined =>
  DEFAULT_SOUNDS.find((sound) => sound.id === id);

/** MPEG-1 layer III, 128 kbit/s, 44.1 kHz, no CRC, no padding: 417-byte frames. */
const FRAME_HEADER = 0xfffb9004;
const FRAME_BYTES = 417;

/** A silent MP3 of `frames` frames (all-zero side info decodes to silence). */
export function silentMp3(frames: number): Buffer {
  const out = Buffer.alloc(frames * FRAME_BYTES);
  for (let i = 0; i < frames; i++) out.writeUInt32BE(FRAME_HEADER, i * FRAME_BYTES);
  return out;
}

/** A default sound as the wire has it (SoundboardSoundResponse without guild or user). */
export function serializeDefaultSound(sound: DefaultSound) {
  return {
    name: sound.name,
    sound_id: sound.id,
    volume: 1,
    emoji_id: null,
    emoji_name: sound.emojiName,
    available: true,
  } satisfies WireShape<APISoundboardSound>;
}
