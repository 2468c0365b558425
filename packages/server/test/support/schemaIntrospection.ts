/**
 * Reads back the tables a migrated database holds, on either driver, in one shape that the two
 * dialects can be compared in (src/storage/schemaParity.test.ts): column types in a shared
 * vocabulary, indexes by their columns.
 *
 * @module
 */
import type SqliteDatabase from 'better-sqlite3';
import type pg from 'pg';
import { MIGRATIONS_TABLE } from '../../src/storage/migrations.js';

/** A column as both dialects can describe it. */
export interface IntrospectedColumn {
  /** The type in the shared vocabulary of {@link normalizeType}. */
  type: string;
  /** Whether the column accepts NULL (a primary key column never does, on either driver). */
  nullable: boolean;
  /** Whether it has a DEFAULT (the expressions are written differently by each dialect). */
  defaulted: boolean;
}

/** An index as both dialects can describe it (primary keys are {@link IntrospectedTable.primaryKey}). */
export interface IntrospectedIndex {
  unique: boolean;
  /** The indexed columns in order; an expression is `<expr>`. */
  columns: string[];
  /** Whether it covers only the rows of a WHERE clause. */
  partial: boolean;
}

export interface IntrospectedTable {
  columns: Record<string, IntrospectedColumn>;
  primaryKey: string[];
  /**
   * Indexes by name. A UNIQUE constraint's index is named by the database (SQLite
   * `sqlite_autoindex_…`, PostgreSQL `…_key`), so it is keyed `unique(<columns>)` instead.
   */
  indexes: Record<string, IntrospectedIndex>;
}

/** A database's tables by name, the migrations' own table left out. */
export type IntrospectedSchema = Record<string, IntrospectedTable>;

/**
 * The shared type vocabulary, from what the migrations declare: SQLite INTEGER and PostgreSQL
 * INTEGER or BIGINT are `int` (both hold ids and millisecond times as 64-bit on SQLite; booleans
 * are 0/1 integers on both), TEXT is `text` (JSON is kept as text on both), REAL and DOUBLE
 * PRECISION are `real`, BLOB and BYTEA are `bytes`. Anything else keeps its own name, so a new
 * type shows up as a difference until it is added here.
 */
export function normalizeType(declared: string): string {
  const type = declared.trim().toLowerCase();
  if (['integer', 'bigint', 'smallint', 'int'].includes(type)) return 'int';
  if (type === 'text' || type.startsWith('character varying') || type.startsWith('varchar')) {
    return 'text';
  }
  if (['real', 'double precision', 'double'].includes(type)) return 'real';
  if (type === 'blob' || type === 'bytea') return 'bytes';
  return type;
}

/** The key an index is compared under (see {@link IntrospectedTable.indexes}). */
function indexKey(name: string, index: IntrospectedIndex, constraint: boolean): string {
  return constraint ? `unique(${index.columns.join(',')})` : name;
}

interface SqliteTableListRow {
  name: string;
  type: string;
  schema: string;
}
interface SqliteColumnRow {
  name: string;
  type: string;
  notnull: number | bigint;
  dflt_value: string | null;
  pk: number | bigint;
}
interface SqliteIndexRow {
  name: string;
  unique: number | bigint;
  origin: string;
  partial: number | bigint;
}
interface SqliteIndexColumnRow {
  seqno: number | bigint;
  name: string | null;
}

/**
 * A SQLite database's ordinary tables (`pragma table_list`: FTS5 virtual tables and their shadow
 * tables are left out, as SQLite-only machinery; the test lists the one it expects).
 */
