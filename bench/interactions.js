/**
 * The interaction round trip on the real Guildhall app: a person invokes a slash command with
 * POST /interactions, the app answers CHANNEL_MESSAGE_WITH_SOURCE, and the person's gateway
 * session receives the reply's MESSAGE_CREATE. Measured for both deliveries (the bot's gateway
 * session, or a signed POST to an interactions endpoint) at each concurrency given. The server is
 * a child process (support/guildhallServer.js) with `npm start`'s settings. See
 * docs/benchmarks.md.
 */
import { Buffer } from 'node:buffer';
import console from 'node:console';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';
import { parseArgs } from 'node:util';
import { verifyKey } from 'discord-interactions';
import { BotSession } from './support/botSession.js';
import { startServer } from './support/childServer.js';
import {
  formatCpuProfileSummary,
  latestProfile,
  summarizeCpuProfile,
} from './support/cpuProfile.js';

const USAGE = `Usage: node bench/interactions.js [options]   (npm run bench:interactions builds first)

A person invokes a slash command (POST /api/v10/interactions with their session token), the
app answers with CHANNEL_MESSAGE_WITH_SOURCE, and the reply's MESSAGE_CREATE reaches the
person's gateway session. Each invocation carries a unique option value that the app echoes,
so every step is matched to its invocation. Closed loop: --concurrency invocations in flight.

The server runs with the settings \`npm start\` gives it (SQLite on disk, logs at info), with
the rate limits raised as bench/http.js raises them (one person invokes everything). The http
delivery needs GUILDHALL_ALLOW_LOCAL_WEBHOOKS=on for its endpoint on 127.0.0.1, set for that
server only.

Deliveries:
  gateway  INTERACTION_CREATE on the app's bot session; the bot answers with
           POST /interactions/{id}/{token}/callback
  http     a signed POST to the app's interactions endpoint (node:http on 127.0.0.1, checking
           the Ed25519 signature with discord-interactions' verifyKey); the endpoint's answer
           body is the callback

Columns: interactions/s; p50 and p99 from sending POST /interactions until the app has the
interaction (delivered), until that request's 204 (accepted), and until the person's session
has the reply (reply).

Options:
  --delivery <list>     gateway, http or both comma-separated (default gateway,http)
  --concurrency <list>  invocations in flight, comma-separated (default 1,16)
  --duration <s>        seconds measured per row (default 10)
  --warmup <s>          seconds of load before each delivery's first row, not counted (default 2)
  --data-dir <dir>      where the servers' data and logs go, in a new folder removed afterwards
                        (default: the system's temporary folder)
  --json                print the results as JSON instead of a table
  --help                print this help

Environment:
  BENCH_PROFILE=1       run the servers under node --cpu-prof and print where their CPU went
                        (the profiles stay in a temporary folder whose path is printed; take
                        figures from a run without the profiler)

Exit status: 0 when every invocation completed, 1 otherwise or on any failure.`;

const RAISED_LIMIT = 1_000_000;
const DELIVERIES = ['gateway', 'http'];
/** How long one invocation may take before the benchmark gives up on it. */
const STEP_TIMEOUT_MS = 10_000;

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      delivery: { type: 'string', default: DELIVERIES.join(',') },
      concurrency: { type: 'string', default: '1,16' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      'data-dir': { type: 'string', default: os.tmpdir() },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const integer = (name, raw, [min, max]) => {
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max)
      throw new Error(`--${name} takes integers from ${min} to ${max}; got "${raw}".`);
    return value;
  };
  const deliveries = values.delivery.split(',');
  for (const delivery of deliveries) {
    if (!DELIVERIES.includes(delivery))
      throw new Error(`--delivery takes ${DELIVERIES.join(', ')}; got "${delivery}".`);
  }
  return {
    help: values.help,
    json: values.json,
    deliveries,
    concurrency: values.concurrency.split(',').map((raw) => integer('concurrency', raw, [1, 1000])),
    durationSeconds: integer('duration', values.duration, [1, 3600]),
    warmupSeconds: integer('warmup', values.warmup, [0, 600]),
    dataDir: values['data-dir'],
  };
}

