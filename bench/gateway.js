/**
 * Gateway benchmark: N sessions of one bot in one guild on the real Guildhall gateway, next to a
 * bare `ws` server broadcasting the same frame to N sockets, plain and zlib-stream, measured one
 * after the other in the same run. Servers and clients each run in their own child process. See
 * docs/benchmarks.md.
 */
import { execFileSync, fork } from 'node:child_process';
import console from 'node:console';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';
import { clearTimeout, setTimeout } from 'node:timers';
import { parseArgs } from 'node:util';

const USAGE = `Usage: node bench/gateway.js [options]   (npm run bench:gateway builds first)

For each session count, on Guildhall (SQLite, rate limits and identify limits off) and on a bare
\`ws\` broadcast of the same frame, plain and zlib-stream:
  - identify storm: all sessions connect at once; time until the last READY and the last
    GUILD_CREATE (bare: the last greeting), and the number of failed sessions (must be 0);
  - memory: server RSS per idle session (after a full GC);
  - fan-out: the owner posts a message over HTTP (bare: POST /broadcast), time until the last
    session has its MESSAGE_CREATE, p50 and p99 over --rounds;
  - sustained: --messages such messages with --inflight requests in flight; deliveries per second,
    and the server process's CPU time (user + system) per delivery over that run.
Then each Guildhall figure as a ratio to the bare one, against the aims.

Options:
  --sessions <list>   session counts, comma-separated (default 1000,5000)
  --rounds <n>        fan-out rounds per target (default 30)
  --messages <n>      changes in the sustained run (default 100)
  --inflight <n>      HTTP requests in flight in the sustained run (default 4)
  --client-processes <n>
                      client processes the sessions are split over (default 1); times are
                      taken on a clock the processes share, from the request to the last
                      socket of any of them
  --modes <list>      plain, zlib-stream or both (default plain,zlib-stream)
  --json              print the results as JSON instead of tables
  --help              print this help

Environment:
  BENCH_PROFILE=<dir> write a CPU profile of each Guildhall server child into <dir>
                      (summarize one with node bench/support/cpuProfile.js <file>)

Needs about 2 × sessions + 200 file descriptors per process: the script checks \`ulimit -n\` and
says what to do when it is too low.

Exit status: 0 when every session of every storm reached READY, 1 otherwise or on any failure.`;

const support = (name) => fileURLToPath(new URL(`./support/${name}`, import.meta.url));

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      sessions: { type: 'string', default: '1000,5000' },
      rounds: { type: 'string', default: '30' },
      messages: { type: 'string', default: '100' },
      inflight: { type: 'string', default: '4' },
      'client-processes': { type: 'string', default: '1' },
      modes: { type: 'string', default: 'plain,zlib-stream' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const integer = (raw, name, [min, max]) => {
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max)
      throw new Error(`--${name} must be an integer from ${min} to ${max}; got "${raw}".`);
    return value;
  };
  const modes = values.modes.split(',');
  for (const mode of modes)
    if (mode !== 'plain' && mode !== 'zlib-stream') throw new Error(`unknown mode "${mode}"`);
  return {
    help: values.help,
    json: values.json,
    sessions: values.sessions.split(',').map((s) => integer(s, 'sessions', [1, 50_000])),
    rounds: integer(values.rounds, 'rounds', [1, 10_000]),
    messages: integer(values.messages, 'messages', [1, 100_000]),
    inflight: integer(values.inflight, 'inflight', [1, 256]),
    clientProcesses: integer(values['client-processes'], 'client-processes', [1, 16]),
    modes,
  };
}

