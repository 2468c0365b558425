/**
 * What the rate limiter costs per request, and what keeping its counts in Redis adds: an
 * authenticated GET /api/v10/users/@me on Guildhall (SQLite) with rate limits off, on in memory,
 * and on in Redis (REDIS_URL), measured in turn in the same run. Every request is checked against
 * the invalid-request counts of its address and user, the global limit and its route bucket (one
 * Redis script, one round trip); none is refused. Each server runs in its own child process.
 * Besides requests per second, it prints the CPU time per request of the server process and, for
 * the Redis target, of the Redis server (INFO cpu; anything else using that Redis counts too):
 * numbers a shared machine disturbs less than throughput. See docs/benchmarks.md.
 *
 * Usage: node bench/rateLimits.js [--duration s] [--rounds n] [--connections n] [--redis url]
 * (after tsc -b; --redis defaults to $GUILDHALL_BENCH_REDIS_URL, else redis://127.0.0.1:6379)
 */
import { fork } from 'node:child_process';
import console from 'node:console';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    redis: {
      type: 'string',
      default: process.env.GUILDHALL_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    },
  },
});
const durationSeconds = Number(values.duration);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const WARMUP_SECONDS = 2;
const redisPrefix = `guildhall-bench:${randomBytes(6).toString('hex')}:`;

function startServer(dataDir, limits) {
  const child = fork(
    fileURLToPath(new URL('./support/rateLimitServer.js', import.meta.url)),
    [dataDir, limits, redisPrefix],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`rateLimitServer exited with ${code}`)));
    child.on('message', (message) => {
      if (message?.type !== 'ready') return;
      resolve({
        ...message,
        /** The child's CPU time so far (user + system), in microseconds. */
        cpuMicros: () =>
          new Promise((done) => {
            child.once('message', (answer) => done(answer.usage.user + answer.usage.system));
            child.send({ type: 'cpu' });
          }),
        stop: () =>
          new Promise((done) => {
            child.removeAllListeners('exit');
            child.once('exit', done);
            child.send({ type: 'stop' });
          }),
      });
    });
  });
}

/** The Redis server's CPU time so far (user + system), in microseconds. */
async function redisCpuMicros(client) {
  const info = await client.info('cpu');
  const field = (name) => Number(new RegExp(`^${name}:([0-9.]+)`, 'm').exec(info)?.[1] ?? NaN);
  return (field('used_cpu_user') + field('used_cpu_sys')) * 1e6;
}

async function run(server, seconds, redis) {
  const serverBefore = await server.cpuMicros();
  const redisBefore = redis ? await redisCpuMicros(redis) : 0;
  const result = await autocannon({
    url: `${server.apiUrl}/users/@me`,
    headers: { authorization: `Bot ${server.botToken}` },
    connections,
    duration: seconds,
  });
  if (result.non2xx > 0 || result.errors > 0 || result['2xx'] === 0) {
    throw new Error(`non-2xx answers or errors: ${JSON.stringify(result.statusCodeStats)}`);
  }
  const requests = result['2xx'];
  result.serverMicrosPerRequest = ((await server.cpuMicros()) - serverBefore) / requests;
  result.redisMicrosPerRequest = redis
    ? ((await redisCpuMicros(redis)) - redisBefore) / requests
    : null;
  return result;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const targets = [
  { name: 'rate limits off', dir: 'off', limits: 'off' },
  { name: 'rate limits in memory', dir: 'memory', limits: 'memory' },
  { name: 'rate limits in Redis', dir: 'redis', limits: values.redis },
];
const root = await mkdtemp(join(os.tmpdir(), 'guildhall-bench-rl-'));
const results = new Map(targets.map((t) => [t.name, []]));
const redis = new Redis(values.redis);
const redisOf = (target) => (target.limits.startsWith('redis') ? redis : undefined);
try {
  for (const target of targets) {
    target.server = await startServer(join(root, target.dir), target.limits);
    await run(target.server, WARMUP_SECONDS, redisOf(target));
  }
  for (let round = 1; round <= rounds; round++) {
    for (const target of targets) {
      const result = await run(target.server, durationSeconds, redisOf(target));
      results.get(target.name).push(result);
    }
  }
} finally {
  await Promise.all(targets.map((t) => t.server?.stop()));
  await rm(root, { recursive: true, force: true });
  const keys = await redis.keys(`${redisPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
}

const base = median(results.get(targets[0].name).map((r) => r.requests.average));
console.log(
  `GET /api/v10/users/@me, ${connections} connections, medians of ${rounds} rounds x ${durationSeconds} s`,
);
console.log('target                  req/s    p50 ms  p99 ms  vs off  server µs/req  Redis µs/req');
for (const target of targets) {
  const runs = results.get(target.name);
  const rps = median(runs.map((r) => r.requests.average));
  const p50 = median(runs.map((r) => r.latency.p50));
  const p99 = median(runs.map((r) => r.latency.p99));
  const serverCpu = median(runs.map((r) => r.serverMicrosPerRequest));
  const redisCpu = redisOf(target) ? median(runs.map((r) => r.redisMicrosPerRequest)) : null;
  console.log(
    `${target.name.padEnd(22)} ${rps.toFixed(0).padStart(7)} ${p50.toFixed(1).padStart(8)} ${p99.toFixed(1).padStart(7)}  ${(rps / base).toFixed(2)}  ${serverCpu.toFixed(1).padStart(13)}  ${(redisCpu === null ? '-' : redisCpu.toFixed(1)).padStart(12)}`,
  );
}
