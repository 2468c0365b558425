import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { createPostgresStorage } from '../../src/storage/postgres/index.js';
import { createSqliteStorage } from '../../src/storage/sqlite/index.js';
import type { Storage } from '../../src/storage/index.js';

/** A database that a test and its child processes open by the same description. */
export type StorageTarget =
  | { dialect: 'sqlite'; filename: string }
  | { dialect: 'postgres'; connectionString: string; schema: string };

/** The command-line form of a target, for a child process. */
export function targetArgs(target: StorageTarget): string[] {
  return target.dialect === 'sqlite'
    ? ['sqlite', target.filename]
    : ['postgres', target.connectionString, target.schema];
}

/** Reads back {@link targetArgs}. */
export function parseTargetArgs(args: readonly string[]): StorageTarget {
  const [dialect, first, second] = args;
  if (dialect === 'sqlite' && first !== undefined) return { dialect, filename: first };
  if (dialect === 'postgres' && first !== undefined && second !== undefined) {
    return { dialect, connectionString: first, schema: second };
  }
  throw new TypeError(
    `expected "sqlite <file>" or "postgres <url> <schema>", got: ${args.join(' ')}`,
  );
}

/**
 * Opens the target through its driver, applying migrations as the server does at start, with
 * `maxConnections` PostgreSQL connections (2 unless given).
 */
export function openTarget(
  target: StorageTarget,
  { maxConnections = 2 }: { maxConnections?: number } = {},
): Promise<Storage> {
  return target.dialect === 'sqlite'
    ? Promise.resolve(createSqliteStorage({ filename: target.filename }))
    : createPostgresStorage({
        connectionString: target.connectionString,
        schema: target.schema,
        maxConnections,
      });
}

/**
 * Runs one read-only SQL statement on its own connection, beside the driver, for what the
 * repositories cannot answer (row counts, the migrations table). Write SQL both dialects accept.
 */
export async function queryTarget<TRow>(target: StorageTarget, statement: string): Promise<TRow[]> {
  if (target.dialect === 'sqlite') {
    const db = new SqliteDatabase(target.filename, { readonly: true, fileMustExist: true });
    try {
      return db.prepare(statement).all() as TRow[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({
    connectionString: target.connectionString,
    options: `-c search_path="${target.schema}"`,
  });
  await client.connect();
  try {
    return (await client.query(statement)).rows as TRow[];
  } finally {
    await client.end();
  }
}

/** Makes a child script fail loudly: any stray error goes to stderr and the exit code is 1. */
export function exitOnUnhandledErrors(): void {
  const die = (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  };
  process.on('uncaughtException', die);
  process.on('unhandledRejection', die);
}
