import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { StorageDialect } from './types/storage.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * The migrations folder sits beside src/ and dist/ (this file is one folder below those) and
 * beside bundle/, whose chunks sit flat in it (scripts/bundleCli.js).
 */
const MIGRATIONS_ROOT =
  [new URL('../../migrations/', import.meta.url), new URL('../migrations/', import.meta.url)].find(
    (url) => existsSync(url),
  ) ?? new URL('../../migrations/', import.meta.url);

/** The table both drivers keep their applied versions in. */
export const MIGRATIONS_TABLE = 'guildhall_migrations';

/** Reads `migrations/<dialect>/NNNN_name.sql`, in version order. */
export function loadMigrations(dialect: StorageDialect): Migration[] {
  const dir = new URL(`${dialect}/`, MIGRATIONS_ROOT);
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      sql: readFileSync(new URL(file, dir), 'utf8'),
    }));
}
