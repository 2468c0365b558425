/**
 * The activity proxy host (docs/activities.md) against the target it forwards to: the same GET
 * asked of a bare Fastify server directly, and through Guildhall's proxy on an activity origin
 * (`/<path>` and `/.proxy/<path>`), measured one after the other in the same run. The target and
 * Guildhall each run in their own child process (support/bareServer.js, support/guildhallServer.js)
 * with `npm start`'s settings, the local-development switch for loopback targets on. See
 * docs/benchmarks.md.
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

const USAGE = `Usage: node bench/activityProxy.js [options]   (npm run bench:activity-proxy builds first)

A bare Fastify target answers GET /api/v10/users/@me with a small JSON body. The bench
application's activity maps "/" to that target; the same GET is then asked:
  direct        of the target itself
  proxied       of Guildhall at http://<app id>.activities.localhost:<port>/api/v10/users/@me
  proxied .proxy  the same under /.proxy/
Columns: requests/s, p50 and p99 latency, and the proxied figures as a ratio to direct.

Guildhall runs with the settings \`npm start\` gives it (SQLite on disk, logs at info: one line per
proxied request), with --activity-allow-loopback on (GUILDHALL_ACTIVITY_ALLOW_LOOPBACK) so the
loopback target is allowed.

Options:
  --duration <s>     seconds measured per target (default 10)
  --warmup <s>       seconds of load before each target, not counted (default 2)
  --connections <n>  concurrent keep-alive connections (default 50)
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
    dataDir: values['data-dir'],
  };
}

async function run(options) {
  const dir = await mkdtemp(join(options.dataDir, 'guildhall-bench-proxy-'));
  const target = await startServer('bareServer.js', [JSON.stringify(BODY)]);
  const closers = [() => target.stop()];
  try {
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
    const targetHost = new URL(target.apiUrl).host;
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
    const guildhallUrl = new URL(guildhall.apiUrl);
    const activityHost = new URL(origin).host;
    const viaProxy = (path) => ({
      url: `http://${guildhallUrl.host}${path}`,
      headers: { host: activityHost },
    });
    const targets = [
      { name: 'direct', request: { url: `${target.apiUrl}/users/@me` } },
      { name: 'proxied', request: viaProxy('/api/v10/users/@me') },
      { name: 'proxied .proxy', request: viaProxy('/.proxy/api/v10/users/@me') },
    ];
    const rows = [];
    for (const { name, request } of targets) {
      if (!options.json) process.stderr.write(`${name}…\n`);
      if (options.warmupSeconds > 0) {
        const warm = await load(request, { ...options, durationSeconds: options.warmupSeconds })
          .done;
        checkResponses(`${name} warm-up`, warm.result);
      }
      const { result, latencyUs } = await load(request, options).done;
      checkResponses(name, result);
      rows.push({
        name,
        requestsPerSecond: result.requests.average,
        p50Ms: latencyUs.percentile(50) / 1000,
        p99Ms: latencyUs.percentile(99) / 1000,
      });
    }
    return { connections: options.connections, durationSeconds: options.durationSeconds, rows };
  } finally {
    for (const close of closers) await close();
    await rm(dir, { recursive: true, force: true });
  }
}

function printTable(result) {
  const [direct] = result.rows;
  console.log(
    `Activity proxy host vs direct; ${result.connections} connections, ${result.durationSeconds} s per row`,
  );
  console.log('');
  console.log('| target | requests/s | p50 ms | p99 ms | requests/s vs direct | p99 vs direct |');
  console.log('| ------ | ---------: | -----: | -----: | -------------------: | ------------: |');
  for (const row of result.rows) {
    console.log(
      `| ${row.name} | ${Math.round(row.requestsPerSecond)} | ${row.p50Ms.toFixed(2)} | ${row.p99Ms.toFixed(2)} | ` +
        `${(row.requestsPerSecond / direct.requestsPerSecond).toFixed(2)} | ${(row.p99Ms / direct.p99Ms).toFixed(2)} |`,
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
