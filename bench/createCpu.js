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
import process from 'node:process';
import { botGuild, seedDeveloper, startInProcessApp } from './support/benchApp.js';

const creates = Number(process.argv[2] ?? 2000);
const rounds = Number(process.argv[3] ?? 3);
const { app, close } = await startInProcessApp('cpu');
const { developer, botToken, application } = await seedDeveloper(app);
const { channels } = await botGuild(app, {
  ownerId: developer.user_id,
  applicationId: application.id,
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
await close();
const sorted = [...perCreate].sort((a, b) => a - b);
console.log(
  `CPU per create (µs), ${rounds} rounds of ${creates}: ${perCreate.map((v) => v.toFixed(0)).join(', ')}; median ${sorted[Math.floor(rounds / 2)].toFixed(0)}`,
);
