/**
 * Multi-node benchmark: the topology of docs/operations.md as real processes (`guildhall start`,
 * GUILDHALL_ROLE api or gateway) on PostgreSQL, NATS (JetStream) and Redis, against one API and
 * one gateway process measured in the same run, and again with the bus history off (what the
 * JetStream stream costs). Then a gateway node is killed with SIGKILL mid-traffic: how long its
 * sessions take to RESUME on the other node, and what they missed. See docs/benchmarks.md.
 */
import console from 'node:console';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { BotSession } from './support/botSession.js';
import { startCluster } from './support/cluster.js';

const USAGE = `Usage: node bench/multinode.js [options]   (after npx tsc -b)

For each setup (1 API + 1 gateway process; 2 + 2; 2 + 2 without the bus history), a fresh
PostgreSQL schema, NATS prefix and Redis prefix; --sessions bots, spread over the gateway
processes, each with one session in one guild; the owner posts --messages messages through the
API processes in turn, --inflight at a time (rate limits off):
  - posts/s: HTTP answers per second;
  - deliveries/s: MESSAGE_CREATEs received by all sessions per second;
  - latency: from the POST until the last session has it, p50 and p99.
Failover (2 + 2 with history): posts keep coming (2 in flight); the first gateway process is killed
with SIGKILL; its sessions RESUME on the other: time from the kill to RESUMED, messages missed
(must be 0) and received twice, and whether every resumed session's seqs run without a gap.

Options:
  --sessions <n>   bot sessions (default 40)
  --messages <n>   messages per setup (default 1000)
  --inflight <n>   POSTs in flight (default 16)
  --rounds <n>     rounds of every setup, in turn, each on fresh processes (default 3); the table
                   gives each figure's median, and the range of deliveries/s
  --postgres <url> default $GUILDHALL_BENCH_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test
  --nats <url>     default $GUILDHALL_BENCH_NATS_URL, else nats://127.0.0.1:4222 (with JetStream)
  --redis <url>    default $GUILDHALL_BENCH_REDIS_URL, else redis://127.0.0.1:6379
  --json           print the results as JSON
  --help

Exit status: 0 when no session missed a message, 1 otherwise or on any failure.`;

const DELIVERY_TIMEOUT_MS = 60_000;
const FAILOVER_LEAD_MS = 1000;
const FAILOVER_TAIL_MS = 1000;
const FAILOVER_INFLIGHT = 2;

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      sessions: { type: 'string', default: '40' },
      messages: { type: 'string', default: '1000' },
      inflight: { type: 'string', default: '16' },
      rounds: { type: 'string', default: '3' },
      postgres: {
        type: 'string',
        default:
          process.env.GUILDHALL_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
      },
      nats: {
        type: 'string',
        default: process.env.GUILDHALL_BENCH_NATS_URL ?? 'nats://127.0.0.1:4222',
      },
      redis: {
        type: 'string',
        default: process.env.GUILDHALL_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
      },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const integer = (name, [min, max]) => {
    const value = Number(values[name]);
    if (!/^\d+$/.test(values[name]) || value < min || value > max)
      throw new Error(`--${name} must be an integer from ${min} to ${max}; got "${values[name]}".`);
    return value;
  };
  return {
    help: values.help,
    json: values.json,
    sessions: integer('sessions', [2, 5000]),
    messages: integer('messages', [1, 1_000_000]),
    inflight: integer('inflight', [1, 256]),
    rounds: integer('rounds', [1, 100]),
    urls: { postgres: values.postgres, nats: values.nats, redis: values.redis },
  };
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/** What the sessions received: per nonce, how many receipts and the last one's time. */
function receiptBook() {
  const byNonce = new Map();
  return {
    note(nonce, at) {
      const entry = byNonce.get(nonce) ?? { count: 0, last: 0 };
      entry.count++;
      entry.last = Math.max(entry.last, at);
      byNonce.set(nonce, entry);
    },
    get: (nonce) => byNonce.get(nonce),
  };
}

