/**
 * What the testkit costs a test suite (docs/benchmarks.md#testkit): the first start in a process
 * (importing the kit and the server, a world loaded), a warm start (the next `startGuildhall` in
 * the same process), `reset()` back to the world, and a person→bot→person round trip (a slash
 * command through POST /interactions, INTERACTION_CREATE to a bot's gateway session, the bot's
 * callback, the reply's MESSAGE_CREATE on the person's session). Each beside a bare baseline in
 * the same run: a bare Fastify start and close; SQLite's own copy of the world's database (the
 * floor of a restore); and the same four hops over a bare node:http server and `ws` (POST → ws
 * message → POST → ws message). Prints medians and p95 in ms, and each median's ratio to its
 * baseline.
 *
 *   node bench/testkit.js [rounds=20]
 */
import console from 'node:console';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { clearInterval, setInterval } from 'node:timers';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import WebSocket, { WebSocketServer } from 'ws';
import { percentile } from './support/stats.js';

const rounds = Number(process.argv[2] ?? 20);
const WORLD = {
  people: { ann: null, bob: null },
  applications: { helper: { owner: 'ann', commands: { ping: { description: 'Pong' } } } },
  guilds: {
    home: {
      owner: 'ann',
      channels: { general: { type: 'text' } },
      members: { bob: null },
      bots: { helper: null },
    },
  },
};

const cpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
const ms = async (fn) => {
  const started = performance.now();
  await fn();
  return performance.now() - started;
};
const summary = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), p95: percentile(sorted, 95) };
};

// First start: the import and the first platform of the process.
let gh;
const firstImport = await ms(async () => {
  ({ startGuildhall: globalThis.startGuildhall } = await import('@guildhall/testkit'));
});
const { startGuildhall } = globalThis;
const firstStart = await ms(async () => {
  gh = await startGuildhall({ world: WORLD });
});

/** A bot that answers every command with "pong", on its own gateway session. */
async function connectBot(kit) {
  const ws = new WebSocket(`${kit.gatewayUrl}?v=10&encoding=json`);
  const api = `${kit.apiUrl}/v10`;
  let beat;
  const ready = new Promise((resolve) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.op === 10) {
        beat = setInterval(() => ws.send('{"op":1,"d":null}'), frame.d.heartbeat_interval);
        const token = `Bot ${kit.world.applications.helper.botToken}`;
        ws.send(JSON.stringify({ op: 2, d: { token, intents: 1, properties: {} } }));
      } else if (frame.t === 'READY') resolve();
      else if (frame.t === 'INTERACTION_CREATE') {
        void globalThis.fetch(`${api}/interactions/${frame.d.id}/${frame.d.token}/callback`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ type: 4, data: { content: 'pong' } }),
        });
      }
    });
  });
  await ready;
  return () => {
    clearInterval(beat);
    ws.close();
  };
}

// Round trips on the first platform.
const stopBot = await connectBot(gh);
const ann = gh.people.get('ann');
const general = gh.world.guilds.home.channels.general;
const roundTrips = [];
for (let i = 0; i < rounds + 3; i += 1) {
  const took = await ms(async () => {
    const ping = await ann.slash(general, 'ping');
    await ping.reply({ since: ann.mark() });
  });
  if (i >= 3) roundTrips.push(took);
}
stopBot();

// Resets (each after a message, so there is something to undo).
const resets = [];
for (let i = 0; i < rounds; i += 1) {
  await ann.send(general, `before reset ${String(i)}`);
  resets.push(await ms(() => gh.reset()));
}
await gh.close();

// Warm starts: the next platforms of the process, each closed before the next.
const warmStarts = [];
const warmCpu = [];
const closes = [];
for (let i = 0; i < rounds; i += 1) {
  let kit;
  const cpu = cpuMs();
  warmStarts.push(
    await ms(async () => {
      kit = await startGuildhall({ world: WORLD });
    }),
  );
  warmCpu.push(cpuMs() - cpu);
  closes.push(await ms(() => kit.close()));
}

// Baselines.
const bareStarts = [];
const bareCpu = [];
for (let i = 0; i < rounds; i += 1) {
  const cpu = cpuMs();
  bareStarts.push(
    await ms(async () => {
      const app = Fastify({ logger: false });
      app.get('/readyz', () => ({ ok: true }));
      await app.listen({ port: 0, host: '127.0.0.1' });
      await app.close();
    }),
  );
  bareCpu.push(cpuMs() - cpu);
}
const source = new Database(':memory:');
source.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)');
const insert = source.prepare('INSERT INTO t (body) VALUES (?)');
for (let i = 0; i < 2000; i += 1) insert.run(`row ${String(i)}`);
const copies = [];
for (let i = 0; i < rounds; i += 1)
  copies.push(await ms(() => new Database(source.serialize()).close()));

/** POST → ws message → POST → ws message, the round trip's four hops, bare. */
async function bareRoundTrips() {
  const sockets = {};
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const { to, text } = JSON.parse(body);
      sockets[to].send(text);
      response.writeHead(204).end();
    });
  });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (socket, request) => (sockets[request.url.slice(1)] = socket));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${String(server.address().port)}`;
  const post = (to, text) =>
    globalThis.fetch(base, { method: 'POST', body: JSON.stringify({ to, text }) });
  const person = new WebSocket(`${base.replace('http', 'ws')}/person`);
  const botSocket = new WebSocket(`${base.replace('http', 'ws')}/bot`);
  await Promise.all([once(person, 'open'), once(botSocket, 'open')]);
  botSocket.on('message', () => void post('person', 'pong'));
  const samples = [];
  for (let i = 0; i < rounds + 3; i += 1) {
    const took = await ms(async () => {
      const heard = once(person, 'message');
      await post('bot', 'ping');
      await heard;
    });
    if (i >= 3) samples.push(took);
  }
  person.close();
  botSocket.close();
  wss.close();
  server.close();
  return samples;
}
const bareTrips = await bareRoundTrips();

const rows = [
  ['first start (import + start)', [firstImport + firstStart], bareStarts],
  ['  of which importing the kit', [firstImport], null],
  ['warm start', warmStarts, bareStarts],
  ['  its CPU time', warmCpu, bareCpu],
  ['close', closes, null],
  ['reset()', resets, copies],
  ['person → bot → person', roundTrips, bareTrips],
];
console.log(`testkit, ${String(rounds)} rounds (ms; ratio = median ÷ baseline median)`);
console.log('| measure | median | p95 | baseline median | ratio |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const [name, samples, baseline] of rows) {
  const { median, p95 } = summary(samples);
  const base = baseline === null ? null : summary(baseline).median;
  const cells = [
    name,
    median.toFixed(1),
    samples.length > 1 ? p95.toFixed(1) : '',
    base === null ? '' : base.toFixed(2),
    base === null ? '' : `${(median / base).toFixed(1)}×`,
  ];
  console.log(`| ${cells.join(' | ')} |`);
}
console.log(
  'baselines: a bare Fastify listen + close; SQLite serialize + open of a 2,000-row database; ' +
    'POST → ws → POST → ws on bare node:http and ws',
);
