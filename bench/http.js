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
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';
import { SERVER_START_TIMEOUT_MS } from './support/childServer.js';
import {
  formatCpuProfileSummary,
  latestProfile,
  summarizeCpuProfile,
} from './support/cpuProfile.js';
import { DEFAULT_POSTGRES_URL, RAISED_GLOBAL_LIMIT, parseOptions } from './support/httpOptions.js';
import { formatReport, reportOf } from './support/httpReport.js';
import { guildhallStarter, messagesScenario, usersScenario } from './support/httpScenarios.js';

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

  const startGuildhall = guildhallStarter({ options, dataDir, servers, profileRoot, profileDirs });
  const context = { options, dataDir, servers, running, startGuildhall };

  const run = async () => {
    const scenarios = [];
    if (options.scenarios.includes('users')) scenarios.push(await usersScenario(context));
    if (withMessages) scenarios.push(await messagesScenario(context));
    return reportOf({ argv, options, withPostgres, scenarios });
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
