/**
 * HTTP benchmark: authenticated GET /api/v10/users/@me on the real Guildhall app next to a bare
 * Fastify route that sends the same body, measured one after the other in the same run. Each
 * server runs in its own child process so it does not share an event loop with the load
 * generator. See docs/benchmarks.md.
 */
import { fork } from 'node:child_process';
import console from 'node:console';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { get } from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { createHistogram } from 'node:perf_hooks';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';
import { URL, fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { formatCpuProfileSummary, summarizeCpuProfile } from './support/cpuProfile.js';

const USAGE = `Usage: node bench/http.js [options]   (npm run bench:http builds first)

Measures GET /api/v10/users/@me with a bot token on Guildhall (SQLite, rate limits off) and the
same body from a bare Fastify route, and prints requests/s, p50 and p99 and their ratio.

Options:
  --duration <s>     seconds measured per target (default 10)
  --warmup <s>       seconds of load before each measurement, not counted (default 2)
  --connections <n>  concurrent connections (default 50)
  --rounds <n>       measure bare and Guildhall alternately n times and report the medians,
                     which steadies the ratio on a busy machine (default 1)
  --json             print the results as JSON instead of a table
  --help             print this help

Environment:
  BENCH_PROFILE=1    run the Guildhall child under node --cpu-prof and print where its CPU went
                     (the profile stays in a temporary folder whose path is printed; the
                     profiler itself slows Guildhall, so take figures from a run without it)

Exit status: 0 when every response was 2xx, 1 otherwise or on any failure.`;

const SERVER_START_TIMEOUT_MS = 30_000;
const SERVER_STOP_TIMEOUT_MS = 5_000;
const supportFile = (name) => fileURLToPath(new URL(`./support/${name}`, import.meta.url));

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '50' },
      rounds: { type: 'string', default: '1' },
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
  return {
    help: values.help,
    json: values.json,
    durationSeconds: integer('duration', 1, 3600),
    warmupSeconds: integer('warmup', 0, 600),
    connections: integer('connections', 1, 10_000),
    rounds: integer('rounds', 1, 100),
  };
}

