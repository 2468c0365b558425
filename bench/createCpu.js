/**
 * CPU per message create, measured in-process: the real Guildhall app (SQLite in a temporary
 * folder, rate limits off) with a bot in a guild, then sequential POST /channels/{id}/messages
 * through `app.http.inject` (no sockets). Prints the process's user+system CPU per create, which a busy
 * machine barely moves (unlike creates/s). Run under `node --cpu-prof` for a profile of the same
 * work, summarised with `node bench/support/cpuProfile.js <file>`.
 *
 *   node bench/createCpu.js [creates=2000] [rounds=3]
 */
import console from 'node:console';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { PermissionFlags } from '@guildhall/protocol';
import { createApp } from '../packages/server/dist/app.js';
import { loadConfig } from '../packages/server/dist/config.js';

const creates = Number(process.argv[2] ?? 2000);
const rounds = Number(process.argv[3] ?? 3);
const dataDir = await mkdtemp(join(process.env.BENCH_TMP ?? tmpdir(), 'guildhall-cpu-'));
const config = loadConfig({
  GUILDHALL_HOST: '127.0.0.1',
  GUILDHALL_PORT: '0',
  GUILDHALL_DATA_DIR: dataDir,
  GUILDHALL_LOG_LEVEL: 'warn',
  GUILDHALL_RATE_LIMITS: 'off',
  GUILDHALL_DEMO: 'off',
});
const app = await createApp({ config });
const developer = await app.services.auth.register({
  email: 'bench@guildhall.localhost',
  username: 'bench',
  password: randomBytes(16).toString('hex'),
  global_name: 'Bench Developer',
});
const { botToken, application } = await app.services.applications.create(developer.user_id, {
  name: 'Bench Bot',
});
const { guild, channels } = await app.services.guilds.create({
  ownerId: developer.user_id,
  name: 'Bench guild',
  channels: [{ name: 'general', type: 'text' }],
});
const P = PermissionFlags;
await app.services.guilds.addBot({
  guildId: guild.id,
  applicationId: application.id,
  permissions: P.VIEW_CHANNEL | P.SEND_MESSAGES | P.READ_MESSAGE_HISTORY,
});

const post = async (n) => {
  for (let i = 0; i < n; i += 1) {
    const response = await app.http.inject({
      method: 'POST',
      url: `/api/v10/channels/${channels[0].id}/messages`,
      headers: { authorization: `Bot ${botToken}` },
      payload: { content: `bench message ${i}` },
    });
    if (response.statusCode !== 200) throw new Error(`create: ${response.statusCode}`);
  }
};

await post(1000);
const perCreate = [];
for (let round = 0; round < rounds; round += 1) {
  const before = process.cpuUsage();
  await post(creates);
  const used = process.cpuUsage(before);
  perCreate.push((used.user + used.system) / creates);
}
await app.close();
await rm(dataDir, { recursive: true, force: true });
const sorted = [...perCreate].sort((a, b) => a - b);
console.log(
  `CPU per create (µs), ${rounds} rounds of ${creates}: ${perCreate.map((v) => v.toFixed(0)).join(', ')}; median ${sorted[Math.floor(rounds / 2)].toFixed(0)}`,
);
