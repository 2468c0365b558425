/** Thrown by repositories when a write would break a uniqueness rule. */
export class StorageConflictError extends Error {
  override readonly name = 'StorageConflictError';
}

/** Recognises a unique or primary-key violation from either driver. */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}
