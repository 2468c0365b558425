import SqliteDatabase from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { MIGRATIONS_TABLE, loadMigrations } from '../migrations.js';
import type { Storage } from '../types/storage.js';
import { createSqliteStorage, migratedSqliteTemplate } from './index.js';

const opened: Storage[] = [];
afterEach(async () => {
  for (const storage of opened.splice(0)) await storage.close();
});

const signingKey = (kid: string) => ({
  kid,
  alg: 'RS256',
  publicJwk: '{}',
  privateJwk: 'sealed',
  createdAt: 1,
});

it('the template has every migration applied, and copies of it are independent', async () => {
  const template = migratedSqliteTemplate();
  const raw = new SqliteDatabase(template);
  const versions = raw
    .prepare(`SELECT version FROM ${MIGRATIONS_TABLE} ORDER BY version`)
    .all()
    .map((row) => (row as { version: number }).version);
  raw.close();
  expect(versions).toEqual(loadMigrations('sqlite').map((migration) => migration.version));

  const first = createSqliteStorage({ filename: ':memory:', template });
  const second = createSqliteStorage({ filename: ':memory:', template });
  opened.push(first, second);
  await first.transaction((tx) => tx.oauth.createSigningKeyIfNone(signingKey('a')));
  expect((await first.oauth.listSigningKeys()).map((key) => key.kid)).toEqual(['a']);
  // Neither the other copy nor the template saw the write.
  expect(await second.oauth.listSigningKeys()).toEqual([]);
  const third = createSqliteStorage({ filename: ':memory:', template });
  opened.push(third);
  expect(await third.oauth.listSigningKeys()).toEqual([]);
});

it('a template is refused for a database in a file', () => {
  expect(() =>
    createSqliteStorage({ filename: '/tmp/never.sqlite', template: migratedSqliteTemplate() }),
  ).toThrow(/only for a database in memory/);
});
