/**
 * A tone as Opus frames, and its frequency measured back from decoded PCM: what the real voice
 * clients (voiceBots.ts, dmCallClients.ts) carry through the relay to show the audio arrived.
 *
 * @module
 */
import { Readable } from 'node:stream';
import {
  AudioPlayerStatus,
  EndBehaviorType,
  StreamType,
  createAudioPlayer,
  createAudioResource,
  entersState,
  type VoiceConnection,
} from '@discordjs/voice';
import OpusScript from 'opusscript';

export const RATE = 48_000;
export const CHANNELS = 2;
const FRAME_SAMPLES = 960;
/** Seconds of tone the speaker plays. */
export const TONE_SECONDS = 6;

/** The tone as Opus frames of 20 ms. */
export function toneFrames(frequency: number): Buffer[] {
  const encoder = new OpusScript(RATE, CHANNELS, OpusScript.Application.AUDIO);
  const frames: Buffer[] = [];
  const total = (TONE_SECONDS * RATE) / FRAME_SAMPLES;
  for (let f = 0; f < total; f++) {
    const pcm = Buffer.alloc(FRAME_SAMPLES * CHANNELS * 2);
    for (let i = 0; i < FRAME_SAMPLES; i++) {
      const t = (f * FRAME_SAMPLES + i) / RATE;
      const sample = Math.round(Math.sin(2 * Math.PI * frequency * t) * 12_000);
      pcm.writeInt16LE(sample, i * 4);
      pcm.writeInt16LE(sample, i * 4 + 2);
    }
    frames.push(Buffer.from(encoder.encode(pcm, FRAME_SAMPLES)));
  }
  encoder.delete();
  return frames;
}

/** Zero crossings of the left channel, skipping each burst's first 100 ms (the decoder's start). */
export function measure(pcm: Buffer): { hz: number; seconds: number } {
  const samples = pcm.length / 4;
  const skip = RATE / 10;
  let crossings = 0;
  let previous = 0;
  for (let i = skip; i < samples; i++) {
    const value = pcm.readInt16LE(i * 4);
    if ((previous < 0 && value >= 0) || (previous >= 0 && value < 0)) crossings++;
    previous = value;
  }
  const seconds = (samples - skip) / RATE;
  return { hz: seconds > 0 ? crossings / 2 / seconds : 0, seconds };
}

/**
 * Plays the tone on `said` and hears `speakerId` on `heard` until a second of silence: the Opus
 * frames received, those that did not decode, and the frequency and length measured from the rest.
 */
export async function playAndHear(
  said: VoiceConnection,
  heard: VoiceConnection,
  speaker: { userId: string; frequency: number },
) {
  const decoder = new OpusScript(RATE, CHANNELS, OpusScript.Application.AUDIO);
  const pcm: Buffer[] = [];
  let frames = 0;
  let undecodable = 0;
  const stream = heard.receiver.subscribe(speaker.userId, {
    end: { behavior: EndBehaviorType.AfterSilence, duration: 1_000 },
  });
  stream.on('data', (frame: Buffer) => {
    frames++;
    try {
      pcm.push(Buffer.from(decoder.decode(frame)));
    } catch {
      undecodable++;
    }
  });
  const ended = new Promise<void>((resolve) =>
    stream.once('end', () => {
      resolve();
    }),
  );
  const player = createAudioPlayer();
  said.subscribe(player);
  player.play(
    createAudioResource(Readable.from(toneFrames(speaker.frequency)), {
      inputType: StreamType.Opus,
    }),
  );
  await entersState(player, AudioPlayerStatus.Playing, 10_000);
  await entersState(player, AudioPlayerStatus.Idle, (TONE_SECONDS + 10) * 1000);
  await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 3_000))]);
  decoder.delete();
  return { frames, undecodable, ...measure(Buffer.concat(pcm)) };
}
