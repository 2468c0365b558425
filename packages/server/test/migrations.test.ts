import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadMigrations } from '../src/storage/migrations.js';
import type { StorageDialect } from '../src/storage/index.js';
import { collectChild, spawnSupportScript } from './support/children.js';
import { describeDrivers } from './support/drivers.js';
import { TEST_DATABASE_URL, dropSchema, uniqueSchema } from './support/postgres.js';
import {
  openTarget,
  queryTarget,
  targetArgs,
  type StorageTarget,
} from './support/storageTarget.js';

/** How long a released child may take to open, migrate, close and exit. */
const EXIT_DEADLINE_MS = 8_000;

interface MigrationRow {
  version: number;
  name: string;
  applied_at: number | string;
}

/** The migrations table as the database holds it, one row per applied version. */
async function recordedMigrations(target: StorageTarget): Promise<MigrationRow[]> {
  return queryTarget<MigrationRow>(
    target,
    'SELECT version, name, applied_at FROM guildhall_migrations ORDER BY version',
  );
}

/** What the migrations table must hold: each file's version and name, once. */
function expectedMigrations(dialect: StorageDialect) {
  return loadMigrations(dialect).map(({ version, name }) => ({ version, name }));
}

/** Starts the children, waits until each is ready, then releases them all at once. */
async function openAtOnce(target: StorageTarget, count: number) {
  const children = Array.from({ length: count }, () =>
    spawnSupportScript('openStorage', targetArgs(target)),
  );
  const results = children.map((child) => collectChild(child));
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve, reject) => {
          child.stdout.on('data', (chunk: string | Buffer) => {
            if (chunk.toString().startsWith('ready\n')) resolve();
          });
          child.once('exit', () => {
            reject(new Error('a child exited before it was ready'));
          });
        }),
    ),
  ).catch(async (err: unknown) => {
    for (const child of children) child.kill('SIGKILL');
    const printed = await Promise.all(results);
    throw new Error(`${String(err)}: ${printed.map((result) => result.stderr).join('\n')}`);
  });
  for (const child of children) child.stdin.end('go\n');
  // Opening takes well under a second; a child still alive after this left a handle open.
  const deadline = setTimeout(() => {
    for (const child of children) child.kill('SIGKILL');
  }, EXIT_DEADLINE_MS);
  try {
    return await Promise.all(results);
  } finally {
    clearTimeout(deadline);
  }
}

describe('migrations', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function sqliteTarget(): Promise<StorageTarget> {
    const dir = await mkdtemp(join(tmpdir(), 'guildhall-migrations-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    return { dialect: 'sqlite', filename: join(dir, 'guildhall.db') };
  }

  function postgresTarget(): StorageTarget {
    const schema = uniqueSchema('migrations');
    cleanups.push(() => dropSchema(schema));
    return { dialect: 'postgres', connectionString: TEST_DATABASE_URL, schema };
  }

  describeDrivers('on $driver', (dialect) => {
    const makeTarget =
      dialect === 'sqlite' ? sqliteTarget : () => Promise.resolve(postgresTarget());
    it('are applied at start, and a second start applies nothing', async () => {
      const target = await makeTarget();
      const first = await openTarget(target);
      await first.users.create({ id: '1000', username: 'before_restart', createdAt: 1 });
      await first.close();
      const applied = await recordedMigrations(target);
      expect(applied.map(({ version, name }) => ({ version, name }))).toEqual(
        expectedMigrations(dialect),
      );

      const second = await openTarget(target);
      try {
        // Nothing was re-run: the same rows with the same times, and the data is still there.
        expect(await recordedMigrations(target)).toEqual(applied);
        expect(await second.users.findById('1000')).toMatchObject({ username: 'before_restart' });
        await second.users.create({ id: '1001', username: 'after_restart', createdAt: 2 });
        expect(await second.users.findById('1001')).toMatchObject({ username: 'after_restart' });
      } finally {
        await second.close();
      }
    });

    it('are applied exactly once by two processes starting together', async () => {
      const target = await makeTarget();
      const results = await openAtOnce(target, 2);

      const expected = expectedMigrations(dialect);
      for (const result of results) {
        expect(result, `exited late or failed: ${result.stderr}`).toMatchObject({ code: 0 });
        expect(JSON.parse(result.stdout.split('\n')[1] ?? 'null')).toEqual(
          expected.map(({ version }) => version),
        );
      }
      const applied = await recordedMigrations(target);
      expect(applied.map(({ version, name }) => ({ version, name }))).toEqual(expected);
      const storage = await openTarget(target);
      try {
        await storage.users.create({ id: '1000', username: 'after_race', createdAt: 1 });
        expect(await storage.users.findById('1000')).toMatchObject({ username: 'after_race' });
      } finally {
        await storage.close();
      }
    }, 30_000);
  });
});