/** A JSON request to the server's API; throws with the body on a non-2xx answer. */
async function api(server, { method = 'GET', path, auth, body }) {
  const response = await globalThis.fetch(`${server.apiUrl}${path}`, {
    method,
    headers: {
      authorization: auth,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text === '' ? null : JSON.parse(text);
}

/** Waiters keyed by the invocation's unique value, settled by the sessions and the endpoint. */
function createTracker() {
  const pending = new Map();
  return {
    expect(value) {
      const entry = { delivered: null, reply: null };
      entry.done = new Promise((resolve, reject) => {
        entry.resolve = resolve;
        entry.timer = setTimeout(
          () => reject(new Error(`invocation ${value} got no reply in ${STEP_TIMEOUT_MS} ms`)),
          STEP_TIMEOUT_MS,
        );
      });
      pending.set(value, entry);
      return entry;
    },
    delivered(value, at) {
      const entry = pending.get(value);
      if (entry !== undefined) entry.delivered = at;
    },
    replied(value, at) {
      const entry = pending.get(value);
      if (entry === undefined) return;
      pending.delete(value);
      clearTimeout(entry.timer);
      entry.reply = at;
      entry.resolve();
    },
  };
}

/** The value of the command's `n` option in an interaction. */
const optionValue = (interaction) => interaction.data?.options?.[0]?.value;

/** A local interactions endpoint: verifies each signed POST and answers with the echo. */
async function startEndpoint(publicKey, tracker) {
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks);
      const valid = await verifyKey(
        body,
        String(request.headers['x-signature-ed25519']),
        String(request.headers['x-signature-timestamp']),
        publicKey,
      );
      if (!valid) {
        response.writeHead(401).end('invalid request signature');
        return;
      }
      const interaction = JSON.parse(body.toString('utf8'));
      let answer = { type: 1 };
      if (interaction.type === 2) {
        const value = optionValue(interaction);
        tracker.delivered(value, performance.now());
        answer = { type: 4, data: { content: value } };
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/interactions`,
    close: () => server.close(),
  };
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs `concurrency` closed loops of invocations for `seconds`; returns the samples. */
async function load({ server, seconds, concurrency, command, tracker, sessionId, counter }) {
  const samples = { delivered: [], accepted: [], reply: [] };
  const until = performance.now() + seconds * 1000;
  const loop = async () => {
    while (performance.now() < until) {
      const value = `bench-${counter.next++}`;
      const entry = tracker.expect(value);
      const sent = performance.now();
      await api(server, {
        method: 'POST',
        path: '/interactions',
        auth: server.personToken,
        body: {
          type: 2,
          application_id: server.applicationId,
          guild_id: server.guildId,
          channel_id: server.channelId,
          session_id: sessionId,
          nonce: value.slice(-25),
          data: {
            id: command.id,
            name: command.name,
            type: 1,
            options: [{ type: 3, name: 'n', value }],
          },
        },
      });
      const accepted = performance.now();
      await entry.done;
      samples.accepted.push(accepted - sent);
      samples.delivered.push(entry.delivered - sent);
      samples.reply.push(entry.reply - sent);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, loop));
  return { samples, elapsedMs: performance.now() - started };
}

async function measureDelivery(delivery, options, dataDir) {
  const settings = {
    GUILDHALL_GLOBAL_RATE_LIMIT: String(RAISED_LIMIT),
    GUILDHALL_ROUTE_RATE_LIMIT: `${RAISED_LIMIT}/1`,
    ...(delivery === 'http' ? { GUILDHALL_ALLOW_LOCAL_WEBHOOKS: 'on' } : {}),
  };
  const dir = join(dataDir, delivery);
  const profileDir = options.profileRoot === null ? null : join(options.profileRoot, delivery);
  const server = await startServer('guildhallServer.js', [dir], {
    execArgv: profileDir === null ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
    env: { GUILDHALL_BENCH_SETTINGS: JSON.stringify(settings) },
    logFile: join(dataDir, `${delivery}.log`),
  });
  const closers = [() => server.stop()];
  try {
    const bot = `Bot ${server.botToken}`;
    const command = await api(server, {
      method: 'POST',
      path: `/applications/${server.applicationId}/commands`,
      auth: bot,
      body: {
        name: 'echo',
        description: 'Answers with what it is given',
        options: [{ type: 3, name: 'n', description: 'What to answer', required: true }],
      },
    });
    const tracker = createTracker();
    const { url: gatewayUrl } = await api(server, {
      method: 'GET',
      path: '/gateway',
      auth: server.personToken,
    });
    let sessionId = '';
    const person = new BotSession({
      token: server.personToken,
      onDispatch: (type, data, at) => {
        if (type === 'READY') sessionId = data.session_id;
        if (type === 'MESSAGE_CREATE' && data.interaction_metadata !== undefined)
          tracker.replied(data.content, at);
      },
    });
    await person.identify(gatewayUrl);
    closers.push(() => person.close());

    if (delivery === 'gateway') {
      const app = new BotSession({
        token: server.botToken,
        onDispatch: (type, data, at) => {
          if (type !== 'INTERACTION_CREATE') return;
          const value = optionValue(data);
          tracker.delivered(value, at);
          void api(server, {
            method: 'POST',
            path: `/interactions/${data.id}/${data.token}/callback`,
            body: {
              type: 4,
              data: { content: value },
            },
          }).catch((err) => console.error(err.message));
        },
      });
      await app.identify(gatewayUrl);
      closers.push(() => app.close());
    } else {
      const { verify_key: publicKey } = await api(server, {
        method: 'GET',
        path: '/applications/@me',
        auth: bot,
      });
      const endpoint = await startEndpoint(publicKey, tracker);
      closers.push(() => endpoint.close());
      await api(server, {
        method: 'PATCH',
        path: '/applications/@me',
        auth: bot,
        body: {
          interactions_endpoint_url: endpoint.url,
        },
      });
    }

    const base = {
      server,
      command,
      tracker,
      sessionId,
      counter: { next: 0 },
    };
    if (options.warmupSeconds > 0) {
      await load({ ...base, seconds: options.warmupSeconds, concurrency: options.concurrency[0] });
    }
    const rows = [];
    for (const concurrency of options.concurrency) {
      const { samples, elapsedMs } = await load({
        ...base,
        seconds: options.durationSeconds,
        concurrency,
      });
      const row = { delivery, concurrency, interactions: samples.reply.length };
      row.perSecond = (samples.reply.length / elapsedMs) * 1000;
      for (const [name, values] of Object.entries(samples)) {
        const sorted = values.sort((a, b) => a - b);
        row[name] = { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
      }
      rows.push(row);
    }
    return rows;
  } finally {
    for (const close of closers.reverse()) await close();
  }
}

const ms = (value) => value.toFixed(2).padStart(8);

function formatRows(rows) {
  const lines = [
    'delivery  in flight  interactions/s  delivered p50/p99 ms  accepted p50/p99 ms  reply p50/p99 ms',
  ];
  for (const row of rows) {
    lines.push(
      [
        row.delivery.padEnd(8),
        String(row.concurrency).padStart(9),
        row.perSecond.toFixed(0).padStart(14),
        `${ms(row.delivered.p50)} /${ms(row.delivered.p99)}`,
        ` ${ms(row.accepted.p50)} /${ms(row.accepted.p99)}`,
        `${ms(row.reply.p50)} /${ms(row.reply.p99)}`,
      ].join('  '),
    );
  }
  return lines.join('\n');
}

async function main(argv) {
  const options = parseOptions(argv);
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const dataDir = await mkdtemp(join(options.dataDir, 'guildhall-bench-interactions-'));
  const profileRoot =
    process.env.BENCH_PROFILE === '1'
      ? await mkdtemp(join(os.tmpdir(), 'guildhall-profile-'))
      : null;
  try {
    const rows = [];
    for (const delivery of options.deliveries) {
      if (!options.json) console.error(`measuring ${delivery} delivery…`);
      rows.push(...(await measureDelivery(delivery, { ...options, profileRoot }, dataDir)));
    }
    const header = `node ${process.version}, ${os.cpus().length} CPUs, ${options.durationSeconds} s per row, data in ${dataDir}`;
    console.log(
      options.json ? JSON.stringify({ header, rows }, null, 2) : `${header}\n\n${formatRows(rows)}`,
    );
    for (const delivery of profileRoot === null ? [] : options.deliveries) {
      const file = await latestProfile(join(profileRoot, delivery));
      if (file === null) throw new Error(`no CPU profile was written for ${delivery}`);
      const summary = summarizeCpuProfile(JSON.parse(await readFile(file, 'utf8')), 25);
      console.log(`\nCPU profile of the ${delivery} server: ${file}`);
      console.log(formatCpuProfileSummary(summary));
    }
    return 0;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
