/**
 * Voice through the kit: two people join a guild voice channel with op 4 as the client does,
 * one speaks PCM through the Social SDK's voice client and the other hears it, end-to-end
 * encrypted; leaving is announced.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PCM_FRAME_SAMPLES, startGuildhall, type Guildhall } from '../src/index.js';

let gh: Guildhall;

beforeAll(async () => {
  gh = await startGuildhall({
    world: {
      people: { ann: null, bob: null },
      guilds: {
        home: {
          owner: 'ann',
          channels: { lounge: { type: 'voice' } },
          members: { bob: null },
        },
      },
    },
  });
});

afterAll(async () => {
  await gh.close();
});

/** A 440 Hz tone, 48 kHz stereo interleaved, `frames` frames of 20 ms. */
function tone(frames: number): Int16Array {
  const pcm = new Int16Array(frames * PCM_FRAME_SAMPLES);
  for (let i = 0; i < pcm.length / 2; i += 1) {
    const sample = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 48_000));
    pcm[2 * i] = sample;
    pcm[2 * i + 1] = sample;
  }
  return pcm;
}

it('speaks PCM one person hears, and leaves', async () => {
  const lounge = gh.world.guilds['home']?.channels['lounge'] ?? '';
  const ann = gh.people.get('ann');
  const bob = gh.people.get('bob');
  const annCall = await ann.joinVoice(lounge);
  expect(annCall.seat.state).toMatchObject({ user_id: ann.id, channel_id: lounge });
  expect(annCall.seat.server.endpoint).toMatch(/:\d+$/);
  const bobCall = await bob.joinVoice(lounge);
  await Promise.all([annCall.connectAudio(), bobCall.connectAudio()]);

  const spoken = tone(25);
  await annCall.speak(spoken);
  const heard = await bobCall.hear(ann.id, 10 * PCM_FRAME_SAMPLES);
  // Opus is lossy: the tone comes back loud, not sample for sample.
  const energy = heard.reduce((sum, s) => sum + Math.abs(s), 0) / heard.length;
  expect(energy).toBeGreaterThan(1000);

  const left = await annCall.leave();
  expect(left).toMatchObject({ user_id: ann.id, channel_id: null });
  await bobCall.leave();
});
