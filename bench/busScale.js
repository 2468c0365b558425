/**
 * The bus subject design (docs/gateway.md#subjects) at many gateway nodes' fan-in and fan-out,
 * against the real NATS server: one process plays `--nodes` gateway nodes and `--publishers` API
 * nodes, each with a bus connection of its own made by the server's NATS driver
 * (bus/nats/index.js, the history kept in JetStream as the shipped default keeps it). Synthetic
 * sessions are spread over the gateway nodes; each node watches its sessions' user subjects and
 * guild subjects through the server's counted subscriptions (bus/subscriptions.js); the API nodes
 * publish MESSAGE_CREATEs through the server's dispatcher (events/dispatcher.js, the real subject
 * names and envelope). See docs/scaling.md.
 */
import console from 'node:console';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { connect } from 'nats';
// eslint-disable-next-line no-restricted-imports -- the bench plays nodes on the NATS driver itself
import { createNatsBus, historyStreamName } from '../packages/server/dist/bus/nats/index.js';
import { createSubjectSubscriptions } from '../packages/server/dist/bus/subscriptions.js';
import {
  createBusDispatcher,
  guildSubject,
  userSubject,
} from '../packages/server/dist/events/dispatcher.js';
import { buildWorld, cpuMsOf, findNatsServer } from './support/busWorld.js';
import { integerReader, readOptions } from './support/options.js';

const USAGE = `Usage: node bench/busScale.js [options]   (after npx tsc -b)

Plays --nodes gateway nodes and --publishers API nodes in one process against NATS at --nats.
--sessions synthetic sessions (one user each) are spread over the gateway nodes in turn; each
is a member of --guilds-per-session guilds drawn from --guilds with a Zipf-like skew (a few big
guilds, many small ones). Each node subscribes to its sessions' user subjects and to every guild
one of its sessions is in (counted: one subscription per subject per node). Then the API nodes
publish --rate messages a second for --seconds: a guild's MESSAGE_CREATE (the guild drawn in
proportion to its members) or, for --dm-share of them, a DM (on both users' subjects).

Printed: the subscriptions (what NATS holds), how long subscribing took, messages and dispatches
published per second, what the gateway nodes received (node deliveries) and what they would
send on to sessions (session deliveries), publish-to-receipt latency, deliveries missing after
the drain, and the CPU used by this process and by the NATS server (read from /proc, when the
server runs on this machine).

Options:
  --nodes <n>               gateway nodes (default 8)
  --publishers <n>          API nodes publishing (default 2)
  --sessions <n>            sessions over all nodes (default 20000)
  --guilds <n>              guilds (default 2000)
  --guilds-per-session <n>  guilds each session is in (default 5)
  --rate <n>                messages a second over all publishers (default 1000)
  --seconds <n>             seconds of publishing (default 10)
  --dm-share <percent>      share of messages that are DMs (default 10)
  --bytes <n>               message content size (default 300)
  --history <on|off>        keep dispatches in JetStream as the default deployment does (default on)
  --nats <url>              NATS server (default nats://127.0.0.1:4222)
  --json                    print the result as JSON
  --help                    print this help`;

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      nodes: { type: 'string', default: '8' },
      publishers: { type: 'string', default: '2' },
      sessions: { type: 'string', default: '20000' },
      guilds: { type: 'string', default: '2000' },
      'guilds-per-session': { type: 'string', default: '5' },
      rate: { type: 'string', default: '1000' },
      seconds: { type: 'string', default: '10' },
      'dm-share': { type: 'string', default: '10' },
      bytes: { type: 'string', default: '300' },
      history: { type: 'string', default: 'on' },
      nats: { type: 'string', default: 'nats://127.0.0.1:4222' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const integer = integerReader(values);
  if (!['on', 'off'].includes(values.history)) throw new Error('--history is on or off');
  return {
    help: values.help,
    json: values.json,
    nodes: integer('nodes', [1, 1000]),
    publishers: integer('publishers', [1, 100]),
    sessions: integer('sessions', [1, 10_000_000]),
    guilds: integer('guilds', [1, 10_000_000]),
    guildsPerSession: integer('guilds-per-session', [0, 200]),
    rate: integer('rate', [1, 1_000_000]),
    seconds: integer('seconds', [1, 3600]),
    dmShare: integer('dm-share', [0, 100]),
    bytes: integer('bytes', [1, 1_000_000]),
    history: values.history === 'on',
    nats: values.nats,
  };
}

