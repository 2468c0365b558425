/**
 * What starting Guildhall costs, against a bare baseline in the same run: importing
 * `@guildhall/server` in a fresh process, its first in-process start (SQLite in memory, ready to
 * serve: createApp and listen), warm starts after it, loading the demo world, returning to it
 * (`app.worlds.reset()`), and `guildhall start` on a data folder it has started on before (from
 * spawn to the banner), as the `guildhall` bin (the bundle) and from dist/main.js. The bare
 * baseline imports Fastify and better-sqlite3 and starts a server with one route over a database
 * in memory; `node -e` is the CLI's. Medians of `--rounds` fresh
 * processes (warm starts and resets: medians within each, then across).
 *
 *   npm run build && node bench/startup.js [--rounds 5] [--warm 10] [--resets 20]
 */
import { spawn } from 'node:child_process';
import console from 'node:console';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { integerReader, readOptions } from './support/options.js';

const USAGE = 'Usage: node bench/startup.js [--rounds N] [--warm N] [--resets N]';
const CHILD = fileURLToPath(import.meta.resolve('./support/startupChild.js'));
/** The `guildhall` bin (the bundle), and the same program as tsc compiled it, module by module. */
const MAIN = fileURLToPath(import.meta.resolve('../packages/server/bundle/guildhall.js'));
const UNBUNDLED = fileURLToPath(import.meta.resolve('../packages/server/dist/main.js'));

const { options, exitCode } = readOptions((argv) => {
  const { values } = parseArgs({
    args: argv,
    options: {
      rounds: { type: 'string', default: '5' },
      warm: { type: 'string', default: '10' },
      resets: { type: 'string', default: '20' },
      help: { type: 'boolean', default: false },
    },
  });
  const int = integerReader(values);
  return {
    help: values.help,
    rounds: int('rounds', [1, 100]),
    warm: int('warm', [1, 1000]),
    resets: int('resets', [1, 10_000]),
  };
}, USAGE);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
};

/** Runs a child to its end; resolves to its stdout. */
function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} exited ${code}`)),
    );
  });
}

/** Milliseconds from spawning `args` to `marker` on its stdout; then SIGTERM and wait. */
function timeToMarker(args, marker) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    let ms = null;
    child.stdout.on('data', (d) => {
      out += d;
      if (ms === null && out.includes(marker)) {
        ms = performance.now() - started;
        child.kill('SIGTERM');
      }
    });
    child.once('exit', () =>
      ms === null ? reject(new Error(`no "${marker}": ${out}`)) : resolve(ms),
    );
  });
}

async function main() {
  const dataDir = await mkdtemp(join(process.env.BENCH_TMP ?? tmpdir(), 'guildhall-startup-'));
  const rows = { guildhall: [], bare: [] };
  try {
    for (let round = 0; round < options.rounds; round += 1) {
      for (const mode of ['bare', 'guildhall']) {
        const args = [CHILD, mode, String(options.warm), String(options.resets), dataDir];
        rows[mode].push(JSON.parse(await run(args)));
      }
    }
    // `guildhall start` on a data folder it has started on: the first start makes it.
    const cliDir = join(dataDir, 'cli');
    const cli = ['start', '--port', '0', '--voice-port', '0', '--data-dir', cliDir];
    await timeToMarker([MAIN, ...cli], 'Guildhall is running');
    const cliTimes = [];
    const unbundledTimes = [];
    const nodeTimes = [];
    for (let round = 0; round < options.rounds; round += 1) {
      cliTimes.push(await timeToMarker([MAIN, ...cli], 'Guildhall is running'));
      unbundledTimes.push(await timeToMarker([UNBUNDLED, ...cli], 'Guildhall is running'));
      nodeTimes.push(await timeToMarker(['-e', 'console.log("ready")'], 'ready'));
    }
    const of = (mode, pick) => median(rows[mode].map(pick));
    const line = (step, ms, bare) => ({
      step,
      ms: Number(ms.toFixed(1)),
      bare: bare === null ? '' : Number(bare.toFixed(1)),
      ratio: bare === null ? '' : Number((ms / bare).toFixed(1)),
    });
    console.table([
      line(
        'import',
        of('guildhall', (r) => r.imported),
        of('bare', (r) => r.imported),
      ),
      line(
        'first start, ready',
        of('guildhall', (r) => r.first),
        of('bare', (r) => r.first),
      ),
      line(
        'warm start, ready',
        of('guildhall', (r) => median(r.warm)),
        of('bare', (r) => median(r.warm)),
      ),
      line(
        'load the demo world',
        of('guildhall', (r) => r.load),
        null,
      ),
      line(
        'reset to the world',
        of('guildhall', (r) => median(r.resets)),
        null,
      ),
      line('guildhall start (existing folder)', median(cliTimes), median(nodeTimes)),
      line('  the same from dist/main.js', median(unbundledTimes), median(nodeTimes)),
    ]);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (options !== null) await main();
process.exitCode = exitCode;
