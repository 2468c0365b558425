import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDeclaredSchema, type DeclaredSchema } from '../../test/support/declaredSchema.js';
import {
  TEST_DATABASE_URL,
  dropSchema,
  postgresAvailable,
  uniqueSchema,
} from '../../test/support/postgres.js';
import {
  introspectPostgres,
  introspectSqlite,
  type IntrospectedSchema,
} from '../../test/support/schemaIntrospection.js';
import { createPostgresStorage } from './postgres/index.js';
import { migratedSqliteTemplate } from './sqlite/index.js';

/*
 * Each table is written three times: the SQLite migrations, the PostgreSQL migrations and the
 * Kysely types of sql/schema.ts. This migrates a fresh database on each driver, reads back what
 * they hold and compares the three, so that none can drift from the others.
 */

/**
 * Deliberate differences between the dialects, each line as {@link schemaDifferences} prints it,
 * with the reason. An entry that no longer occurs fails the test, so the list stays current.
 */
const DIALECT_DIFFERENCES: Record<string, string> = {
  // Migration 0011: SQLite keeps the search index in an FTS5 virtual table (introspectSqlite lists
  // it apart from the ordinary tables); PostgreSQL keeps a tsvector per message in a table.
  'table message_search: only in postgres': 'full-text search: FTS5 or a tsvector table',
};

/** Deliberate differences between schema.ts and a database, as {@link declaredDifferences} prints them. */
const UNDECLARED: Record<string, string> = {
  // Not one table in both dialects (above), so messageSearch.ts reaches it in each one's own SQL.
  'table message_search: in postgres, not in schema.ts': 'the search index differs per dialect',
};

/** SQLite's virtual tables, expected: the FTS5 index of message search. */
const SQLITE_VIRTUAL_TABLES = ['message_search'];

/** Keys of `a` missing from `b`. */
const missing = (a: object, b: object) => Object.keys(a).filter((key) => !(key in b));

/** Every difference between two introspected schemas, one line each, sorted. */
function schemaDifferences(
  left: IntrospectedSchema,
  right: IntrospectedSchema,
  [leftName, rightName]: [string, string],
): string[] {
  const differences: string[] = [];
  /** Notes the keys only one side has; returns the keys both have. */
  const sides = (a: object, b: object, label: (key: string) => string) => {
    for (const key of missing(a, b)) differences.push(`${label(key)}: only in ${leftName}`);
    for (const key of missing(b, a)) differences.push(`${label(key)}: only in ${rightName}`);
    return Object.keys(a).filter((key) => key in b);
  };
  for (const name of sides(left, right, (key) => `table ${key}`)) {
    const [l, r] = [left[name], right[name]];
    if (l === undefined || r === undefined) continue;
    for (const column of sides(l.columns, r.columns, (key) => `column ${name}.${key}`)) {
      const [lc, rc] = [l.columns[column], r.columns[column]];
      if (lc?.type !== rc?.type) {
        differences.push(`column ${name}.${column}: type ${lc?.type} vs ${rc?.type}`);
      }
      if (lc?.nullable !== rc?.nullable) {
        differences.push(`column ${name}.${column}: nullable ${lc?.nullable} vs ${rc?.nullable}`);
      }
      if (lc?.defaulted !== rc?.defaulted) {
        differences.push(`column ${name}.${column}: default ${lc?.defaulted} vs ${rc?.defaulted}`);
      }
    }
    const [lk, rk] = [l.primaryKey.join(), r.primaryKey.join()];
    if (lk !== rk) differences.push(`table ${name}: primary key (${lk}) vs (${rk})`);
    for (const index of sides(l.indexes, r.indexes, (key) => `index ${name}.${key}`)) {
      const [li, ri] = [JSON.stringify(l.indexes[index]), JSON.stringify(r.indexes[index])];
      if (li !== ri) differences.push(`index ${name}.${index}: ${li} vs ${ri}`);
    }
  }
  return differences.sort();
}

/** Tables, columns and nullability that schema.ts and a database disagree on, one line each. */
function declaredDifferences(declared: DeclaredSchema, actual: IntrospectedSchema, name: string) {
  const differences: string[] = [];
  for (const table of missing(declared, actual)) {
    differences.push(`table ${table}: in schema.ts, not in ${name}`);
  }
  for (const table of missing(actual, declared)) {
    differences.push(`table ${table}: in ${name}, not in schema.ts`);
  }
  for (const [table, columns] of Object.entries(declared)) {
    const held = actual[table]?.columns;
    if (held === undefined) continue;
    for (const column of missing(columns, held)) {
      differences.push(`column ${table}.${column}: in schema.ts, not in ${name}`);
    }
    for (const column of missing(held, columns)) {
      differences.push(`column ${table}.${column}: in ${name}, not in schema.ts`);
    }
    for (const [column, { nullable }] of Object.entries(columns)) {
      const actualNullable = held[column]?.nullable;
      if (actualNullable === undefined || actualNullable === nullable) continue;
      differences.push(
        `column ${table}.${column}: nullable in schema.ts ${nullable}, in ${name} ${actualNullable}`,
      );
    }
  }
  return differences.sort();
}

/** Fails on a difference that `allowed` does not list, and on an entry of it that did not occur. */
function expectOnly(differences: string[], allowed: Record<string, string>): void {
  expect(differences.filter((line) => !(line in allowed))).toEqual([]);
  expect(missing(allowed, Object.fromEntries(differences.map((line) => [line, true])))).toEqual([]);
}

describe.skipIf(!postgresAvailable)('one schema on both drivers and in schema.ts', () => {
  const pgSchema = uniqueSchema('parity');
  let sqlite: ReturnType<typeof introspectSqlite>;
  let postgres: IntrospectedSchema;
  let declared: DeclaredSchema;

  beforeAll(async () => {
    const db = new SqliteDatabase(migratedSqliteTemplate());
    try {
      sqlite = introspectSqlite(db);
    } finally {
      db.close();
    }
    const storage = await createPostgresStorage({
      connectionString: TEST_DATABASE_URL,
      schema: pgSchema,
      maxConnections: 2,
    });
    await storage.close();
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      postgres = await introspectPostgres(client, pgSchema);
    } finally {
      await client.end();
    }
    declared = readDeclaredSchema();
  }, 60_000);
  afterAll(() => dropSchema(pgSchema));

  it('the migrations make the same tables, columns, types, defaults, keys and indexes', () => {
    expect(Object.keys(sqlite.schema).length).toBeGreaterThan(50);
    expect(sqlite.virtualTables).toEqual(SQLITE_VIRTUAL_TABLES);
    expectOnly(
      schemaDifferences(sqlite.schema, postgres, ['sqlite', 'postgres']),
      DIALECT_DIFFERENCES,
    );
  });

  it('schema.ts declares every table and column of both, as nullable as they are', () => {
    expect(declaredDifferences(declared, sqlite.schema, 'sqlite')).toEqual([]);
    expectOnly(declaredDifferences(declared, postgres, 'postgres'), UNDECLARED);
  });
});
