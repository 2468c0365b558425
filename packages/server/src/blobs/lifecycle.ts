/**
 * @module blobs/lifecycle: a blob lives as long as the row that points at it. Deleting the row
 * frees the blob once the transaction commits; the sweep removes what a crash in between left
 * (and uploads abandoned half-way), after a grace period that covers every upload in flight.
 */
import type { Timers } from '../delivery/worker.js';
import type { Clock } from '../domain/clock.js';
import { afterCommitTask } from '../events/afterCommit.js';
import type { Repositories } from '../storage/index.js';
import type { BlobStore } from './index.js';

/** How old an unreferenced blob must be before the sweep removes it: an hour. */
export const DEFAULT_BLOB_GRACE_MS = 60 * 60 * 1000;
/** How often a server sweeps: every six hours (and once at start). */
export const DEFAULT_BLOB_SWEEP_INTERVAL_MS = 6 * 60 * 60 * 1000;
const BATCH = 500;

/** Removes `keys` once `tx` commits, each only if no row points at it by then. */
export function freeBlobsAfterCommit(
  tx: Repositories,
  blobs: BlobStore,
  keys: readonly (string | null)[],
): void {
  const wanted = [...new Set(keys.filter((key): key is string => key !== null))];
  if (wanted.length === 0) return;
  afterCommitTask(tx, async (storage) => {
    const held = await storage.blobRefs.referenced(wanted);
    for (const key of wanted) if (!held.has(key)) await blobs.delete(key);
  });
}

/**
 * Removes blobs no row points at that were written more than `graceMs` ago, and staged or
 * half-written files as old. A blob younger than that may belong to an upload whose row is not
 * committed yet, so it stays.
 */
export async function sweepOrphanBlobs(deps: {
  storage: Repositories;
  blobs: BlobStore;
  nowMs: number;
  graceMs: number;
}): Promise<{ removed: number; temporary: number }> {
  const before = deps.nowMs - deps.graceMs;
  let removed = 0;
  let batch: string[] = [];
  const flush = async () => {
    const held = await deps.storage.blobRefs.referenced(batch);
    for (const key of batch) {
      if (held.has(key)) continue;
      await deps.blobs.delete(key);
      removed += 1;
    }
    batch = [];
  };
  for await (const entry of deps.blobs.list()) {
    if (entry.modifiedAt >= before) continue;
    batch.push(entry.key);
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  const temporary = await deps.blobs.removeTemporary(before);
  return { removed, temporary };
}

/** Sweeps at start and every `intervalMs`; `stop` waits for a sweep under way. */
export function startBlobSweeper(deps: {
  storage: Repositories;
  blobs: BlobStore;
  clock: Clock;
  timers: Timers;
  graceMs: number;
  intervalMs: number;
  onError: (err: unknown) => void;
}): { stop(): Promise<void> } {
  let cancel: (() => void) | null = null;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const run = () => {
    running = sweepOrphanBlobs({ ...deps, nowMs: deps.clock.now() }).then(
      () => undefined,
      deps.onError,
    );
    void running.then(() => {
      if (!stopped) cancel = deps.timers.schedule(run, deps.intervalMs);
    });
  };
  run();
  return {
    async stop() {
      stopped = true;
      cancel?.();
      await running;
    },
  };
}