/** Posts messages through the API processes in turn; `next()` gives each one's nonce, or null. */
async function postMessages({ cluster, inflight, next, onSent }) {
  const { apis, world } = cluster;
  let turn = 0;
  const worker = async () => {
    for (let nonce = next(); nonce !== null; nonce = next()) {
      const api = apis[turn++ % apis.length].apiUrl;
      const sentAt = performance.now();
      const answer = await globalThis.fetch(`${api}/channels/${world.channelId}/messages`, {
        method: 'POST',
        headers: { authorization: world.ownerToken, 'content-type': 'application/json' },
        body: JSON.stringify({ content: nonce, nonce }),
      });
      if (answer.status !== 200)
        throw new Error(`POST answered ${answer.status}: ${await answer.text()}`);
      await answer.arrayBuffer();
      onSent(nonce, sentAt, performance.now());
    }
  };
  await Promise.all(Array.from({ length: inflight }, worker));
}

async function waitUntil(done, timeoutMs) {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

/** Opens one session per bot, bot i on gateway i mod the gateway count. */
async function openSessions(cluster, perSession) {
  const sessions = cluster.world.botTokens.map(
    (token, i) => new BotSession({ token, onMessage: (nonce, at) => perSession(i, nonce, at) }),
  );
  await Promise.all(
    sessions.map((s, i) => s.identify(cluster.gateways[i % cluster.gateways.length].gatewayUrl)),
  );
  return sessions;
}

async function throughput(cluster, options) {
  const book = receiptBook();
  const sessions = await openSessions(cluster, (_, nonce, at) => book.note(nonce, at));
  const sent = new Map();
  let firstSend = Infinity;
  let lastAnswer = 0;
  let n = 0;
  await postMessages({
    cluster,
    inflight: options.inflight,
    next: () => (n < options.messages ? `t${n++}` : null),
    onSent(nonce, sentAt, answeredAt) {
      sent.set(nonce, sentAt);
      firstSend = Math.min(firstSend, sentAt);
      lastAnswer = Math.max(lastAnswer, answeredAt);
    },
  });
  const all = [...sent.keys()];
  const delivered = await waitUntil(
    () => all.every((nonce) => (book.get(nonce)?.count ?? 0) >= sessions.length),
    DELIVERY_TIMEOUT_MS,
  );
  for (const s of sessions) s.close();
  if (!delivered) throw new Error('not every session received every message');
  const latencies = all
    .map((nonce) => book.get(nonce).last - sent.get(nonce))
    .sort((a, b) => a - b);
  const lastReceipt = Math.max(...all.map((nonce) => book.get(nonce).last));
  return {
    postsPerSecond: (all.length / (lastAnswer - firstSend)) * 1000,
    deliveriesPerSecond: ((all.length * sessions.length) / (lastReceipt - firstSend)) * 1000,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  };
}

async function failover(cluster, options) {
  const perSession = Array.from({ length: options.sessions }, () => new Map());
  const sessions = await openSessions(cluster, (i, nonce) =>
    perSession[i].set(nonce, (perSession[i].get(nonce) ?? 0) + 1),
  );
  const [dying, surviving] = cluster.gateways;
  const moved = sessions.filter((_, i) => i % cluster.gateways.length === 0);
  const posted = [];
  const flow = { on: true };
  let n = 0;
  const traffic = postMessages({
    cluster,
    inflight: FAILOVER_INFLIGHT,
    next: () => (flow.on ? `f${n++}` : null),
    onSent: (nonce) => posted.push(nonce),
  });
  await sleep(FAILOVER_LEAD_MS);
  const killedAt = performance.now();
  dying.kill('SIGKILL');
  const resumedAfter = await Promise.all(
    moved.map(async (session) => {
      await session.closed;
      return (await session.resume(surviving.gatewayUrl)) - killedAt;
    }),
  );
  await sleep(FAILOVER_TAIL_MS);
  flow.on = false;
  await traffic;
  const complete = (i) => posted.every((nonce) => perSession[i].has(nonce));
  await waitUntil(() => sessions.every((_, i) => complete(i)), DELIVERY_TIMEOUT_MS);
  const gapless = moved.every((s) =>
    s.seqs.every((seq, i) => i === 0 || seq === s.seqs[i - 1] + 1),
  );
  for (const s of sessions) s.close();
  let missed = 0;
  let twice = 0;
  for (const received of perSession) {
    missed += posted.filter((nonce) => !received.has(nonce)).length;
    for (const count of received.values()) twice += count - 1;
  }
  resumedAfter.sort((a, b) => a - b);
  return {
    moved: moved.length,
    messages: posted.length,
    resumeP50Ms: percentile(resumedAfter, 0.5),
    resumeMaxMs: resumedAfter.at(-1),
    missed,
    twice,
    gapless,
  };
}

const SETUPS = [
  { name: '1 API + 1 gateway', apis: 1, gateways: 1 },
  { name: '2 API + 2 gateway', apis: 2, gateways: 2, failover: true },
  {
    name: '2 + 2, no history',
    apis: 2,
    gateways: 2,
    env: { GUILDHALL_NATS_HISTORY_SECONDS: '0' },
  },
];

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

function printTables(options, results) {
  const f = (value, digits = 0) => value.toFixed(digits);
  console.log(
    `\n${options.sessions} sessions, ${options.messages} messages, ${options.inflight} POSTs in flight, ` +
      `${options.rounds} rounds; ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), ` +
      `load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} ` +
      '(a shared machine: compare rows of this run only)\n',
  );
  const rows = [['setup', 'posts/s', 'deliveries/s', '(range)', 'latency p50 ms', 'p99 ms']];
  for (const setup of SETUPS) {
    const runs = results.filter((r) => r.setup === setup).map((r) => r.result);
    const of = (key) => median(runs.map((r) => r[key]));
    const deliveries = runs.map((r) => r.deliveriesPerSecond);
    rows.push([
      setup.name,
      f(of('postsPerSecond')),
      f(of('deliveriesPerSecond')),
      `${f(Math.min(...deliveries))}–${f(Math.max(...deliveries))}`,
      f(of('p50Ms'), 1),
      f(of('p99Ms'), 1),
    ]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const row of rows) console.log(row.map((cell, c) => cell.padEnd(widths[c])).join('  '));
  const fo = results.find((r) => r.failover !== undefined)?.failover;
  if (fo === undefined) return;
  console.log(
    `\nFailover (2 + 2, first round): gateway killed with SIGKILL, ${fo.moved} sessions moved, ${fo.messages} messages posted meanwhile\n` +
      `  kill → RESUMED: p50 ${f(fo.resumeP50Ms)} ms, max ${f(fo.resumeMaxMs)} ms\n` +
      `  missed: ${fo.missed}; received twice: ${fo.twice}; resumed seqs without a gap: ${fo.gapless ? 'yes' : 'NO'}`,
  );
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const results = [];
  for (let round = 1; round <= options.rounds; round++)
    for (const setup of SETUPS) {
      const cluster = await startCluster({
        urls: options.urls,
        apis: setup.apis,
        gateways: setup.gateways,
        bots: options.sessions,
        env: setup.env,
      });
      try {
        if (!options.json) process.stderr.write(`round ${round}: ${setup.name}\n`);
        const result = await throughput(cluster, options);
        const entry = { setup, round, result };
        if (setup.failover && round === 1) entry.failover = await failover(cluster, options);
        results.push(entry);
      } finally {
        await cluster.close();
      }
    }
  if (options.json) console.log(JSON.stringify(results, null, 2));
  else printTables(options, results);
  const fo = results.find((r) => r.failover !== undefined)?.failover;
  return fo !== undefined && fo.missed === 0 && fo.gapless ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
