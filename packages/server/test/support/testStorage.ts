/**
 * The storage fixture of repository and contract tests (route tests use testServer.ts): a fresh
 * database on one driver, and how to open it again and to dispose of it.
 *
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresStorage } from '../../src/storage/postgres/index.js';
import { createSqliteStorage, migratedSqliteTemplate } from '../../src/storage/sqlite/index.js';
import type { Storage } from '../../src/storage/index.js';
import type { GroupCommitOptions } from '../../src/storage/sql/groupCommit.js';
import type { Driver } from './drivers.js';
import { TEST_DATABASE_URL, acquireSchema, releaseSchema } from './postgres.js';

let template: Buffer | undefined;

/**
 * A SQLite database with every migration applied, made once per worker: test databases in
 * memory start as copies of it instead of migrating (test/migrations.test.ts migrates for real).
 */
export function sqliteTemplate(): Buffer {
  template ??= migratedSqliteTemplate();
  return template;
}

export interface TestStorage {
  storage: Storage;
  /** Another storage on the same database (a second node); only when opened `reopenable`. */
  another(): Promise<Storage>;
  /** Closes every storage opened on the database, then removes it. */
  dispose(): Promise<void>;
}

/**
 * Opens a fresh database on `driver`: SQLite in memory (in a file of a temporary folder when
 * `reopenable`, so `another()` sees it, named after `prefix`), or an empty migrated PostgreSQL
 * schema of the worker's (postgres.ts, acquireSchema).
 */
export async function openTestStorage(
  driver: Driver,
  options: {
    prefix: string;
    reopenable?: boolean;
    /** Group commit limits over the driver's defaults. */
    groupCommit?: Partial<GroupCommitOptions> | undefined;
  },
): Promise<TestStorage> {
  const groupCommit = options.groupCommit === undefined ? {} : { groupCommit: options.groupCommit };
  const opened: Storage[] = [];
  const closeAll = async () => {
    for (const storage of opened.splice(0)) await storage.close();
  };
  if (driver === 'postgres') {
    const schema = acquireSchema();
    const connect = async () => {
      const storage = await createPostgresStorage({
        connectionString: TEST_DATABASE_URL,
        schema,
        ...groupCommit,
      });
      opened.push(storage);
      return storage;
    };
    return {
      storage: await connect(),
      another: connect,
      async dispose() {
        await closeAll();
        await releaseSchema(schema);
      },
    };
  }
  if (options.reopenable !== true) {
    const storage = createSqliteStorage({
      filename: ':memory:',
      template: sqliteTemplate(),
      ...groupCommit,
    });
    opened.push(storage);
    return {
      storage,
      another: () => Promise.reject(new Error('opened without reopenable: an in-memory database')),
      dispose: closeAll,
    };
  }
  const dir = await mkdtemp(join(tmpdir(), `guildhall-${options.prefix}-`));
  const filename = join(dir, 'db.sqlite');
  const connect = () => {
    const storage = createSqliteStorage({ filename, ...groupCommit });
    opened.push(storage);
    return Promise.resolve(storage);
  };
  return {
    storage: await connect(),
    another: connect,
    async dispose() {
      await closeAll();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
