/**
 * Real voice clients: two discord.js bots with @discordjs/voice 0.19 (DAVE through
 * @snazzah/davey), unchanged, join one voice channel of a listening Guildhall. One plays a tone
 * of a frequency this test picks; the other receives it through the relay, decrypts it (transport,
 * then DAVE) and decodes it, and the frequency it measures must be the one played. A bot that
 * turns DAVE off is refused with 4017. The bots run in a child process (support/voiceBots.ts)
 * that trusts the voice node's development certificate through NODE_EXTRA_CA_CERTS.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PermissionFlags as P, VoiceCloseCodes } from '@guildhall/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectChild } from './support/children.js';
import { seedDeveloper, startTestServer, type TestServer } from './support/testServer.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BOTS = fileURLToPath(new URL('./support/voiceBots.ts', import.meta.url));

let server: TestServer;
let guildId: string;
let channelId: string;
let speaker: string;
let listener: string;

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  const { app } = server;
  const owner = await seedDeveloper(app, 'owner');
  const { guild } = await app.services.guilds.create({
    ownerId: owner.userId,
    name: 'Voice guild',
    channels: [
      { name: 'general', type: 'text' },
      { name: 'Lounge', type: 'voice' },
    ],
  });
  guildId = guild.id;
  const channels = await app.storage.channels.listByGuild(guild.id);
  channelId = channels.find((c) => c.type === 2)?.id ?? '';
  const bots = [await seedDeveloper(app, 'speaker'), await seedDeveloper(app, 'listener')];
  for (const bot of bots) {
    await app.services.guilds.addBot({
      guildId,
      applicationId: bot.applicationId,
      permissions: P.VIEW_CHANNEL | P.CONNECT | P.SPEAK,
    });
  }
  [speaker, listener] = bots.map((bot) => bot.botToken) as [string, string];
});
afterAll(async () => {
  await server.close();
});

/** Runs the bots; their one JSON line. */
async function runBots(frequency: number, flag?: string) {
  const voice = server.app.voice;
  if (voice === null) throw new Error('the test server runs no voice node');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      BOTS,
      server.baseUrl,
      speaker,
      listener,
      guildId,
      channelId,
      String(frequency),
      ...(flag === undefined ? [] : [flag]),
    ],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        TSX_TSCONFIG_PATH: 'tsconfig.test.json',
        NODE_EXTRA_CA_CERTS: (await voice.tls()).certPath,
      },
      stdio: 'pipe',
    },
  );
  const result = await collectChild(child);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as Partial<
    Record<'frames' | 'undecodable' | 'seconds' | 'hz' | 'closeCode', number>
  >;
}

describe('@discordjs/voice 0.19 with DAVE', () => {
  it('carries a tone from one bot to another: the frequency heard is the one played', async () => {
    // A frequency of this run's choosing: nothing but the audio itself can carry it across.
    const frequency = 300 + Math.floor(Math.random() * 400);
    const heard = await runBots(frequency);
    // Six seconds of 20 ms frames; a few go before the listener's DAVE session moves on.
    expect(heard.frames).toBeGreaterThan(150);
    expect(heard.undecodable).toBe(0);
    expect(heard.seconds).toBeGreaterThan(3);
    expect(Math.abs((heard.hz ?? 0) - frequency)).toBeLessThan(frequency * 0.02);
  }, 90_000);

  it('refuses a bot that turns DAVE off with 4017', async () => {
    const refused = await runBots(440, '--no-dave');
    expect(refused.closeCode).toBe(VoiceCloseCodes.E2EE_REQUIRED);
  }, 60_000);
});
