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

/**
 * A group commit member that ran longer than its time limit: it is rolled back, and its
 * repositories refuse further calls. Members must only use the repositories they are given.
 */
export class GroupCommitTimeoutError extends Error {
  override readonly name = 'GroupCommitTimeoutError';
  constructor() {
    super('a group commit member ran past its time limit or used its repositories after it');
  }
}
