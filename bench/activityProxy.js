/**
 * The activity proxy host (docs/activities.md) against the target it forwards to and against a
 * bare reverse proxy: the same GET asked of a bare Fastify server directly, through a bare
 * `node:http` proxy streaming to it, and through Guildhall's proxy on an activity origin
 * (`/<path>` and `/.proxy/<path>`), measured one after the other in the same run (in alternating
 * order over several rounds with `--rounds`). The target, the bare proxy and Guildhall each run
 * in their own child process (support/bareServer.js, support/bareProxyServer.js,
 * support/guildhallServer.js), Guildhall with `npm start`'s settings, the local-development
 * switch for loopback targets on. See docs/benchmarks.md.
 */
import console from 'node:console';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { URL } from 'node:url';
import { parseArgs } from 'node:util';
import { checkResponses, load } from './support/autocannon.js';
import { startServer } from './support/childServer.js';
import { integerReader, readOptions } from './support/options.js';
import { median } from './support/stats.js';

const USAGE = `Usage: node bench/activityProxy.js [options]   (npm run bench:activity-proxy builds first)

A bare Fastify target answers GET /api/v10/users/@me with a small JSON body. The bench
application's activity maps "/" to that target; the same GET is then asked:
  direct          of the target itself
  bare proxy      of a bare node:http reverse proxy streaming to the target (no framework, no
                  log, pooled keep-alive connections): the least a proxy costs
  proxied         of Guildhall at http://<app id>.activities.localhost:<port>/api/v10/users/@me
  proxied .proxy  the same under /.proxy/
Columns: requests/s, p50 and p99 latency, the answering process's CPU time per request (the
target's for direct, the bare proxy's, Guildhall's: the target's own share is left out of the
proxies' figures), requests/s as a ratio to direct and to the bare proxy, and CPU per request as
a ratio to the bare proxy's (less noisy than requests/s on a shared machine). With --rounds above 1 the targets are asked in alternating order (forwards, then
backwards) and each figure is the median of the rounds.

Guildhall runs with the settings \`npm start\` gives it (SQLite on disk, logs at info: one line per
proxied request), with --activity-allow-loopback on (GUILDHALL_ACTIVITY_ALLOW_LOOPBACK) so the
loopback target is allowed.

Options:
  --duration <s>     seconds measured per target (default 10)
  --warmup <s>       seconds of load before each target, not counted (default 2)
  --connections <n>  concurrent keep-alive connections (default 50)
  --rounds <n>       rounds over all targets; medians reported (default 1)
  --data-dir <dir>   where Guildhall's data and log go, in a new folder removed afterwards
                     (default: the system's temporary folder)
  --json             print the results as JSON instead of a table
  --help             print this help

Exit status: 0 when every request got a 2xx answer, 1 otherwise.`;

const BODY = { id: '1', username: 'bench', global_name: 'Bench', avatar: null, flags: 0 };

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '50' },
      rounds: { type: 'string', default: '1' },
      'data-dir': { type: 'string', default: os.tmpdir() },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const integer = integerReader(values);
  return {
    help: values.help,
    json: values.json,
    durationSeconds: integer('duration', [1, 3600]),
    warmupSeconds: integer('warmup', [0, 600]),
    connections: integer('connections', [1, 10_000]),
    rounds: integer('rounds', [1, 100]),
    dataDir: values['data-dir'],
  };
}

/** One measured load of a target (after its warm-up), as a row. */
async function measure({ name, request, server }, options) {
  if (!options.json) process.stderr.write(`${name}…\n`);
  if (options.warmupSeconds > 0) {
    const warm = await load(request, { ...options, durationSeconds: options.warmupSeconds }).done;
    checkResponses(`${name} warm-up`, warm.result);
  }
  await server.settle();
  const cpuBefore = await server.cpuMicros();
  const { result, latencyUs } = await load(request, options).done;
  const cpuMicros = (await server.cpuMicros()) - cpuBefore;
  checkResponses(name, result);
  await server.settle();
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50Ms: latencyUs.percentile(50) / 1000,
    p99Ms: latencyUs.percentile(99) / 1000,
    serverCpuMicrosPerRequest: cpuMicros / result['2xx'],
  };
}

/** Each target's median figures over the rounds, in the targets' order. */
function medians(targets, rounds) {
  return targets.map(({ name }) => {
    const mine = rounds.flat().filter((row) => row.name === name);
    return {
      name,
      requestsPerSecond: median(mine.map((row) => row.requestsPerSecond)),
      p50Ms: median(mine.map((row) => row.p50Ms)),
      p99Ms: median(mine.map((row) => row.p99Ms)),
      serverCpuMicrosPerRequest: median(mine.map((row) => row.serverCpuMicrosPerRequest)),
    };
  });
}

