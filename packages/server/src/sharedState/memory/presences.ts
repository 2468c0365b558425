import { DEFAULT_PRESENCE_TTL_MS, type PresenceStore } from '../types.js';

interface Entry<T> {
  value: T;
  expiresAtMs: number;
}

/** Presences in a Map, for one process; expired entries go at the next refresh pass. */
export class MemoryPresenceStore<T = unknown> implements PresenceStore<T> {
  readonly ttlMs: number;
  readonly #entries = new Map<string, Entry<T>>();

  /** Forgets everything kept (a server returned to a snapshot). */
  clear(): void {
    this.#entries.clear();
  }

  constructor(options: { ttlMs?: number } = {}) {
    this.ttlMs = options.ttlMs ?? DEFAULT_PRESENCE_TTL_MS;
  }

  set(userId: string, presence: T, nowMs: number): Promise<void> {
    this.#entries.set(userId, { value: presence, expiresAtMs: nowMs + this.ttlMs });
    return Promise.resolve();
  }

  get(userIds: readonly string[], nowMs: number): Promise<Map<string, T>> {
    const found = new Map<string, T>();
    for (const userId of userIds) {
      const entry = this.#entries.get(userId);
      if (entry !== undefined && entry.expiresAtMs > nowMs) found.set(userId, entry.value);
    }
    return Promise.resolve(found);
  }

  refresh(userIds: readonly string[], nowMs: number): Promise<void> {
    for (const [userId, entry] of this.#entries) {
      if (entry.expiresAtMs <= nowMs) this.#entries.delete(userId);
    }
    for (const userId of userIds) {
      const entry = this.#entries.get(userId);
      if (entry !== undefined) entry.expiresAtMs = nowMs + this.ttlMs;
    }
    return Promise.resolve();
  }
}
