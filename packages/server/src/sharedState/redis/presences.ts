import type { Redis } from 'ioredis';
import { DEFAULT_PRESENCE_TTL_MS, type PresenceStore } from '../types.js';
import { gcGraceMs, redisKey } from './keys.js';

const KIND = 'presence';
/** Users read or refreshed per pipeline. */
const USERS_PER_PIPELINE = 1000;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += USERS_PER_PIPELINE) {
    out.push(items.slice(i, i + USERS_PER_PIPELINE));
  }
  return out;
}

/**
 * Presences as Redis hashes {v: JSON, e: expires at by the caller's clock}, one per user. The
 * key's TTL follows the expiry (plus a grace), so a dead node's entries leave Redis on their own.
 */
export class RedisPresenceStore<T = unknown> implements PresenceStore<T> {
  readonly ttlMs: number;
  readonly #client: Redis;
  readonly #prefix: string;

  constructor(client: Redis, options: { prefix: string; ttlMs?: number }) {
    this.#client = client;
    this.#prefix = options.prefix;
    this.ttlMs = options.ttlMs ?? DEFAULT_PRESENCE_TTL_MS;
  }

  #key(userId: string) {
    return redisKey(this.#prefix, KIND, userId);
  }

  async set(userId: string, presence: T, nowMs: number): Promise<void> {
    const key = this.#key(userId);
    await this.#client
      .multi()
      .hset(key, 'v', JSON.stringify(presence), 'e', nowMs + this.ttlMs)
      .pexpire(key, this.ttlMs + gcGraceMs(this.ttlMs))
      .exec();
  }

  async get(userIds: readonly string[], nowMs: number): Promise<Map<string, T>> {
    const found = new Map<string, T>();
    for (const batch of chunks(userIds)) {
      const pipeline = this.#client.pipeline();
      for (const userId of batch) pipeline.hmget(this.#key(userId), 'v', 'e');
      const replies = (await pipeline.exec()) ?? [];
      batch.forEach((userId, i) => {
        const [err, reply] = replies[i] ?? [null, null];
        if (err !== null) throw err;
        const [value, expires] = reply as [string | null, string | null];
        if (value !== null && expires !== null && Number(expires) > nowMs) {
          found.set(userId, JSON.parse(value) as T);
        }
      });
    }
    return found;
  }

  async refresh(userIds: readonly string[], nowMs: number): Promise<void> {
    for (const batch of chunks(userIds)) {
      const pipeline = this.#client.pipeline();
      for (const userId of batch) {
        pipeline.guildhallRefresh(
          this.#key(userId),
          nowMs,
          nowMs + this.ttlMs,
          this.ttlMs + gcGraceMs(this.ttlMs),
        );
      }
      const replies = (await pipeline.exec()) ?? [];
      for (const [err] of replies) if (err !== null) throw err;
    }
  }
}