const now = () => performance.timeOrigin + performance.now();
/** How often the publishers wake to publish what the rate owes. */
const TICK_MS = 10;

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Opens a bus connection as a node of the deployment does; what it absorbs goes to `errors`. */
function openBus(options, { prefix, name, errors }) {
  return createNatsBus({
    servers: options.nats,
    name,
    subjectPrefix: prefix,
    onError: (err) => errors.push(err),
    ...(options.history ? { history: { subjects: ['dispatch.>'], keepMs: 60_000 } } : {}),
  });
}

/** Every node subscribes to its subjects; resolves with the time it took. */
async function subscribeAll(world, gateways, received) {
  const started = performance.now();
  await Promise.all(
    gateways.map(async (bus, index) => {
      const local = world.nodes[index];
      const subscriptions = createSubjectSubscriptions({
        bus,
        handler: (event, subject) => {
          received.nodeDeliveries += 1;
          received.sessionDeliveries += local.get(subject) ?? 0;
          received.latenciesMs.push(now() - event.publishedAt);
        },
      });
      const acquired = [];
      for (const [subject, count] of local) {
        for (let i = 0; i < count; i += 1) acquired.push(subscriptions.acquire(subject));
      }
      await Promise.all(acquired);
    }),
  );
  return performance.now() - started;
}

/** Publishes at the rate asked, spread over the publishers; resolves with what was sent. */
async function publish(world, dispatchers, options) {
  const content = 'x'.repeat(options.bytes);
  const sent = { messages: 0, expectedNodeDeliveries: 0 };
  const nodesWatching = (subject) => world.nodes.filter((node) => node.has(subject)).length;
  const watchers = new Map();
  const expected = (subject) => {
    let n = watchers.get(subject);
    if (n === undefined) watchers.set(subject, (n = nodesWatching(subject)));
    return n;
  };
  const started = performance.now();
  let turn = 0;
  while (performance.now() - started < options.seconds * 1000) {
    // Paced by the clock, not by the ticks: a late tick publishes what it owes.
    const owed = Math.floor(((performance.now() - started) / 1000) * options.rate);
    for (; sent.messages < owed;) {
      const dispatcher = dispatchers[turn++ % dispatchers.length];
      const id = String(3e15 + sent.messages);
      if (world.rand() * 100 < options.dmShare) {
        const a = world.users[Math.floor(world.rand() * world.users.length)].userId;
        const b = world.users[Math.floor(world.rand() * world.users.length)].userId;
        const userIds = a === b ? [a] : [a, b];
        dispatcher.dispatch({
          type: 'MESSAGE_CREATE',
          guildId: null,
          userIds,
          data: { id, content },
        });
        for (const userId of userIds) sent.expectedNodeDeliveries += expected(userSubject(userId));
      } else {
        const guildId = world.speakingGuild();
        dispatcher.dispatch({
          type: 'MESSAGE_CREATE',
          guildId,
          channelId: guildId,
          data: { id, guild_id: guildId, content },
        });
        sent.expectedNodeDeliveries += expected(guildSubject(guildId));
      }
      sent.messages += 1;
    }
    await sleep(TICK_MS);
  }
  sent.elapsedMs = performance.now() - started;
  return sent;
}