/** A forked child speaking the { type } message protocol of support/gateway*.js. */
async function startChild(file, args, execArgv = []) {
  const child = fork(support(file), args, {
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const ask = (message, timeoutMs = 600_000) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${file}: no answer to ${message?.type}`)),
        timeoutMs,
      );
      const onMessage = (answer) => {
        if (answer?.type !== (message?.type ?? 'ready')) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        if (answer.error !== undefined) reject(new Error(`${file}: ${answer.error}`));
        else resolve(answer);
      };
      const onExit = (code) => {
        clearTimeout(timer);
        reject(new Error(`${file} exited with ${code}`));
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
      if (message !== null) child.send(message);
    });
  /** The next message of `type` the child sends unasked. */
  const next = (type, timeoutMs = 600_000) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${file}: no ${type}`)), timeoutMs);
      // A round whose request failed never gets its arrivals: the wait must not keep us alive.
      timer.unref();
      const onMessage = (message) => {
        if (message?.type !== type) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        if (message.error !== undefined) reject(new Error(`${file}: ${message.error}`));
        else resolve(message);
      };
      child.on('message', onMessage);
    });
  const ready = await ask(null, 60_000);
  return {
    ...ready,
    ask,
    next,
    async stop(message = { type: 'stop' }) {
      if (child.exitCode !== null) return;
      if (child.connected) child.send(message);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Arms every client process for `count` texts containing `prefix`, sends `fire` from the first,
 * and answers the time from its first request until the last socket of any process had them all.
 */
async function dispatchRound(clients, { prefix, count, fire }) {
  const arrived = clients.map((c) => c.next('arrived'));
  // Unawaited when the request fails: their later timeout is not an unhandled rejection.
  for (const wait of arrived) wait.catch(() => undefined);
  await Promise.all(clients.map((c) => c.ask({ type: 'arm', prefix, count })));
  const { startAt } = await clients[0].ask(fire);
  const ends = await Promise.all(arrived);
  return { ms: Math.max(...ends.map((e) => e.at)) - startAt, sample: ends[0].sample };
}

async function measureLatency(clients, { rounds, trigger }) {
  const samples = [];
  let frame = null;
  for (let round = 0; round < rounds; round += 1) {
    const marker = `l${round}-${Date.now()}`;
    const fire = { type: 'fireOnce', trigger, marker };
    const { ms, sample } = await dispatchRound(clients, { prefix: marker, count: 1, fire });
    samples.push(ms);
    frame ??= sample.replace(marker, '{{marker}}');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { samples, frame };
}

function throughput(clients, { messages, inflight, trigger }) {
  const prefix = `t${Date.now()}`;
  const fire = { type: 'fireMany', trigger, prefix, messages, inflight };
  return dispatchRound(clients, { prefix, count: messages, fire });
}

/** `n` sessions split over `k` processes: the share of process `i`. */
const shareOf = (n, k, i) => Math.floor(n / k) + (i < n % k ? 1 : 0);

/** One target (guildhall or bare) in one mode with n sessions. */
async function measure({ kind, mode, n, options, frame, dataDir }) {
  const server = await startChild(
    'gatewayTarget.js',
    [kind, kind === 'guildhall' ? dataDir : frame],
    [
      '--expose-gc',
      // BENCH_PROFILE=<folder>: a CPU profile of each Guildhall server child goes there.
      ...(kind === 'guildhall' && process.env.BENCH_PROFILE
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
        : []),
    ],
  );
  const k = Math.min(options.clientProcesses, n);
  const clients = await Promise.all(
    Array.from({ length: k }, () => startChild('gatewayClients.js', [])),
  );
  try {
    const { rss: rssBefore } = await server.ask({ type: 'rss' });
    const parts = await Promise.all(
      clients.map((c, i) =>
        c.ask({
          type: 'connect',
          url: server.gatewayUrl,
          n: shareOf(n, k, i),
          compress: mode === 'zlib-stream',
          token: kind === 'guildhall' ? `Bot ${server.botToken}` : null,
        }),
      ),
    );
    const errors = {};
    for (const part of parts) {
      for (const [reason, count] of Object.entries(part.errors)) {
        errors[reason] = (errors[reason] ?? 0) + count;
      }
    }
    const storm = {
      errors,
      readyMs: Math.max(...parts.map((p) => p.readyMs)),
      lastMs: Math.max(...parts.map((p) => p.lastMs)),
    };
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const { rss: rssAfter } = await server.ask({ type: 'rss' });
    const failed = Object.values(storm.errors).reduce((a, b) => a + b, 0);
    const trigger =
      kind === 'guildhall'
        ? {
            kind,
            apiUrl: server.apiUrl,
            ownerToken: server.ownerToken,
            channelId: server.channelId,
          }
        : { kind, apiUrl: server.apiUrl };
    let latency = null;
    let sustained = null;
    const problems = [];
    if (failed === 0) {
      // A failed step is reported with the others rather than ending the run.
      const attempt = (label, run) =>
        run().catch((err) => {
          problems.push(`${label}: ${err.message}`);
          return null;
        });
      latency = await attempt('fan-out', () =>
        measureLatency(clients, { rounds: options.rounds, trigger }),
      );
      const cpuBefore = await server.ask({ type: 'cpu' });
      sustained = await attempt('sustained', () =>
        throughput(clients, { messages: options.messages, inflight: options.inflight, trigger }),
      );
      const cpuAfter = await server.ask({ type: 'cpu' });
      // The server's own CPU time per delivery: what contention on a shared machine moves least.
      if (sustained !== null) sustained.cpuUs = cpuAfter.us - cpuBefore.us;
    }
    return {
      target: kind === 'guildhall' ? 'guildhall' : 'bare ws',
      mode,
      sessions: n,
      failedSessions: failed,
      errors: storm.errors,
      lastReadyMs: storm.readyMs,
      lastSessionReadyMs: storm.lastMs,
      rssPerSessionKiB: (rssAfter - rssBefore) / n / 1024,
      p50Ms: latency === null ? null : percentile(latency.samples, 50),
      p99Ms: latency === null ? null : percentile(latency.samples, 99),
      deliveriesPerSecond:
        sustained === null ? null : (n * options.messages) / (sustained.ms / 1000),
      serverCpuUsPerDelivery: sustained === null ? null : sustained.cpuUs / (n * options.messages),
      frame: latency?.frame ?? null,
      problems,
    };
  } finally {
    await Promise.all(clients.map((c) => c.stop({ type: 'close' })));
    await server.stop();
  }
}

function checkFileLimit(sessions) {
  // The server holds every session's socket (each client process only its share).
  const needed = Math.max(...sessions) + 200;
  let soft = Number.POSITIVE_INFINITY;
  try {
    const raw = execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim();
    if (raw !== 'unlimited') soft = Number(raw);
  } catch {
    return;
  }
  if (soft < needed) {
    throw new Error(
      `ulimit -n is ${soft}; ${needed} file descriptors are needed. Raise it first, e.g. ` +
        `\`ulimit -n ${needed} && npm run bench:gateway\` (up to \`ulimit -Hn\`).`,
    );
  }
}

const fmt = (value, digits = 1) =>
  value === null || value === undefined
    ? '—'
    : value.toLocaleString('en-US', { maximumFractionDigits: digits });

function report(results, options) {
  const lines = [];
  lines.push(
    '| sessions | mode | target | failed | last READY ms | last ready ms | RSS KiB/session | p50 ms | p99 ms | deliveries/s | server CPU µs/delivery |',
    '| -------: | ---- | ------ | -----: | ------------: | ------------: | --------------: | -----: | -----: | -----------: | ---------------------: |',
  );
  for (const r of results) {
    lines.push(
      `| ${r.sessions} | ${r.mode} | ${r.target} | ${r.failedSessions} | ${r.target === 'guildhall' ? fmt(r.lastReadyMs, 0) : '—'} | ${fmt(r.lastSessionReadyMs, 0)} | ${fmt(r.rssPerSessionKiB)} | ${fmt(r.p50Ms)} | ${fmt(r.p99Ms)} | ${fmt(r.deliveriesPerSecond, 0)} | ${fmt(r.serverCpuUsPerDelivery, 2)} |`,
    );
  }
  lines.push(
    '',
    'Guildhall ÷ bare (aims: p99 ≤ 2, RSS ≤ 2, deliveries ≥ 0.5; zlib-stream p99 ≤ 1.5):',
    '',
  );
  lines.push(
    '| sessions | mode | p50 | p99 | RSS/session | deliveries/s |',
    '| -: | - | -: | -: | -: | -: |',
  );
  for (const n of options.sessions) {
    for (const mode of options.modes) {
      const g = results.find(
        (r) => r.sessions === n && r.mode === mode && r.target === 'guildhall',
      );
      const b = results.find((r) => r.sessions === n && r.mode === mode && r.target === 'bare ws');
      if (g === undefined || b === undefined) continue;
      const ratio = (x, y) => (x === null || y === null ? '—' : (x / y).toFixed(2));
      lines.push(
        `| ${n} | ${mode} | ${ratio(g.p50Ms, b.p50Ms)} | ${ratio(g.p99Ms, b.p99Ms)} | ${ratio(g.rssPerSessionKiB, b.rssPerSessionKiB)} | ${ratio(g.deliveriesPerSecond, b.deliveriesPerSecond)} |`,
      );
    }
  }
  for (const r of results) {
    for (const problem of r.problems)
      lines.push(`- ${r.sessions} ${r.mode} ${r.target}: ${problem}`);
  }
  return lines.join('\n');
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  checkFileLimit(options.sessions);
  const results = [];
  const dataDirs = [];
  try {
    for (const n of options.sessions) {
      for (const mode of options.modes) {
        const dataDir = await mkdtemp(join(os.tmpdir(), 'guildhall-bench-gw-'));
        dataDirs.push(dataDir);
        const guildhall = await measure({ kind: 'guildhall', mode, n, options, dataDir });
        results.push(guildhall);
        const frame =
          guildhall.frame ??
          JSON.stringify({ t: 'MESSAGE_CREATE', s: 3, op: 0, d: { nonce: '{{marker}}' } });
        results.push(await measure({ kind: 'bare', mode, n, options, frame }));
        if (!options.json) console.error(`done: ${n} sessions, ${mode}`);
      }
    }
  } finally {
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  }
  const machine = `${os.cpus()[0]?.model ?? 'cpu'}, ${os.cpus().length} CPUs, ${os.platform()} ${os.release()}, Node ${process.version}`;
  if (options.json) {
    console.log(
      JSON.stringify(
        { machine, options, results: results.map((r) => ({ ...r, frame: undefined })) },
        null,
        2,
      ),
    );
  } else {
    console.log(`Machine: ${machine}\n`);
    console.log(report(results, options));
  }
  return results.every((r) => r.failedSessions === 0 && r.problems.length === 0) ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  },
);
