/**
 * @module activities/mappingCache: each application's URL mappings as the proxy host holds them
 * in memory, so a proxied request costs a map read instead of a storage read. A change to an
 * application's mappings reaches every node's cache through a revocation
 * (events/revocations.ts, `activityApplicationIds`): the node that saved it forgets the entry
 * before it answers, the others as the bus delivers it. Entries also expire after `ttlMs`, the
 * bound on how long a revocation the bus lost could leave a node on old mappings. Like the auth
 * cache (http/authenticator.ts), a storage read a forget overtook answers its request but is not
 * kept. Docs: docs/activities.md#the-proxy-host.
 */
import type { Clock } from '../domain/clock.js';
import { SECOND_MS } from '../domain/time.js';

/** How long an application's mappings are trusted without a revocation, by default. */
export const DEFAULT_MAPPING_CACHE_TTL_MS = 30 * SECOND_MS;
/** The most applications whose mappings are kept, by default (the oldest entry goes first). */
export const DEFAULT_MAPPING_CACHE_ENTRIES = 10_000;

export interface MappingCacheOptions<T> {
  /** Reads an application's value from storage. */
  read: (applicationId: string) => Promise<T>;
  clock: Pick<Clock, 'now'>;
  ttlMs?: number;
  maxEntries?: number;
}

export interface MappingCache<T> {
  /** The value when held and fresh, without I/O; undefined when it must be read. */
  cached(applicationId: string): T | undefined;
  /** The value, read from storage when not held (one read at a time per application). */
  get(applicationId: string): Promise<T>;
  /** Forgets one application's value (its mappings changed). */
  forget(applicationId: string): void;
  /** Forgets every value (the database was returned to a snapshot, control/reset.ts). */
  forgetAll(): void;
}

interface Entry<T> {
  value: T;
  validUntilMs: number;
}

export function createMappingCache<T>(options: MappingCacheOptions<T>): MappingCache<T> {
  const { read, clock } = options;
  const ttlMs = options.ttlMs ?? DEFAULT_MAPPING_CACHE_TTL_MS;
  const maxEntries = options.maxEntries ?? DEFAULT_MAPPING_CACHE_ENTRIES;
  const entries = new Map<string, Entry<T>>();
  const reading = new Map<string, Promise<T>>();
  // Bumped by every forget: a read that started before it is not kept, nor shared after it.
  let generation = 0;

  const keep = (applicationId: string, value: T) => {
    if (ttlMs <= 0) return;
    if (entries.size >= maxEntries) {
      const oldest = entries.keys().next();
      if (oldest.done !== true) entries.delete(oldest.value);
    }
    entries.set(applicationId, { value, validUntilMs: clock.now() + ttlMs });
  };

  const cached = (applicationId: string): T | undefined => {
    const entry = entries.get(applicationId);
    if (entry === undefined) return undefined;
    if (entry.validUntilMs > clock.now()) return entry.value;
    entries.delete(applicationId);
    return undefined;
  };

  return {
    cached,
    get(applicationId) {
      const held = cached(applicationId);
      if (held !== undefined) return Promise.resolve(held);
      const pending = reading.get(applicationId);
      if (pending !== undefined) return pending;
      const started = generation;
      const promise = read(applicationId).then(
        (value) => {
          if (reading.get(applicationId) === promise) reading.delete(applicationId);
          if (generation === started) keep(applicationId, value);
          return value;
        },
        (err: unknown) => {
          if (reading.get(applicationId) === promise) reading.delete(applicationId);
          throw err;
        },
      );
      reading.set(applicationId, promise);
      return promise;
    },
    forget(applicationId) {
      generation += 1;
      entries.delete(applicationId);
      reading.delete(applicationId);
    },
    forgetAll() {
      generation += 1;
      entries.clear();
      reading.clear();
    },
  };
}
