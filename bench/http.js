/**
 * HTTP benchmarks of the real Guildhall app against bare Fastify routes, measured one after the
 * other in the same run:
 *
 * - `users`: authenticated GET /api/v10/users/@me, next to a bare route that sends the same body;
 * - `messages`: POST /api/v10/channels/{id}/messages on Guildhall with SQLite and with
 *   PostgreSQL, each next to a bare route that inserts the same row into the same database,
 *   one durable commit per request.
 *
 * Each server runs in its own child process so it does not share an event loop with the load
 * generator. See docs/benchmarks.md.
 */
import console from 'node:console';
import { randomBytes } from 'node:crypto';
import { statSync, statfsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';
import { URL } from 'node:url';
import { parseArgs } from 'node:util';
import { checkResponses, load } from './support/autocannon.js';
import { SERVER_START_TIMEOUT_MS, startServer } from './support/childServer.js';
import {
  formatCpuProfileSummary,
  latestProfile,
  summarizeCpuProfile,
} from './support/cpuProfile.js';

const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
/** The rate limits of the default configuration: high enough that no bucket is ever spent. */
const RAISED_GLOBAL_LIMIT = 1_000_000;

const USAGE = `Usage: node bench/http.js [options]   (npm run bench:http builds first)

Every Guildhall server runs with the settings \`npm start\` gives it: SQLite on disk, logs at the
default level on standard output (here a file in the data folder), the rate limiter on. Only the
limits are raised (to ${RAISED_GLOBAL_LIMIT} requests/s per caller and per route), so the one bot
of the benchmark is never refused while the limiter still counts every request. --tuned measures
the old, tuned configuration instead.

Scenarios:
  users     GET /api/v10/users/@me with a bot token on Guildhall (SQLite) and the same body from
            a bare Fastify route: requests/s, p50, p99 and their ratio.
  messages  POST /api/v10/channels/{id}/messages with a bot token on Guildhall with SQLite and
            with PostgreSQL, each next to a bare Fastify route inserting the same row with one
            durable commit per request (better-sqlite3 with WAL and synchronous=FULL; pg with a
            pool of 10): creates/s, p50, p99 and the ratios. Guildhall logs at --log-level.

Options:
  --scenario <name>  users, messages or all (default all)
  --duration <s>     seconds measured per target (default 10)
  --warmup <s>       seconds of load before each target's first measurement, not counted
                     (default 2)
  --connections <n>  concurrent connections (default 50)
  --rounds <n>       measure the targets in turn n times and report the medians, which steadies
                     the ratios on a busy machine (default 1)
  --tuned            TUNED figures, labelled so: SQLite on tmpfs (/dev/shm), logs at warn, rate
                     limits off; what the server costs without the disk, its request logs and its
                     limiter, not what a user gets
  --compare <list>   extra Guildhall targets in the users scenario, each one change away from the
                     configuration measured (comma-separated):
                       logging      logs at warn, so no line per request
                       rate-limits  rate limits off (GUILDHALL_RATE_LIMITS=off)
                       control      the test controls and their request log off
                                    (GUILDHALL_CONTROL=off; on as shipped on a loopback host)
  --postgres <url>   the PostgreSQL database of the messages scenario; Guildhall makes its own
                     schema there and drops it afterwards (default $GUILDHALL_BENCH_DATABASE_URL,
                     else ${DEFAULT_POSTGRES_URL})
  --skip-postgres    leave PostgreSQL (Guildhall's and the bare route's) out of the messages
                     scenario
  --data-dir <dir>   where the SQLite databases and the servers' logs go, in a new folder removed
                     afterwards (default: the system's temporary folder, or the home folder when
                     that is a tmpfs; with --tuned, /dev/shm). SQLite runs with synchronous=FULL,
                     so on a disk every commit waits for an fsync, as shipped; the header says
                     when the folder is a tmpfs, where an fsync costs nothing
  --log-level <lvl>  the Guildhall servers' log level (default: the configuration's, info as
                     shipped, warn with --tuned); their logs go to a file in the data folder
  --json             print the results as JSON instead of tables
  --help             print this help

Environment:
  BENCH_PROFILE=1    run the Guildhall children under node --cpu-prof and print where their CPU
                     went (the profiles stay in a temporary folder whose path is printed; the
                     profiler itself slows Guildhall, so take figures from a run without it)

Exit status: 0 when every response was 2xx, 1 otherwise or on any failure.`;

const SCENARIOS = ['users', 'messages'];

/**
 * The Guildhall servers' settings (GUILDHALL_* variables over `npm start`'s defaults). A bot may
 * make 50 requests/s and 5 per 5 s on a route as shipped, so a throughput test of one bot has to
 * raise the limits; the limiter still counts every request and sends its headers.
 */
const CONFIGURATIONS = {
  shipped: {
    label:
      'shipped defaults (npm start): SQLite on disk, default log level to stdout (a file), ' +
      `rate limiter on (limits raised to ${RAISED_GLOBAL_LIMIT}/s)`,
    settings: {
      GUILDHALL_GLOBAL_RATE_LIMIT: String(RAISED_GLOBAL_LIMIT),
      GUILDHALL_ROUTE_RATE_LIMIT: `${RAISED_GLOBAL_LIMIT}/1`,
    },
  },
  tuned: {
    label: 'TUNED (not the defaults): SQLite on tmpfs, logs at warn, rate limits off',
    settings: { GUILDHALL_LOG_LEVEL: 'warn', GUILDHALL_RATE_LIMITS: 'off' },
  },
};

/** --compare: more Guildhall targets in the users scenario, each one setting away. */
const VARIANTS = {
  logging: { name: 'guildhall, logs at warn', settings: { GUILDHALL_LOG_LEVEL: 'warn' } },
  'rate-limits': {
    name: 'guildhall, rate limits off',
    settings: { GUILDHALL_RATE_LIMITS: 'off' },
  },
  control: {
    name: 'guildhall, controls off',
    settings: { GUILDHALL_CONTROL: 'off' },
  },
};

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
/** statfs's type of a tmpfs folder (Linux's TMPFS_MAGIC). */
const TMPFS_MAGIC = 0x01021994;

/** Whether `dir` is on tmpfs (memory, so an fsync costs nothing); false where unknown. */
function onTmpfs(dir) {
  try {
    return statfsSync(dir).type === TMPFS_MAGIC;
  } catch {
    return false;
  }
}

/**
 * Where the data goes: on a disk, as `npm start` keeps it in ./data (the temporary folder unless
 * it is a tmpfs, then the home folder); with --tuned, tmpfs when Linux has one.
 */
function defaultDataDir(tuned) {
  if (tuned) {
    try {
      if (statSync('/dev/shm').isDirectory()) return '/dev/shm';
    } catch {
      // No /dev/shm here.
    }
    return os.tmpdir();
  }
  return onTmpfs(os.tmpdir()) ? os.homedir() : os.tmpdir();
}

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      scenario: { type: 'string', default: 'all' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '50' },
      rounds: { type: 'string', default: '1' },
      postgres: {
        type: 'string',
        default: process.env.GUILDHALL_BENCH_DATABASE_URL ?? DEFAULT_POSTGRES_URL,
      },
      'skip-postgres': { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
      tuned: { type: 'boolean', default: false },
      compare: { type: 'string', default: '' },
      'log-level': { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const integer = (name, min, max) => {
    const raw = values[name];
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max)
      throw new Error(`--${name} must be an integer from ${min} to ${max}; got "${raw}".`);
    return value;
  };
  if (values.scenario !== 'all' && !SCENARIOS.includes(values.scenario))
    throw new Error(`--scenario must be one of users, messages, all; got "${values.scenario}".`);
  const compare = values.compare === '' ? [] : values.compare.split(',');
  for (const name of compare) {
    if (!(name in VARIANTS))
      throw new Error(`--compare takes ${Object.keys(VARIANTS).join(', ')}; got "${name}".`);
  }
  const logLevel = values['log-level'] ?? null;
  if (logLevel !== null && !LOG_LEVELS.includes(logLevel))
    throw new Error(`--log-level must be one of ${LOG_LEVELS.join(', ')}.`);
  return {
    help: values.help,
    json: values.json,
    scenarios: values.scenario === 'all' ? SCENARIOS : [values.scenario],
    postgresUrl: values['skip-postgres'] ? null : values.postgres,
    dataDir: values['data-dir'] ?? defaultDataDir(values.tuned),
    configuration: values.tuned ? 'tuned' : 'shipped',
    compare,
    logLevel,
    durationSeconds: integer('duration', 1, 3600),
    warmupSeconds: integer('warmup', 0, 600),
    connections: integer('connections', 1, 10_000),
    rounds: integer('rounds', 1, 100),
  };
}

async function measure(target, options, running) {
  const { warmupSeconds, round } = options;
  const run = async (label, durationSeconds) => {
    const job = load(target.request, { ...options, durationSeconds });
    running.add(job.instance);
    try {
      const measured = await job.done;
      checkResponses(label, measured.result);
      return measured;
    } finally {
      running.delete(job.instance);
    }
  };
  if (round === 1 && warmupSeconds > 0) await run(`${target.name} warm-up`, warmupSeconds);
  const logBefore = target.server.logBytes();
  const cpuBefore = await target.server.cpuMicros();
  const loaderBefore = process.cpuUsage();
  const { result, latencyUs } = await run(target.name, options.durationSeconds);
  const loader = process.cpuUsage(loaderBefore);
  const cpuMicros = (await target.server.cpuMicros()) - cpuBefore;
  const elapsedMicros = result.duration * 1e6;
  // Requests autocannon gave up on at the end may still be running: let them finish (and their
  // log lines reach the file) before the next target.
  await target.server.settle();
  const logAfter = target.server.logBytes();
  return {
    target: target.name,
    round,
    requestsPerSecond: result.requests.average,
    p50Ms: latencyUs.percentile(50) / 1000,
    p99Ms: latencyUs.percentile(99) / 1000,
    serverCpuMicrosPerRequest: cpuMicros / result['2xx'],
    // Shares of one core: a side near 100% is the bottleneck.
    serverCpuPercent: (100 * cpuMicros) / elapsedMicros,
    loaderCpuPercent: (100 * (loader.user + loader.system)) / elapsedMicros,
    requests: result['2xx'],
    bytesPerResponse: result.throughput.total / result['2xx'],
    logBytesPerRequest: logBefore === null ? null : (logAfter - logBefore) / result['2xx'],
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** One target's rounds: the median of each figure (the figures of the one round when rounds=1). */
function summarize(runs) {
  const pick = (key) => median(runs.map((r) => r[key]));
  return {
    target: runs[0].target,
    requestsPerSecond: pick('requestsPerSecond'),
    p50Ms: pick('p50Ms'),
    p99Ms: pick('p99Ms'),
    serverCpuMicrosPerRequest: pick('serverCpuMicrosPerRequest'),
    serverCpuPercent: pick('serverCpuPercent'),
    loaderCpuPercent: pick('loaderCpuPercent'),
    requests: runs.reduce((sum, r) => sum + r.requests, 0),
    bytesPerResponse: pick('bytesPerResponse'),
    logBytesPerRequest: runs[0].logBytesPerRequest === null ? null : pick('logBytesPerRequest'),
  };
}

/**
 * One request before the load ({url, method, headers, body}): checks that it succeeds and
 * returns the body.
 */
function probe({ url, method = 'GET', headers = {}, body }) {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method, headers, agent: false, timeout: 5000 },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('error', reject);
        response.on('end', () => {
          if (response.statusCode === 200) resolve(text);
          else
            reject(
              new Error(`${method} ${url} answered ${response.statusCode}: ${text.slice(0, 300)}`),
            );
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error(`${method} ${url} timed out`)));
    request.on('error', reject);
    request.end(body);
  });
}

