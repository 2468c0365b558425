/**
 * The outage table of docs/operations.md (Outages): runs the outage drill of the test suite,
 * packages/server/test/chaos.test.ts (two API and two gateway processes of the built CLI on a
 * PostgreSQL, a NATS and a Redis of its own; a writer posting 20 messages a second through both
 * API nodes and retrying a write elsewhere until acknowledged; two bots that heartbeat, RESUME on
 * a close and IDENTIFY on INVALID_SESSION), --rounds times, and prints per fault: how long until
 * every node answered /readyz again, what the writes met, and what the bots missed. A round whose
 * drill fails (a write lost, an event missed) fails the bench.
 */
import { spawn } from 'node:child_process';
import console from 'node:console';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { integerReader, readOptions } from './support/options.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const DRILL = 'packages/server/test/chaos.test.ts';

const USAGE = `Usage: node bench/outages.js [--rounds n] [--json]   (after npx tsc -b)

Runs the outage drill (${DRILL}) --rounds times (default 3), each on fresh
servers and processes, and prints the outage table: per fault, the median time until every node
was ready again (and the range), the write attempts that failed and were retried (all rounds),
the acknowledged writes, and the acknowledged messages the bots never heard (must be 0).`;

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      rounds: { type: 'string', default: '3' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  return {
    help: values.help,
    json: values.json,
    rounds: integerReader(values)('rounds', [1, 50]),
  };
}

/** Runs the drill once; resolves to its report, or rejects with the test's output. */
async function drill(reportFile) {
  const child = spawn(process.execPath, [VITEST, 'run', DRILL, '--maxWorkers=1'], {
    cwd: ROOT,
    env: { ...process.env, GUILDHALL_OUTAGE_REPORT: reportFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the drill failed (exit ${code}):\n${output}`);
  return JSON.parse(await readFile(reportFile, 'utf8'));
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};
const seconds = (ms) => (ms / 1000).toFixed(1);

/** The writes cell: what failed and was retried, or that nothing did. */
function writesCell(rows) {
  const failures = {};
  for (const row of rows) {
    for (const [kind, count] of Object.entries(row.writeFailures)) {
      failures[kind] = (failures[kind] ?? 0) + count;
    }
  }
  const acknowledged = rows.reduce((sum, row) => sum + row.writes, 0);
  const kinds = Object.entries(failures)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, count]) => `${count} × ${kind}`);
  const failed = kinds.length === 0 ? 'no error' : `${kinds.join(', ')}, retried`;
  return `${failed}; ${acknowledged} acknowledged, all stored`;
}

async function main() {
  const { options, exitCode } = readOptions(parseOptions, USAGE);
  if (options === null) return exitCode;
  const dir = await mkdtemp(join(os.tmpdir(), 'guildhall-outages-'));
  const rounds = [];
  try {
    for (let round = 0; round < options.rounds; round++) {
      rounds.push(await drill(join(dir, `round-${round}.json`)));
      if (!options.json) console.error(`round ${round + 1} of ${options.rounds} done`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (options.json) {
    console.log(JSON.stringify(rounds, null, 2));
    return 0;
  }
  console.log(
    `${options.rounds} rounds, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`,
  );
  console.log('| fault | nodes ready again | writes | events the bots missed |');
  console.log('| --- | --- | --- | --- |');
  for (const [i, first] of rounds[0].entries()) {
    const rows = rounds.map((report) => report[i]);
    const ready = rows.map((row) => row.readyAgainMs);
    const missed = rows.reduce((sum, row) => sum + row.missed.reduce((a, b) => a + b, 0), 0);
    const resumes = rows.reduce((sum, row) => sum + row.resumes.reduce((a, b) => a + b, 0), 0);
    const invalid = rows.reduce(
      (sum, row) => sum + row.invalidations.reduce((a, b) => a + b, 0),
      0,
    );
    const reconnects = rows.flatMap((row) => row.reconnectMs);
    const back = reconnects.length === 0 ? '' : ` in ${seconds(Math.max(...reconnects))} s at most`;
    const told =
      resumes + invalid === 0
        ? 'nothing said'
        : `${resumes} RESUMED${back}, ${invalid} INVALID_SESSION`;
    console.log(
      `| ${first.fault} | ${seconds(median(ready))} s (${seconds(Math.min(...ready))}–${seconds(Math.max(...ready))}) | ${writesCell(rows)} | ${missed} (${told}) |`,
    );
  }
  return 0;
}

process.exitCode = await main();
