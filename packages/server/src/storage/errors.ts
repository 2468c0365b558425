/** Thrown by repositories when a write would break a uniqueness rule. */
export class StorageConflictError extends Error {
  override readonly name = 'StorageConflictError';
}

/** PostgreSQL's SQLSTATE for unique_violation. */
const PG_UNIQUE_VIOLATION = '23505';

/** Recognises a unique or primary-key violation from either driver. */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  return (
    code === PG_UNIQUE_VIOLATION ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}
