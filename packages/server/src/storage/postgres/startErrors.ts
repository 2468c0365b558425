/**
 * What went wrong when PostgreSQL could not be opened at start, as one line an operator can act
 * on (the CLI prints it instead of a stack trace: docs/operations.md).
 */

/** Where a `postgres://` URL points, fit to print: host, port and database, no user or password. */
export function describePostgresUrl(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
    return `${url.hostname || 'localhost'}:${url.port || '5432'}${database === '' ? '' : `/${database}`}`;
  } catch {
    return '[unparsable URL]';
  }
}

/** Errors whose `code` says the server could not be reached at all. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
]);

function codeOf(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // Node reports a host with several addresses (IPv4 and IPv6) as an AggregateError.
  if (err instanceof AggregateError) return err.errors.map(codeOf).find((c) => c !== undefined);
  return undefined;
}

/**
 * The line for a failure to open PostgreSQL at `connectionString`, or null when `err` is not
 * one of the failures an operator fixes outside Guildhall (unreachable, no such database, login
 * refused, a connection timeout).
 */
export function describePostgresStartError(err: unknown, connectionString: string): string | null {
  const where = `PostgreSQL at ${describePostgresUrl(connectionString)}`;
  const code = codeOf(err);
  const message = err instanceof Error ? err.message : String(err);
  const fix = 'correct DATABASE_URL (--database-url), or unset it to use SQLite in the data folder';
  if (code !== undefined && UNREACHABLE.has(code)) {
    return `${where} cannot be reached (${code}). Start PostgreSQL there or ${fix}; then start again.`;
  }
  if (/timeout/i.test(message) && /connect/i.test(message)) {
    return `${where} did not answer in time. Check that it is up and reachable, or ${fix}; then start again.`;
  }
  if (code === '3D000') {
    const url = new URL(connectionString);
    const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
    return `${where}: ${message}. Create it (createdb -h ${url.hostname || 'localhost'} -p ${url.port || '5432'} ${name}) or ${fix}; then start again.`;
  }
  // 28P01: wrong password; 28000: no such role or refused by pg_hba.conf.
  if (code === '28P01' || code === '28000' || /user name/i.test(message)) {
    return `${where} refused the login: ${message}. Put the right user and password in DATABASE_URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE); then start again.`;
  }
  return null;
}
