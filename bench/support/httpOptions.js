/**
 * bench/http.js's settings: the Guildhall configurations and --compare variants it measures, where
 * its data goes, and its command line.
 */
import { statSync, statfsSync } from 'node:fs';
import os from 'node:os';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { integerReader } from './options.js';

export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
/** The rate limits of the default configuration: high enough that no bucket is ever spent. */
export const RAISED_GLOBAL_LIMIT = 1_000_000;

const SCENARIOS = ['users', 'messages'];

/**
 * The Guildhall servers' settings (GUILDHALL_* variables over `npm start`'s defaults). A bot may
 * make 50 requests/s and 5 per 5 s on a route as shipped, so a throughput test of one bot has to
 * raise the limits; the limiter still counts every request and sends its headers.
 */
export const CONFIGURATIONS = {
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
export const VARIANTS = {
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
export function onTmpfs(dir) {
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

export function parseOptions(argv) {
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
  const integer = integerReader(values);
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
    durationSeconds: integer('duration', [1, 3600]),
    warmupSeconds: integer('warmup', [0, 600]),
    connections: integer('connections', [1, 10_000]),
    rounds: integer('rounds', [1, 100]),
  };
}
