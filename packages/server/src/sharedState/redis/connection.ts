import { Redis } from 'ioredis';

/** How long the first connection may take before the start fails. */
export const REDIS_CONNECT_TIMEOUT_MS = 2000;
/**
 * How long one command may take. A request waits at most this long on a slow Redis before its
 * limits are kept in the process instead (sharedState/fallback.ts).
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
/** The longest pause between two reconnection attempts after Redis went away. */
const MAX_RECONNECT_DELAY_MS = 2000;
const RECONNECT_STEP_MS = 100;

/** Redis did not answer at start: the message names the server (never its credentials). */
export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

/**
 * A Redis URL fit to print: scheme, host, port and database, without the user name or password.
 */
export function describeRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return '[unparsable URL]';
  }
}

export interface RedisConnectionOptions {
  url: string;
  /** Errors after the start (a lost connection, a failed reconnect). */
  onError: (err: Error) => void;
}

/**
 * Connects to Redis and waits until it answers a PING. Commands never queue while the
 * connection is down (they fail at once, and the caller falls back); it reconnects on its own.
 * @throws RedisUnavailableError when Redis does not answer within the connect timeout.
 */
export async function connectRedis(options: RedisConnectionOptions): Promise<Redis> {
  const client = new Redis(options.url, {
    lazyConnect: true,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    enableOfflineQueue: false,
    // Each command is written as it comes: a request sends one (its limits' script), and
    // ioredis's automatic pipelines (one in flight at a time, each waiting for the last) cost the
    // API more CPU and wait than the writes they save (docs/benchmarks.md, rate limits).
    enableAutoPipelining: false,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * RECONNECT_STEP_MS, MAX_RECONNECT_DELAY_MS),
  });
  // The connect() rejection only says the connection closed; the 'error' event says why.
  const seen: { error: Error | null } = { error: null };
  const onStartError = (err: Error) => {
    seen.error = err;
  };
  client.on('error', onStartError);
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    client.disconnect();
    const cause = seen.error ?? (err instanceof Error ? err : new Error(String(err)));
    throw new RedisUnavailableError(
      `Redis at ${describeRedisUrl(options.url)} did not answer (${cause.message})`,
      { cause },
    );
  }
  client.off('error', onStartError);
  client.on('error', options.onError);
  return client;
}