/** Sets the bench application's activity to map "/" to the target; its activity host. */
async function configureActivity(guildhall, targetHost) {
  const configured = await globalThis.fetch(
    `${guildhall.apiUrl}/applications/${guildhall.applicationId}/embedded-activity-config`,
    {
      method: 'PATCH',
      headers: { authorization: guildhall.developerToken, 'content-type': 'application/json' },
      body: JSON.stringify({ url_mappings: [{ prefix: '/', target: targetHost }] }),
    },
  );
  if (!configured.ok) {
    throw new Error(`configuring the activity: ${configured.status} ${await configured.text()}`);
  }
  const { activity_origin: origin } = await configured.json();
  return new URL(origin).host;
}

async function run(options) {
  const dir = await mkdtemp(join(options.dataDir, 'guildhall-bench-proxy-'));
  const target = await startServer('bareServer.js', [JSON.stringify(BODY)]);
  const closers = [() => target.stop()];
  try {
    const targetHost = new URL(target.apiUrl).host;
    const bareProxy = await startServer('bareProxyServer.js', [targetHost]);
    closers.unshift(() => bareProxy.stop());
    const guildhall = await startServer('guildhallServer.js', [join(dir, 'data')], {
      env: {
        GUILDHALL_BENCH_SETTINGS: JSON.stringify({ GUILDHALL_ACTIVITY_ALLOW_LOOPBACK: 'on' }),
      },
      logFile: join(dir, 'server.log'),
      execArgv: process.env.BENCH_PROFILE
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
        : [],
    });
    closers.unshift(() => guildhall.stop());
    const activityHost = await configureActivity(guildhall, targetHost);
    const guildhallUrl = new URL(guildhall.apiUrl);
    const viaProxy = (path) => ({
      url: `http://${guildhallUrl.host}${path}`,
      headers: { host: activityHost },
    });
    const targets = [
      { name: 'direct', request: { url: `${target.apiUrl}/users/@me` }, server: target },
      {
        name: 'bare proxy',
        request: { url: `${bareProxy.proxyUrl}/api/v10/users/@me` },
        server: bareProxy,
      },
      { name: 'proxied', request: viaProxy('/api/v10/users/@me'), server: guildhall },
      {
        name: 'proxied .proxy',
        request: viaProxy('/.proxy/api/v10/users/@me'),
        server: guildhall,
      },
    ];
    const rounds = [];
    for (let round = 0; round < options.rounds; round += 1) {
      const order = round % 2 === 0 ? targets : [...targets].reverse();
      const rows = [];
      for (const entry of order) rows.push(await measure(entry, options));
      rounds.push(rows);
    }
    return {
      connections: options.connections,
      durationSeconds: options.durationSeconds,
      rounds: options.rounds,
      rows: medians(targets, rounds),
      ...(options.rounds > 1 ? { eachRound: rounds } : {}),
    };
  } finally {
    for (const close of closers) await close();
    await rm(dir, { recursive: true, force: true });
  }
}

function printTable(result) {
  const [direct, bare] = result.rows;
  const medianOf = result.rounds > 1 ? `, medians of ${result.rounds} rounds` : '';
  console.log(
    `Activity proxy host vs direct and vs a bare node:http proxy; ${result.connections} connections, ` +
      `${result.durationSeconds} s per row${medianOf}`,
  );
  console.log('');
  console.log(
    '| target | requests/s | p50 ms | p99 ms | CPU µs/req | vs direct | vs bare proxy | CPU vs bare proxy |',
  );
  console.log(
    '| ------ | ---------: | -----: | -----: | ---------: | --------: | ------------: | ----------------: |',
  );
  for (const row of result.rows) {
    const ratio = (base) => (row.requestsPerSecond / base.requestsPerSecond).toFixed(2);
    const cpu = row.serverCpuMicrosPerRequest;
    console.log(
      `| ${row.name} | ${Math.round(row.requestsPerSecond)} | ${row.p50Ms.toFixed(2)} | ` +
        `${row.p99Ms.toFixed(2)} | ${cpu.toFixed(1)} | ${ratio(direct)} | ${ratio(bare)} | ` +
        `${(cpu / bare.serverCpuMicrosPerRequest).toFixed(2)} |`,
    );
  }
}

async function main() {
  const { options, exitCode } = readOptions(parseOptions, USAGE);
  if (options === null) return exitCode;
  const result = await run(options);
  if (options.json) console.log(JSON.stringify(result, null, 2));
  else printTable(result);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
