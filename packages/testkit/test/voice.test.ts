/**
 * Voice and activities through the kit: two people join a guild voice channel with op 4 as the
 * client does, one speaks PCM through the Social SDK's voice client and the other hears it,
 * end-to-end encrypted; leaving is announced. An app's activity is launched, joined and left.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PCM_FRAME_SAMPLES, startGuildhall, type Guildhall } from '../src/index.js';

let gh: Guildhall;

beforeAll(async () => {
  gh = await startGuildhall({
    world: {
      people: { ann: null, bob: null },
      applications: { arcade: { owner: 'ann' } },
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

it('launches an activity another person joins, and leaves it', async () => {
  const lounge = gh.world.guilds['home']?.channels['lounge'] ?? '';
  const arcade = gh.world.applications['arcade']?.id ?? '';
  const ann = gh.people.get('ann');
  const bob = gh.people.get('bob');
  // Without an activity config the app has nothing to launch: the platform's refusal.
  await expect(bob.launchActivity(lounge, arcade)).rejects.toMatchObject({ status: 400 });
  await ann.rest.request(`PATCH /applications/${arcade}/embedded-activity-config`, {
    body: { url_mappings: [{ prefix: '/', target: '127.0.0.1:5173' }] },
  });
  const launched = await bob.launchActivity(lounge, arcade);
  expect(launched).toMatchObject({ application_id: arcade, launched_by: bob.id, users: [bob.id] });
  const joined = await ann.launchActivity(lounge, arcade);
  expect(joined.instance_id).toBe(launched.instance_id);
  expect(new Set(joined.users)).toEqual(new Set([bob.id, ann.id]));
  await bob.leaveActivity(joined);
  const update = await ann.waitForDispatch<{ instance_id: string; users: string[] }>(
    'EMBEDDED_ACTIVITY_UPDATE',
    (d) => d.instance_id === launched.instance_id && !d.users.includes(bob.id),
  );
  expect(update.users).toEqual([ann.id]);
});
