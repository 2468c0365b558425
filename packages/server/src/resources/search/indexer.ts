import { setImmediate } from 'node:timers/promises';
import type { Clock } from '../../domain/clock.js';
import type { Storage } from '../../storage/index.js';

/** Messages indexed per transaction: small enough that other requests barely wait on one. */
export const DEFAULT_BACKFILL_BATCH_SIZE = 250;

/**
 * Builds guild search indexes in the background (see migration 0011_message_search): each guild's
 * not-yet-indexed messages are indexed in batches, one short transaction per batch, yielding to
 * the event loop between batches so requests keep being served while a large guild is indexed.
 */
export interface SearchIndexer {
  /** Starts indexing a guild unless it is being indexed already; returns at once. */
  ensure(guildId: string): void;
  /** Starts indexing every guild whose backfill is unfinished (after a migration, say). */
  resume(): void;
  /** Stops every backfill after its current batch; pending work resumes on the next search. */
  close(): Promise<void>;
}

export function createSearchIndexer(options: {
  storage: Pick<Storage, 'messageSearch'>;
  clock: Clock;
  batchSize?: number;
  /** Told when a batch fails (the guild's next search starts its backfill again). */
  onError: (err: unknown, guildId: string | null) => void;
}): SearchIndexer {
  const { storage, clock, onError } = options;
  const batchSize = options.batchSize ?? DEFAULT_BACKFILL_BATCH_SIZE;
  const running = new Map<string, Promise<void>>();
  const lookups = new Set<Promise<void>>();
  let closed = false;

  const backfill = async (guildId: string) => {
    // Leave the request that asked first: the backfill runs after it has been answered.
    await setImmediate();
    while (!closed) {
      const { done } = await storage.messageSearch.backfill(guildId, {
        batchSize,
        nowMs: clock.now(),
      });
      if (done) return;
      await setImmediate();
    }
  };

  const ensure = (guildId: string) => {
    if (closed || running.has(guildId)) return;
    const job = backfill(guildId)
      .catch((err: unknown) => {
        onError(err, guildId);
      })
      .finally(() => running.delete(guildId));
    running.set(guildId, job);
  };

  return {
    ensure,
    resume() {
      if (closed) return;
      const lookup = storage.messageSearch
        .pendingGuildIds()
        .then((guildIds) => {
          for (const guildId of guildIds) ensure(guildId);
        })
        .catch((err: unknown) => {
          onError(err, null);
        })
        .finally(() => lookups.delete(lookup));
      lookups.add(lookup);
    },
    async close() {
      closed = true;
      await Promise.all(lookups);
      await Promise.all(running.values());
    },
  };
}