export function introspectSqlite(db: SqliteDatabase.Database): {
  schema: IntrospectedSchema;
  virtualTables: string[];
} {
  const list = db.prepare('PRAGMA table_list').all() as SqliteTableListRow[];
  const main = list.filter((row) => row.schema === 'main' && !row.name.startsWith('sqlite_'));
  const schema: IntrospectedSchema = {};
  for (const { name } of main.filter((row) => row.type === 'table')) {
    if (name === MIGRATIONS_TABLE) continue;
    const columnRows = db.prepare(`PRAGMA table_info("${name}")`).all() as SqliteColumnRow[];
    const columns: Record<string, IntrospectedColumn> = {};
    for (const column of columnRows) {
      columns[column.name] = {
        type: normalizeType(column.type),
        nullable: Number(column.notnull) === 0 && Number(column.pk) === 0,
        defaulted: column.dflt_value !== null,
      };
    }
    const primaryKey = columnRows
      .filter((column) => Number(column.pk) > 0)
      .sort((a, b) => Number(a.pk) - Number(b.pk))
      .map((column) => column.name);
    const indexes: Record<string, IntrospectedIndex> = {};
    for (const row of db.prepare(`PRAGMA index_list("${name}")`).all() as SqliteIndexRow[]) {
      if (row.origin === 'pk') continue;
      const info = db.prepare(`PRAGMA index_info("${row.name}")`).all() as SqliteIndexColumnRow[];
      const index: IntrospectedIndex = {
        unique: Number(row.unique) === 1,
        columns: info
          .sort((a, b) => Number(a.seqno) - Number(b.seqno))
          .map((column) => column.name ?? '<expr>'),
        partial: Number(row.partial) === 1,
      };
      indexes[indexKey(row.name, index, row.origin === 'u')] = index;
    }
    schema[name] = { columns, primaryKey, indexes };
  }
  const virtualTables = main.filter((row) => row.type === 'virtual').map((row) => row.name);
  return { schema, virtualTables };
}

interface PgColumnRow {
  table_name: string;
  column_name: string;
  data_type: string;
  is_nullable: 'YES' | 'NO';
  column_default: string | null;
}
interface PgIndexRow {
  table_name: string;
  index_name: string;
  unique: boolean;
  primary: boolean;
  constraint: boolean;
  partial: boolean;
  columns: (string | null)[];
}

/** A PostgreSQL schema's tables (`information_schema` for columns, `pg_index` for indexes). */
export async function introspectPostgres(
  client: pg.Client,
  schemaName: string,
): Promise<IntrospectedSchema> {
  const schema: IntrospectedSchema = {};
  const table = (name: string) => (schema[name] ??= { columns: {}, primaryKey: [], indexes: {} });
  const columns = await client.query<PgColumnRow>(
    `SELECT c.table_name, c.column_name, c.data_type, c.is_nullable, c.column_default
       FROM information_schema.columns c
       JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE c.table_schema = $1 AND t.table_type = 'BASE TABLE' AND c.table_name <> $2
      ORDER BY c.table_name, c.ordinal_position`,
    [schemaName, MIGRATIONS_TABLE],
  );
  for (const row of columns.rows) {
    table(row.table_name).columns[row.column_name] = {
      type: normalizeType(row.data_type),
      nullable: row.is_nullable === 'YES',
      defaulted: row.column_default !== null,
    };
  }
  const indexes = await client.query<PgIndexRow>(
    `SELECT t.relname AS table_name, i.relname AS index_name, x.indisunique AS unique,
            x.indisprimary AS primary, x.indpred IS NOT NULL AS partial,
            EXISTS (SELECT 1 FROM pg_constraint k
                     WHERE k.conindid = x.indexrelid AND k.contype = 'u') AS constraint,
            ARRAY(SELECT a.attname::text
                    FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
                    LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum
                   ORDER BY k.n) AS columns
       FROM pg_index x
       JOIN pg_class i ON i.oid = x.indexrelid
       JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace s ON s.oid = t.relnamespace
      WHERE s.nspname = $1 AND t.relname <> $2`,
    [schemaName, MIGRATIONS_TABLE],
  );
  for (const row of indexes.rows) {
    const columnNames = row.columns.map((name) => name ?? '<expr>');
    if (row.primary) {
      table(row.table_name).primaryKey = columnNames;
      continue;
    }
    const index: IntrospectedIndex = {
      unique: row.unique,
      columns: columnNames,
      partial: row.partial,
    };
    table(row.table_name).indexes[indexKey(row.index_name, index, row.constraint)] = index;
  }
  return schema;
}
