import { createHash } from 'node:crypto';

/**
 * The longest caller key kept as it is; longer ones (an account name from a login body, say)
 * are replaced by their SHA-256 so one request cannot make a key of any size.
 */
const MAX_PLAIN_KEY_LENGTH = 200;

/** The Redis key of a store's entry: `<prefix><kind>:<key>`. */
export function redisKey(prefix: string, kind: string, key: string): string {
  const part =
    key.length <= MAX_PLAIN_KEY_LENGTH ? key : `#${createHash('sha256').update(key).digest('hex')}`;
  return `${prefix}${kind}:${part}`;
}

/**
 * How long a key outlives the moment its window or entry ends by the caller's clock. Scripts
 * decide expiry by that clock; the key's TTL only collects keys nobody asks for any more, so it
 * is generous enough for clocks that differ a little between nodes.
 */
export function gcGraceMs(windowMs: number): number {
  return Math.max(windowMs, MIN_GC_GRACE_MS);
}

const MIN_GC_GRACE_MS = 10_000;
