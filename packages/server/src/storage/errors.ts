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

/** The network failures of a connection to the database server. */
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * SQLSTATEs of a server that is going away, starting up or full: admin_shutdown,
 * crash_shutdown, cannot_connect_now, too_many_connections (class 08, connection exceptions,
 * is matched as a class).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** What pg says of a connection that dropped or never came, without a code. */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
];

/**
 * Whether `err` (or an error it was caused by) says the database server cannot be reached now
 * (refused, dropped, shutting down, starting up), rather than refusing the statement. The
 * statement did not take effect, unless it was a COMMIT cut off on its way back.
 */
export function isStorageUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (NETWORK_ERROR_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)) return true;
      if (/^08[0-9A-Z]{3}$/.test(code)) return true;
    }
    if (UNAVAILABLE_MESSAGES.some((message) => e instanceof Error && e.message.startsWith(message)))
      return true;
  }
  return false;
}
