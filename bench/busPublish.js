/**
 * What publishing a dispatch until NATS has stored it costs (docs/operations.md, Outages): a
 * nats-server of the bench's own (JetStream, its store in a temporary folder) and, measured in
 * turn in each round, a bare nats.js publish (the baseline), the NATS bus on a subject its history
 * does not keep (a core publish through its outbox), and on one it keeps (a JetStream publish,
 * held until acknowledged). Then what the outbox holds while the server is down, and how long it
 * takes to hand it over once the server is back. See docs/benchmarks.md.
 */
import { spawn } from 'node:child_process';
import console from 'node:console';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { connect } from 'nats';
// eslint-disable-next-line no-restricted-imports -- a benchmark picks its driver, as app.ts does
import { createNatsBus } from '../packages/server/dist/bus/nats/index.js';
import { integerReader, readOptions } from './support/options.js';
import { percentile } from './support/stats.js';

const USAGE = `Usage: node --expose-gc bench/busPublish.js [options]   (after npx tsc -b)

Per round, each setup in turn on a fresh subject prefix:
  bare      nats.js publish on a core subject (no bus): the baseline
  not kept  the NATS bus, a subject its history does not keep (core publish, outbox)
  kept      the NATS bus, a subject its history keeps (JetStream publish, acknowledged)
A subscriber on another connection of the same process receives every event:
  - latency: --paced events at --rate a second; publish to receipt, p50 and p99 (kept: also
    publish to acknowledgement);
  - throughput: --events events published as fast as the setup takes them (kept: --inflight
    unacknowledged at most), events a second from the first publish to the last receipt.
Outage (kept): the server is killed, --held events are published, the heap they hold is
measured (heap and buffers, after gc), the server is started again: the time until every one is acknowledged and
received.

Options:
  --events <n>      events for throughput (default 20000)
  --paced <n>       events for latency (default 2000)
  --rate <n>        events a second for latency (default 1000)
  --inflight <n>    unacknowledged publishes at most in the kept throughput run (default 1000)
  --held <n>        events published while the server is down (default 20000)
  --bytes <n>       payload bytes of each event (default 1000, a MESSAGE_CREATE's order)
  --rounds <n>      rounds (default 3); the table gives medians
  --nats-server <path>  default /usr/sbin/nats-server
  --json            print the results as JSON
  --help`;

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      events: { type: 'string', default: '20000' },
      paced: { type: 'string', default: '2000' },
      rate: { type: 'string', default: '1000' },
      inflight: { type: 'string', default: '1000' },
      held: { type: 'string', default: '20000' },
      bytes: { type: 'string', default: '1000' },
      rounds: { type: 'string', default: '3' },
      'nats-server': { type: 'string', default: '/usr/sbin/nats-server' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const integer = integerReader(values);
  return {
    help: values.help,
    json: values.json,
    events: integer('events', [1, 10_000_000]),
    paced: integer('paced', [1, 1_000_000]),
    rate: integer('rate', [1, 100_000]),
    inflight: integer('inflight', [1, 100_000]),
    held: integer('held', [1, 1_000_000]),
    bytes: integer('bytes', [1, 1_000_000]),
    rounds: integer('rounds', [1, 100]),
    natsServer: values['nats-server'],
  };
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A nats-server with JetStream on a free port, its store in `dir`; restartable. */
async function natsServer(bin, dir) {
  const port = await freePort();
  let child = null;
  const start = async () => {
    child = spawn(bin, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir], {
      stdio: 'ignore',
    });
    for (;;) {
      try {
        const nc = await connect({ servers: `nats://127.0.0.1:${port}`, reconnect: false });
        await nc.close();
        return;
      } catch {
        await sleep(20);
      }
    }
  };
  const stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `nats://127.0.0.1:${port}`, start, stop };
}

const summary = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
};

/** A receiver that notes each event's receipt time, and resolves once `count` came. */
function receiver() {
  const received = new Map();
  let waiting = null;
  return {
    note(n, sentAt) {
      received.set(n, performance.now() - sentAt);
      if (waiting !== null && received.size >= waiting.count) waiting.resolve();
    },
    until(count) {
      if (received.size >= count) return Promise.resolve();
      return new Promise((resolve) => {
        waiting = { count, resolve };
      });
    },
    latencies: () => [...received.values()],
    clear() {
      received.clear();
    },
  };
}

/** One setup: how to publish event n, and a receiver subscribed to what it publishes. */
async function openSetup(name, url, filler) {
  const prefix = `bench_${name.replace(/\W/g, '')}_${process.pid}_${Date.now()}.`;
  const got = receiver();
  if (name === 'bare') {
    const pub = await connect({ servers: url });
    const sub = await connect({ servers: url });
    sub.subscribe(`${prefix}loose.a`, {
      callback: (_err, msg) => {
        const { data } = msg.json();
        got.note(data.n, data.sentAt);
      },
    });
    await sub.flush();
    return {
      got,
      publish: (n) => {
        const body = { type: 'E', topic: 't', data: { n, sentAt: performance.now(), filler } };
        pub.publish(`${prefix}loose.a`, JSON.stringify({ ...body, publishedAt: Date.now() }));
        return Promise.resolve();
      },
      close: () => Promise.all([pub.close(), sub.close()]),
    };
  }
  const history = { subjects: ['kept.>'], keepMs: 60_000 };
  const subject = name === 'kept' ? 'kept.a' : 'loose.a';
  const pub = await createNatsBus({ servers: url, subjectPrefix: prefix, history });
  const sub = await createNatsBus({ servers: url, subjectPrefix: prefix, history });
  await sub.subscribe(subject, (event) => got.note(event.data.n, event.data.sentAt));
  return {
    got,
    pub,
    publish: (n) =>
      pub.publish(subject, {
        type: 'E',
        topic: 't',
        data: { n, sentAt: performance.now(), filler },
        publishedAt: Date.now(),
      }),
    close: () => Promise.all([pub.close(), sub.close()]),
  };
}

