/**
 * CPU per request of the two HTTP hot paths, measured in-process on the shipped defaults (as
 * bench/http.js runs Guildhall: SQLite on disk, logs at the default level on standard output,
 * the test controls on as on a loopback host, the rate limiter on with its limits raised): the
 * real app with a bot in a guild, then `concurrency` requests at a time through
 * `app.http.inject` (no sockets, so no HTTP parser or socket writes: Guildhall's own work and
 * Fastify's). Prints the process's user+system CPU per request, which a busy machine moves far
 * less than requests/s. Its logs go to standard output: point it at a file, as `npm start >
 * guildhall.log` would; the figures go to standard error.
 *
 *   node bench/requestCpu.js users|messages [requests=4000] [rounds=5] [concurrency=50] > log
 */
import console from 'node:console';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { createApp, loadConfig } from './support/guildhallModules.js';
import { botGuild, seedDeveloper } from './support/benchApp.js';

const [route = 'users', requests = '4000', rounds = '5', concurrency = '50'] =
  process.argv.slice(2);
if (route !== 'users' && route !== 'messages') {
  console.error('usage: node bench/requestCpu.js users|messages [requests] [rounds] [concurrency]');
  process.exit(2);
}
const dataDir = await mkdtemp(join(os.tmpdir(), 'guildhall-requestcpu-'));
const app = await createApp(
  loadConfig({
    GUILDHALL_HOST: '127.0.0.1',
    GUILDHALL_PORT: '0',
    GUILDHALL_DATA_DIR: dataDir,
    GUILDHALL_DEMO: 'off',
    GUILDHALL_GLOBAL_RATE_LIMIT: '1000000',
    GUILDHALL_ROUTE_RATE_LIMIT: '1000000/1',
  }),
);
const { developer, botToken, application } = await seedDeveloper(app);
const { channels } = await botGuild(app, {
  ownerId: developer.user_id,
  applicationId: application.id,
});
const authorization = `Bot ${botToken}`;
const one =
  route === 'users'
    ? () =>
        app.http.inject({ method: 'GET', url: '/api/v10/users/@me', headers: { authorization } })
    : () =>
        app.http.inject({
          method: 'POST',
          url: `/api/v10/channels/${channels[0].id}/messages`,
          headers: { authorization, 'content-type': 'application/json' },
          payload: '{"content":"Benchmark message: hello from autocannon"}',
        });

/** `n` requests, `concurrency` in flight. */
const run = async (n) => {
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next += 1;
      const response = await one();
      if (response.statusCode !== 200) throw new Error(`${route}: ${response.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: Number(concurrency) }, worker));
};

await run(Number(requests));
const perRequest = [];
for (let round = 0; round < Number(rounds); round += 1) {
  const before = process.cpuUsage();
  await run(Number(requests));
  const used = process.cpuUsage(before);
  perRequest.push((used.user + used.system) / Number(requests));
}
await app.close();
await rm(dataDir, { recursive: true, force: true });
const sorted = [...perRequest].sort((a, b) => a - b);
console.error(
  `${route}: µs CPU per request, median of ${rounds} rounds of ${requests}: ` +
    `${sorted[Math.floor(sorted.length / 2)].toFixed(1)} (rounds: ${perRequest.map((v) => v.toFixed(1)).join(', ')})`,
);
