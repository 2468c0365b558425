/**
 * What one test server's start costs, in-process: opening a SQLite database in memory (migrating
 * it, or copying a migrated template), createApp on it (with the ID token key made at start, or
 * one made beforehand, as test servers pass), and close. Prints the median of each in ms (the
 * first rounds, which load modules, are left out).
 *
 *   node bench/createApp.js [starts=20]
 */
import console from 'node:console';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { createApp } from '../packages/server/dist/app.js';
import { loadConfig } from '../packages/server/dist/config.js';
import { generateIdTokenKeyPair } from '../packages/server/dist/oauth/index.js';
// eslint-disable-next-line no-restricted-imports -- a benchmark picks its driver, as app.ts does
import {
  createSqliteStorage,
  migratedSqliteTemplate,
} from '../packages/server/dist/storage/sqlite/index.js';

const starts = Number(process.argv[2] ?? 20);
const WARM_UP = 3;
const times = {
  'migrate (SQLite :memory:)': [],
  'copy migrated template': [],
  'createApp, key made at start': [],
  'createApp, key given': [],
  close: [],
};
const time = async (name, fn) => {
  const started = performance.now();
  const result = await fn();
  times[name].push(performance.now() - started);
  return result;
};
const template = migratedSqliteTemplate();
const idTokenKey = await generateIdTokenKeyPair();

for (let i = 0; i < starts + WARM_UP; i += 1) {
  const dataDir = await mkdtemp(join(process.env.BENCH_TMP ?? tmpdir(), 'guildhall-start-'));
  const config = {
    ...loadConfig({}, []),
    ...{ port: 0, voicePort: 0, voiceEndpoint: '127.0.0.1:0', dataDir },
    ...{ logLevel: 'silent', demo: false },
  };
  const fresh = await time('migrate (SQLite :memory:)', () =>
    createSqliteStorage({ filename: ':memory:' }),
  );
  const copied = await time('copy migrated template', () =>
    createSqliteStorage({ filename: ':memory:', template }),
  );
  const made = await time('createApp, key made at start', () =>
    createApp(config, { overrides: { storage: fresh } }),
  );
  await time('close', () => made.close());
  const given = await time('createApp, key given', () =>
    createApp(config, { overrides: { storage: copied, idTokenKey } }),
  );
  await given.close();
  await rm(dataDir, { recursive: true, force: true });
}

const median = (values) => {
  const sorted = values.slice(WARM_UP).sort((a, b) => a - b);
  return Number(sorted[sorted.length >> 1].toFixed(1));
};
console.table(
  Object.fromEntries(Object.entries(times).map(([name, values]) => [name, { ms: median(values) }])),
);