async function measureSetup({ name, url, options, filler }) {
  const setup = await openSetup(name, url, filler);
  try {
    // Latency, paced.
    const acks = [];
    const interval = 1000 / options.rate;
    const began = performance.now();
    const pending = [];
    for (let n = 0; n < options.paced; n++) {
      const due = began + n * interval - performance.now();
      if (due > 0) await sleep(due);
      const sentAt = performance.now();
      pending.push(setup.publish(n).then(() => acks.push(performance.now() - sentAt)));
    }
    await Promise.all(pending);
    await setup.got.until(options.paced);
    const latency = summary(setup.got.latencies());
    const ack = name === 'kept' ? summary(acks) : null;
    setup.got.clear();

    // Throughput.
    const start = performance.now();
    const inflight = new Set();
    for (let n = 0; n < options.events; n++) {
      const taken = setup.publish(n);
      inflight.add(taken);
      void taken.then(() => inflight.delete(taken));
      if (inflight.size >= options.inflight) await Promise.race(inflight);
    }
    await Promise.all(inflight);
    await setup.got.until(options.events);
    const perSecond = options.events / ((performance.now() - start) / 1000);
    return { setup: name, latency, ack, perSecond };
  } finally {
    await setup.close();
  }
}

/** Memory the process holds: its heap and the ArrayBuffers outside it (encoded payloads). */
const held = () => {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};

/** The kept setup while the server is down: memory per held event, and the hand-over after. */
async function measureOutage(server, options, filler) {
  const setup = await openSetup('kept', server.url, filler);
  try {
    await setup.publish(-1);
    await setup.got.until(1);
    setup.got.clear();
    globalThis.gc?.();
    const memoryBefore = held();
    await server.stop();
    // The client notices the connection is gone (a few ms on loopback); what it sent before is
    // in flight until its acknowledgement times out, and held again after.
    await sleep(200);
    const taken = [];
    for (let n = 0; n < options.held; n++) taken.push(setup.publish(n));
    globalThis.gc?.();
    const heldBytesPerEvent = (held() - memoryBefore) / options.held;
    const restartedAt = performance.now();
    await server.start();
    await Promise.all(taken);
    const acknowledgedMs = performance.now() - restartedAt;
    await setup.got.until(options.held);
    return { heldBytesPerEvent, acknowledgedMs, receivedMs: performance.now() - restartedAt };
  } finally {
    await setup.close();
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

async function main() {
  const { options, exitCode } = readOptions(parseOptions, USAGE);
  if (options === null) return exitCode;
  if (globalThis.gc === undefined) console.error('(run with node --expose-gc for the heap figure)');
  const dir = await mkdtemp(join(os.tmpdir(), 'guildhall-bench-nats-'));
  const server = await natsServer(options.natsServer, dir);
  const filler = 'x'.repeat(options.bytes);
  const rounds = [];
  try {
    for (let round = 0; round < options.rounds; round++) {
      const setups = [];
      for (const name of ['bare', 'not kept', 'kept']) {
        setups.push(await measureSetup({ name, url: server.url, options, filler }));
      }
      rounds.push({ setups, outage: await measureOutage(server, options, filler) });
    }
  } finally {
    await server.stop().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
  if (options.json) {
    console.log(JSON.stringify({ options, rounds }, null, 2));
    return 0;
  }
  const pick = (name, read) =>
    median(rounds.map((r) => read(r.setups.find((s) => s.setup === name))));
  const bare = {
    p50: pick('bare', (s) => s.latency.p50),
    perSecond: pick('bare', (s) => s.perSecond),
  };
  console.log(
    `${options.rounds} rounds, ${options.bytes}-byte events, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`,
  );
  console.log(
    '| setup | delivered p50 ms | p99 ms | acknowledged p50 ms | p99 ms | events/s | vs bare |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const name of ['bare', 'not kept', 'kept']) {
    const p50 = pick(name, (s) => s.latency.p50);
    const p99 = pick(name, (s) => s.latency.p99);
    const ack50 = name === 'kept' ? pick(name, (s) => s.ack.p50).toFixed(2) : '';
    const ack99 = name === 'kept' ? pick(name, (s) => s.ack.p99).toFixed(2) : '';
    const perSecond = pick(name, (s) => s.perSecond);
    console.log(
      `| ${name} | ${p50.toFixed(2)} (×${(p50 / bare.p50).toFixed(2)}) | ${p99.toFixed(2)} | ${ack50} | ${ack99} | ${Math.round(perSecond)} | ×${(perSecond / bare.perSecond).toFixed(2)} |`,
    );
  }
  const outage = (read) => median(rounds.map((r) => read(r.outage)));
  console.log(
    `Outage: ${options.held} events held, ${Math.round(outage((o) => o.heldBytesPerEvent))} bytes of memory each; acknowledged ${Math.round(outage((o) => o.acknowledgedMs))} ms and received ${Math.round(outage((o) => o.receivedMs))} ms after the server was started again.`,
  );
  return 0;
}

process.exitCode = await main();