/** A connection string without its password. */
function redact(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres (unparsable URL)';
  }
}

function machine() {
  const cpus = os.cpus();
  return {
    node: process.version,
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cpuCount: cpus.length,
    availableParallelism: os.availableParallelism(),
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

/** The run's header lines: command, machine, load. */
function formatHeader(report) {
  const { machine: m, options: o } = report;
  return [
    `command:  ${report.command}`,
    `node:     ${m.node}  cpu: ${m.cpu} x ${m.cpuCount}  (${m.platform})`,
    `load:     ${o.connections} connections, ${o.warmupSeconds} s warm-up, ` +
      `${o.durationSeconds} s per target x ${o.rounds} round(s)`,
    `config:   ${CONFIGURATIONS[o.configuration].label}` +
      (o.logLevel === null ? '' : `; logs at ${o.logLevel}`),
    `data:     SQLite in ${o.dataDir}${o.dataOnTmpfs ? ' (tmpfs: an fsync costs nothing)' : ''}` +
      (o.postgres === null ? '' : `; PostgreSQL at ${o.postgres}, a schema of its own`),
  ].join('\n');
}

/** One scenario as a table, then each compared target's ratios to the baseline. */
function formatScenario(scenario, rounds) {
  const unit = scenario.unit;
  const head = [
    'target',
    `${unit}/s`,
    'p50 ms',
    'p99 ms',
    `server µs/${unit.replace(/s$/, '')}`,
    'server CPU',
    'loader CPU',
    'log B/req',
    unit,
  ];
  const cells = (r, name) => [
    name,
    r.requestsPerSecond.toFixed(0),
    r.p50Ms.toFixed(2),
    r.p99Ms.toFixed(2),
    r.serverCpuMicrosPerRequest.toFixed(1),
    `${r.serverCpuPercent.toFixed(0)}%`,
    `${r.loaderCpuPercent.toFixed(0)}%`,
    r.logBytesPerRequest === null ? '-' : r.logBytesPerRequest.toFixed(0),
    String(r.requests),
  ];
  const perRound =
    rounds > 1 ? scenario.measured.map((r) => cells(r, `  round ${r.round} ${r.target}`)) : null;
  const summary = scenario.results.map((r) =>
    cells(r, perRound ? `${r.target} (median)` : r.target),
  );
  const rows = [...(perRound ?? []), ...summary];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (row) =>
    row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const rule = line(widths.map((w) => '-'.repeat(w)));
  const bytes = scenario.results
    .map((r) => `${r.target} ${r.bytesPerResponse.toFixed(0)}`)
    .join(', ');
  const ratios = scenario.comparisons.flatMap((c) => {
    const perRoundRatios =
      rounds > 1 ? ` (rounds: ${c.ratioPercent.map((r) => r.toFixed(1)).join(', ')})` : '';
    return [
      `${c.target} / ${c.baseline}: ${c.medianRatioPercent.toFixed(1)}% of ${unit}/s` +
        perRoundRatios,
      `${c.target} / ${c.baseline}: ${c.medianCpuRatioPercent.toFixed(1)}% by server CPU ` +
        `per ${unit.replace(/s$/, '')} (${c.baseline} ÷ ${c.target})`,
    ];
  });
  return [
    `${scenario.endpoint}`,
    '',
    line(head),
    rule,
    ...(perRound ?? []).map(line),
    ...(perRound ? [rule] : []),
    ...summary.map(line),
    '',
    `server µs/${unit.replace(/s$/, '')} = server CPU time (user + system) per response; ` +
      'CPU = share of one core; log B/req = bytes the server logged per response',
    `bytes per response: ${bytes}`,
    '',
    ...ratios,
  ].join('\n');
}

function formatReport(report) {
  return [
    formatHeader(report),
    ...report.scenarios.map((s) => `\n${formatScenario(s, report.options.rounds)}`),
  ].join('\n');
}

/**
 * Measures each target in turn per round, then the medians and each target's ratios to its
 * baselines: the names in its `baselines`, else the first target.
 */
async function runScenario(scenario, options, running) {
  const { targets } = scenario;
  const measured = [];
  for (let round = 1; round <= options.rounds; round += 1) {
    // One target at a time: each has the machine to itself while it is measured.
    for (const target of targets) {
      if (!options.json) {
        console.error(`${scenario.name}, round ${round}/${options.rounds}: ${target.name}...`);
      }
      measured.push(await measure(target, { ...options, round }, running));
    }
  }
  const results = targets.map((t) => summarize(measured.filter((m) => m.target === t.name)));
  const [first, ...rest] = targets;
  const pairs = rest.flatMap((target) =>
    (target.baselines ?? [first.name]).map((name) => {
      const baseline = targets.find((t) => t.name === name);
      if (baseline === undefined) throw new Error(`no target named ${name}`);
      return { target, baseline };
    }),
  );
  const comparisons = pairs.map(({ target, baseline }) => {
    const ratioPercent = [];
    const cpuRatioPercent = [];
    for (let round = 1; round <= options.rounds; round += 1) {
      const [b, g] = [baseline, target].map((t) =>
        measured.find((m) => m.target === t.name && m.round === round),
      );
      ratioPercent.push((100 * g.requestsPerSecond) / b.requestsPerSecond);
      cpuRatioPercent.push((100 * b.serverCpuMicrosPerRequest) / g.serverCpuMicrosPerRequest);
    }
    return {
      target: target.name,
      baseline: baseline.name,
      medianRatioPercent: median(ratioPercent),
      medianCpuRatioPercent: median(cpuRatioPercent),
      ratioPercent,
      cpuRatioPercent,
    };
  });
  return {
    name: scenario.name,
    endpoint: scenario.endpoint,
    unit: scenario.unit,
    results,
    comparisons,
    measured,
  };
}

async function main(argv) {
  const options = parseOptions(argv);
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const profiling = process.env.BENCH_PROFILE === '1';
  const withMessages = options.scenarios.includes('messages');
  const withPostgres = withMessages && options.postgresUrl !== null;
  const servers = [];
  const running = new Set();
  const dataDir = await mkdtemp(join(options.dataDir, 'guildhall-bench-'));
  const profileRoot = profiling ? await mkdtemp(join(os.tmpdir(), 'guildhall-profile-')) : null;
  const profileDirs = [];

  // The whole run stops by itself: start-ups, warm-ups, measurements and some slack.
  const targetCount =
    (options.scenarios.includes('users') ? 2 + options.compare.length : 0) +
    (withMessages ? (withPostgres ? 4 : 2) : 0);
  const budgetMs =
    6 * SERVER_START_TIMEOUT_MS +
    targetCount *
      (options.warmupSeconds + options.rounds * (options.durationSeconds + 5) + 10) *
      1000;
  let failTimedOut;
  const timedOut = new Promise((_resolve, reject) => {
    failTimedOut = reject;
  });
  const deadline = setTimeout(
    () => failTimedOut(new Error(`the benchmark did not finish in ${budgetMs / 1000} s`)),
    budgetMs,
  );
  const stopAll = () => {
    for (const instance of running) instance.stop();
    for (const server of servers) server.kill();
  };
  process.once('SIGINT', stopAll);
  process.once('SIGTERM', stopAll);

  /**
   * A Guildhall child in the run's configuration (`settings` change it further), logging into a
   * file of its own in the data folder; under BENCH_PROFILE=1 it writes its profile into a folder
   * of its own.
   */
  const startGuildhall = async (label, args, settings = {}) => {
    let execArgv = [];
    if (profileRoot !== null) {
      const dir = join(profileRoot, label);
      await mkdir(dir);
      profileDirs.push({ label, dir });
      execArgv = ['--cpu-prof', `--cpu-prof-dir=${dir}`];
    }
    const env = {
      GUILDHALL_BENCH_SETTINGS: JSON.stringify({
        ...CONFIGURATIONS[options.configuration].settings,
        ...(options.logLevel === null ? {} : { GUILDHALL_LOG_LEVEL: options.logLevel }),
        ...settings,
      }),
    };
    const logFile = join(dataDir, `${label}.log`);
    const server = await startServer('guildhallServer.js', args, { execArgv, env, logFile });
    servers.push(server);
    return server;
  };
  const json = { 'content-type': 'application/json' };
  const messageBody = JSON.stringify({ content: 'Benchmark message: hello from autocannon' });
  const postMessage = (server, headers) => ({
    url: `${server.apiUrl}/channels/${server.channelId}/messages`,
    method: 'POST',
    headers: { ...headers, ...json },
    body: messageBody,
  });

  const run = async () => {
    const scenarios = [];

    if (options.scenarios.includes('users')) {
      const guildhall = await startGuildhall('users', [join(dataDir, 'users')]);
      const auth = { authorization: `Bot ${guildhall.botToken}` };
      const request = { url: `${guildhall.apiUrl}/users/@me`, headers: auth };
      const body = await probe(request);
      const variants = [];
      for (const name of options.compare) {
        const variant = VARIANTS[name];
        const server = await startGuildhall(
          `users-${name}`,
          [join(dataDir, `users-${name}`)],
          variant.settings,
        );
        const variantRequest = {
          url: `${server.apiUrl}/users/@me`,
          headers: { authorization: `Bot ${server.botToken}` },
        };
        await probe(variantRequest);
        variants.push({ name: variant.name, server, request: variantRequest });
      }
      const bare = await startServer('bareServer.js', [body]);
      servers.push(bare);
      const bareRequest = { url: `${bare.apiUrl}/users/@me` };
      if ((await probe(bareRequest)) !== body)
        throw new Error('the bare route does not send the same body');
      scenarios.push(
        await runScenario(
          {
            name: 'users',
            endpoint: 'GET /api/v10/users/@me (Authorization: Bot <token>)',
            unit: 'requests',
            targets: [
              { name: 'bare fastify', server: bare, request: bareRequest },
              { name: 'guildhall', server: guildhall, request },
              ...variants,
            ],
          },
          options,
          running,
        ),
      );
    }

    if (withMessages) {
      // A server of its own: a fresh database, in the run's configuration.
      const onSqlite = await startGuildhall('messages-sqlite', [join(dataDir, 'messages-sqlite')]);
      const request = postMessage(onSqlite, { authorization: `Bot ${onSqlite.botToken}` });
      const created = JSON.parse(await probe(request));
      const setup = JSON.stringify({
        guildId: onSqlite.guildId,
        channelId: onSqlite.channelId,
        authorId: onSqlite.botUserId,
        body: created,
      });
      const bare = await startServer('bareInsertServer.js', [
        'sqlite',
        join(dataDir, 'bare.db'),
        setup,
      ]);
      servers.push(bare);
      const bareRequest = postMessage(bare, {});
      await probe(bareRequest);
      const targets = [
        { name: 'bare sqlite insert', server: bare, request: bareRequest },
        { name: 'guildhall sqlite', server: onSqlite, request },
      ];
      if (withPostgres) {
        const barePg = await startServer('bareInsertServer.js', [
          'postgres',
          options.postgresUrl,
          `bench_bare_${randomBytes(6).toString('hex')}`,
          setup,
        ]);
        servers.push(barePg);
        const barePgRequest = postMessage(barePg, {});
        await probe(barePgRequest);
        const onPostgres = await startGuildhall('messages-postgres', [
          join(dataDir, 'messages-postgres'),
          options.postgresUrl,
        ]);
        const pgRequest = postMessage(onPostgres, {
          authorization: `Bot ${onPostgres.botToken}`,
        });
        await probe(pgRequest);
        targets.push(
          { name: 'bare pg insert', server: barePg, request: barePgRequest, baselines: [] },
          {
            name: 'guildhall postgres',
            server: onPostgres,
            request: pgRequest,
            baselines: ['bare pg insert', 'bare sqlite insert'],
          },
        );
      }
      scenarios.push(
        await runScenario(
          {
            name: 'messages',
            endpoint:
              'POST /api/v10/channels/{id}/messages (Authorization: Bot <token>, JSON content)',
            unit: 'creates',
            targets,
          },
          options,
          running,
        ),
      );
    }

    return {
      date: new Date().toISOString(),
      command: `node bench/http.js ${argv.join(' ')}`.trim(),
      machine: machine(),
      options: {
        connections: options.connections,
        warmupSeconds: options.warmupSeconds,
        durationSeconds: options.durationSeconds,
        rounds: options.rounds,
        configuration: options.configuration,
        compare: options.compare,
        dataDir: options.dataDir,
        dataOnTmpfs: onTmpfs(options.dataDir),
        logLevel: options.logLevel,
        postgres: withPostgres ? redact(options.postgresUrl) : null,
      },
      scenarios,
    };
  };

  try {
    const work = run();
    // After a time-out, whatever the abandoned run still throws is of no interest.
    work.catch(() => undefined);
    const report = await Promise.race([work, timedOut]);
    console.log(options.json ? JSON.stringify(report, null, 2) : formatReport(report));
  } finally {
    clearTimeout(deadline);
    for (const instance of running) instance.stop();
    await Promise.all(servers.map((server) => server.stop()));
    await rm(dataDir, { recursive: true, force: true });
  }

  for (const { label, dir } of profileDirs) {
    const file = await latestProfile(dir);
    if (file === null) throw new Error(`no CPU profile was written to ${dir}`);
    const summary = summarizeCpuProfile(JSON.parse(await readFile(file, 'utf8')), 25);
    console.log(`\nCPU profile of ${label}: ${file}`);
    console.log(formatCpuProfileSummary(summary));
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error(`bench/http: ${err instanceof Error ? err.message : String(err)}`);
    if (err?.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') console.error(`\n${USAGE}`);
    process.exitCode = 1;
    // Leave nothing running behind a failed run.
    setTimeout(() => process.exit(1), 1000).unref();
  },
);