async function run(options) {
  const prefix = `busscale_${process.pid}_${Date.now().toString(36)}.`;
  const world = buildWorld(options);
  const natsPid = findNatsServer();
  const received = { nodeDeliveries: 0, sessionDeliveries: 0, latenciesMs: [] };
  const buses = [];
  // What the buses absorbed: a kept publish not acknowledged in time stalls its outbox, which
  // then sends one event at a time until the stream answers again (bus/nats/outbox.js).
  const busErrors = [];
  try {
    for (let i = 0; i < options.publishers; i += 1) {
      buses.push(await openBus(options, { prefix, name: `busscale-api-${i}`, errors: busErrors }));
    }
    const publishers = buses.slice();
    const gateways = [];
    for (let i = 0; i < options.nodes; i += 1) {
      const bus = await openBus(options, {
        prefix,
        name: `busscale-gateway-${i}`,
        errors: busErrors,
      });
      buses.push(bus);
      gateways.push(bus);
    }
    const subscribeMs = await subscribeAll(world, gateways, received);
    const errors = [];
    const dispatchers = publishers.map((bus) =>
      createBusDispatcher({ bus, clock: { now }, onError: (err) => errors.push(err) }),
    );
    const cpuBefore = process.cpuUsage();
    const natsBefore = cpuMsOf(natsPid);
    const sent = await publish(world, dispatchers, options);
    // The drain: until every expected delivery came, or nothing came for 2 s.
    let last = -1;
    for (let quiet = 0; quiet < 20 && received.nodeDeliveries < sent.expectedNodeDeliveries;) {
      await sleep(100);
      quiet = received.nodeDeliveries === last ? quiet + 1 : 0;
      last = received.nodeDeliveries;
    }
    const cpu = process.cpuUsage(cpuBefore);
    const natsAfter = cpuMsOf(natsPid);
    const subscriptions = world.nodes.reduce((sum, node) => sum + node.size, 0);
    const seconds = sent.elapsedMs / 1000;
    const latencies = received.latenciesMs.sort((a, b) => a - b);
    return {
      options: { ...options, json: undefined, help: undefined },
      subscriptions,
      subscriptionsPerNode: Math.round(subscriptions / options.nodes),
      maxSubscriptionsPerNode: Math.max(...world.nodes.map((node) => node.size)),
      subscribeSeconds: subscribeMs / 1000,
      subscriptionsPerSecond: subscriptions / (subscribeMs / 1000),
      messagesPerSecond: sent.messages / seconds,
      nodeDeliveriesPerSecond: received.nodeDeliveries / seconds,
      sessionDeliveriesPerSecond: received.sessionDeliveries / seconds,
      nodesPerMessage: received.nodeDeliveries / Math.max(1, sent.messages),
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      missing: sent.expectedNodeDeliveries - received.nodeDeliveries,
      publishErrors: errors.length,
      busErrors: busErrors.length,
      firstBusError: busErrors[0] === undefined ? null : String(busErrors[0]),
      benchCpuPercent: ((cpu.user + cpu.system) / 1000 / sent.elapsedMs) * 100,
      natsCpuPercent:
        natsBefore === null || natsAfter === null
          ? null
          : ((natsAfter - natsBefore) / sent.elapsedMs) * 100,
    };
  } finally {
    for (const bus of buses) await bus.close();
    if (options.history) await dropStream(options.nats, historyStreamName(prefix));
  }
}

/** Removes the bench's history stream. */
async function dropStream(servers, name) {
  const nc = await connect({ servers });
  try {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(name).catch(() => undefined);
  } finally {
    await nc.close();
  }
}

function printTable(r) {
  const o = r.options;
  const n = (x) => Math.round(x).toLocaleString('en-US');
  console.log(
    `Bus subjects at scale: ${o.nodes} gateway nodes, ${o.publishers} API nodes, ${n(o.sessions)} sessions, ` +
      `${n(o.guilds)} guilds × ${o.guildsPerSession} per session, ${n(o.rate)} messages/s offered ` +
      `(${o.dmShare} % DMs, ${o.bytes} B) for ${o.seconds} s, history ${o.history ? 'on' : 'off'}`,
  );
  console.log('');
  console.log(
    '| subscriptions | per node (max) | subscribe s | subs/s | messages/s | node deliveries/s | nodes per message | session deliveries/s | p50 ms | p99 ms | missing | bus errors | bench CPU % | NATS CPU % |',
  );
  console.log(
    '| ------------: | -------------: | ----------: | -----: | ---------: | ----------------: | ----------------: | -------------------: | -----: | -----: | ------: | ---------: | ----------: | ---------: |',
  );
  console.log(
    `| ${n(r.subscriptions)} | ${n(r.subscriptionsPerNode)} (${n(r.maxSubscriptionsPerNode)}) | ` +
      `${r.subscribeSeconds.toFixed(1)} | ${n(r.subscriptionsPerSecond)} | ${n(r.messagesPerSecond)} | ` +
      `${n(r.nodeDeliveriesPerSecond)} | ${r.nodesPerMessage.toFixed(2)} | ${n(r.sessionDeliveriesPerSecond)} | ` +
      `${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${n(r.missing)} | ${n(r.busErrors)} | ${r.benchCpuPercent.toFixed(0)} | ` +
      `${r.natsCpuPercent === null ? '—' : r.natsCpuPercent.toFixed(0)} |`,
  );
}

async function main() {
  const { options, exitCode } = readOptions(parseOptions, USAGE);
  if (options === null) return exitCode;
  const result = await run(options);
  if (options.json) console.log(JSON.stringify(result, null, 2));
  else printTable(result);
  if (!options.json && result.firstBusError !== null) {
    console.log(
      `\nThe buses absorbed ${result.busErrors} errors; the first: ${result.firstBusError}`,
    );
  }
  return result.missing > 0 || result.publishErrors > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