/** A forked server child (see support/childIpc.js): its ready message, CPU time, stop and kill. */
async function startServer(name, args, execArgv = []) {
  const child = fork(supportFile(name), args, {
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const failed = new Promise((_resolve, reject) => {
    child.once('error', reject);
    void exited.then((code) => reject(new Error(`${name} exited with ${code}`)));
  });
  // Only ever raced against an answer below; an exit after the last question is expected.
  failed.catch(() => undefined);
  const nextMessage = (type, timeoutMs) => {
    let timer;
    let onMessage;
    const answer = new Promise((resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${name} sent no "${type}" message in ${timeoutMs} ms`)),
        timeoutMs,
      );
      onMessage = (message) => {
        if (message?.type === type) resolve(message);
      };
      child.on('message', onMessage);
    });
    return Promise.race([answer, failed]).finally(() => {
      clearTimeout(timer);
      child.off('message', onMessage);
    });
  };
  const ready = await nextMessage('ready', SERVER_START_TIMEOUT_MS).catch((err) => {
    child.kill('SIGKILL');
    throw err;
  });
  return {
    ...ready,
    /** The child's CPU time so far (user + system), in microseconds. */
    async cpuMicros() {
      const answer = nextMessage('cpu', 5000);
      child.send({ type: 'cpu' });
      const { usage } = await answer;
      return usage.user + usage.system;
    },
    /** Asks for a clean exit (which writes a CPU profile), then kills after a grace period. */
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.connected) child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), SERVER_STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
    kill: () => child.kill('SIGKILL'),
  };
}

/** One autocannon run; latencies are kept in microseconds (autocannon's own are whole ms). */
function load(url, { connections, durationSeconds, headers }) {
  const latencyUs = createHistogram();
  let instance;
  const done = new Promise((resolve, reject) => {
    instance = autocannon(
      { url, connections, duration: durationSeconds, headers },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
  // The event's arguments: client, status code, response bytes, response time in ms.
  instance.on('response', (...event) => {
    latencyUs.record(Math.max(1, Math.round(event[3] * 1000)));
  });
  return { instance, done: done.then((result) => ({ result, latencyUs })) };
}

/** Fails loudly on anything but 2xx answers, connection errors included. */
function checkResponses(label, result) {
  const problems = [];
  if (result.non2xx > 0) problems.push(`${result.non2xx} non-2xx responses`);
  if (result.errors > 0) problems.push(`${result.errors} errors`);
  if (result.timeouts > 0) problems.push(`${result.timeouts} timeouts`);
  if (result['2xx'] === 0) problems.push('no 2xx responses');
  if (problems.length > 0) {
    const codes = JSON.stringify(result.statusCodeStats);
    throw new Error(`${label}: ${problems.join(', ')} (status codes ${codes})`);
  }
}

async function measure(target, options, running) {
  const { warmupSeconds, round } = options;
  const url = `${target.apiUrl}/users/@me`;
  const run = async (label, durationSeconds) => {
    const job = load(url, { ...options, durationSeconds, headers: target.headers });
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
  const cpuBefore = await target.server.cpuMicros();
  const loaderBefore = process.cpuUsage();
  const { result, latencyUs } = await run(target.name, options.durationSeconds);
  const loader = process.cpuUsage(loaderBefore);
  const cpuMicros = (await target.server.cpuMicros()) - cpuBefore;
  const elapsedMicros = result.duration * 1e6;
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
  };
}

/** One GET before the load: checks the token and returns the body (which the bare route sends). */
function probe(url, headers) {
  return new Promise((resolve, reject) => {
    const request = get(url, { headers, agent: false, timeout: 5000 }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (text += chunk));
      response.on('error', reject);
      response.on('end', () => {
        if (response.statusCode === 200) resolve(text);
        else reject(new Error(`GET ${url} answered ${response.statusCode}: ${text.slice(0, 300)}`));
      });
    });
    request.on('timeout', () => request.destroy(new Error(`GET ${url} timed out`)));
    request.on('error', reject);
  });
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

function formatTable(report) {
  const head = [
    'target',
    'req/s',
    'p50 ms',
    'p99 ms',
    'server µs/req',
    'server CPU',
    'loader CPU',
    'requests',
  ];
  const cells = (r, name) => [
    name,
    r.requestsPerSecond.toFixed(0),
    r.p50Ms.toFixed(2),
    r.p99Ms.toFixed(2),
    r.serverCpuMicrosPerRequest.toFixed(1),
    `${r.serverCpuPercent.toFixed(0)}%`,
    `${r.loaderCpuPercent.toFixed(0)}%`,
    String(r.requests),
  ];
  const perRound = report.rounds?.measured.map((r) => cells(r, `  round ${r.round} ${r.target}`));
  const summary = report.results.map((r) => cells(r, perRound ? `${r.target} (median)` : r.target));
  const rows = [...(perRound ?? []), ...summary];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (row) =>
    row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const { machine: m, options: o } = report;
  const bytes = report.results
    .map((r) => `${r.target} ${r.bytesPerResponse.toFixed(0)}`)
    .join(', ');
  const ratios = report.rounds
    ? ` (median of rounds: ${report.rounds.ratioPercent.map((r) => r.toFixed(1)).join(', ')})`
    : '';
  return [
    `command:  ${report.command}`,
    `node:     ${m.node}  cpu: ${m.cpu} x ${m.cpuCount}  (${m.platform})`,
    `load:     ${o.connections} connections, ${o.warmupSeconds} s warm-up, ` +
      `${o.durationSeconds} s per target x ${o.rounds} round(s)`,
    '',
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...(perRound ?? []).map(line),
    ...(perRound ? [line(widths.map((w) => '-'.repeat(w)))] : []),
    ...summary.map(line),
    '',
    'server µs/req = server CPU time (user + system) per response; CPU = share of one core',
    `bytes per response: ${bytes}`,
    '',
    `Guildhall / bare: ${report.ratioPercent.toFixed(1)}% of requests/s${ratios}`,
    `Guildhall / bare: ${report.cpuRatioPercent.toFixed(1)}% by server CPU per request ` +
      '(bare ÷ Guildhall; steadier when other work shares the machine)',
  ].join('\n');
}

async function latestProfile(dir) {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.cpuprofile')).sort();
  const last = files.at(-1);
  return last === undefined ? null : join(dir, last);
}

async function main(argv) {
  const options = parseOptions(argv);
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const profiling = process.env.BENCH_PROFILE === '1';
  const servers = [];
  const running = new Set();
  const dataDir = await mkdtemp(join(os.tmpdir(), 'guildhall-bench-'));
  const profileDir = profiling ? await mkdtemp(join(os.tmpdir(), 'guildhall-profile-')) : null;

  // The whole run stops by itself: start-up, two warm-ups, two measurements and some slack.
  const budgetMs =
    2 * SERVER_START_TIMEOUT_MS +
    2 * (options.warmupSeconds + options.rounds * (options.durationSeconds + 5) + 10) * 1000;
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

  const run = async () => {
    const guildhall = await startServer(
      'guildhallServer.js',
      [dataDir],
      profiling ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    );
    servers.push(guildhall);
    const headers = { authorization: `Bot ${guildhall.botToken}` };
    const body = await probe(`${guildhall.apiUrl}/users/@me`, headers);

    const bare = await startServer('bareServer.js', [body]);
    servers.push(bare);
    const bareBody = await probe(`${bare.apiUrl}/users/@me`, {});
    if (bareBody !== body) throw new Error('the bare route does not send the same body');

    // Bare, then Guildhall, per round: each has the machine to itself while it is measured.
    const targets = [
      { name: 'bare fastify', server: bare, apiUrl: bare.apiUrl, headers: {} },
      { name: 'guildhall', server: guildhall, apiUrl: guildhall.apiUrl, headers },
    ];
    const measured = [];
    for (let round = 1; round <= options.rounds; round += 1) {
      for (const target of targets) {
        if (!options.json) console.error(`round ${round}/${options.rounds}: ${target.name}...`);
        measured.push(await measure(target, { ...options, round }, running));
      }
    }
    const results = targets.map((t) => summarize(measured.filter((m) => m.target === t.name)));
    const ratios = [];
    const cpuRatios = [];
    for (let round = 1; round <= options.rounds; round += 1) {
      const [b, g] = targets.map((t) =>
        measured.find((m) => m.target === t.name && m.round === round),
      );
      ratios.push((100 * g.requestsPerSecond) / b.requestsPerSecond);
      cpuRatios.push((100 * b.serverCpuMicrosPerRequest) / g.serverCpuMicrosPerRequest);
    }
    return {
      date: new Date().toISOString(),
      command: `node bench/http.js ${argv.join(' ')}`.trim(),
      endpoint: 'GET /api/v10/users/@me (Authorization: Bot <token>)',
      machine: machine(),
      options: {
        connections: options.connections,
        warmupSeconds: options.warmupSeconds,
        durationSeconds: options.durationSeconds,
        rounds: options.rounds,
      },
      results,
      ratioPercent: median(ratios),
      cpuRatioPercent: median(cpuRatios),
      rounds: options.rounds > 1 ? { measured, ratioPercent: ratios } : undefined,
    };
  };

  try {
    const work = run();
    // After a time-out, whatever the abandoned run still throws is of no interest.
    work.catch(() => undefined);
    const report = await Promise.race([work, timedOut]);
    console.log(options.json ? JSON.stringify(report, null, 2) : formatTable(report));
  } finally {
    clearTimeout(deadline);
    for (const instance of running) instance.stop();
    await Promise.all(servers.map((server) => server.stop()));
    await rm(dataDir, { recursive: true, force: true });
  }

  if (profileDir !== null) {
    const file = await latestProfile(profileDir);
    if (file === null) throw new Error(`no CPU profile was written to ${profileDir}`);
    const summary = summarizeCpuProfile(JSON.parse(await readFile(file, 'utf8')), 25);
    console.log(`\nCPU profile of the Guildhall process: ${file}`);
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
