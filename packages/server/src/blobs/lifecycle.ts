/**
 * @module blobs/lifecycle: a blob lives as long as the row that points at it. Deleting the row
 * frees the blob once the transaction commits; the sweep removes what a crash in between left
 * (and uploads abandoned half-way), after a grace period that covers every upload in flight.
 */
import type { Clock, Timers } from '../domain/clock.js';
import { afterCommitTask } from '../events/afterCommit.js';
import type { Repositories } from '../storage/index.js';
import type { BlobStore } from './index.js';
import { HOUR_MS } from '../domain/time.js';

/** How old an unreferenced blob must be before the sweep removes it: an hour. */
/** Members read per query when collecting a guild's member avatars and banners. */
const MEMBERS_PAGE = 1000;

export const DEFAULT_BLOB_GRACE_MS = HOUR_MS;
/** How often a server sweeps: every six hours (and once at start). */
export const DEFAULT_BLOB_SWEEP_INTERVAL_MS = 6 * HOUR_MS;
const BATCH = 500;

const IMAGE_EXTENSIONS = ['png', 'jpg', 'gif', 'webp'] as const;

/** The blob key of an attachment's bytes. */
export const attachmentKey = (attachmentId: string) => `attachments/${attachmentId}`;

/** Every key an image hash may be stored under, `{prefix}/{hash}.{ext}` (none for null). */
export function imageKeys(prefix: string, hash: string | null | undefined): string[] {
  return hash == null ? [] : IMAGE_EXTENSIONS.map((ext) => `${prefix}/${hash}.${ext}`);
}

/** Removes `keys` now, each only if no row points at it (after a change already committed). */
export async function freeBlobs(
  storage: Repositories,
  blobs: BlobStore,
  keys: readonly string[],
): Promise<void> {
  const wanted = [...new Set(keys)];
  if (wanted.length === 0) return;
  const held = await storage.blobRefs.referenced(wanted);
  for (const key of wanted) if (!held.has(key)) await blobs.delete(key);
}

/** Removes `keys` once `tx` commits, each only if no row points at it by then. */
export function freeBlobsAfterCommit(
  tx: Repositories,
  blobs: BlobStore,
  keys: readonly string[],
): void {
  if (keys.length === 0) return;
  afterCommitTask(tx, (storage) => freeBlobs(storage, blobs, keys));
}

/**
 * The blobs of everything a guild holds (message files, emoji, stickers, guild and member
 * images, event covers), read before the guild is deleted so they can go once it has.
 */
export async function guildBlobKeys(tx: Repositories, guildId: string): Promise<string[]> {
  const [attachmentIds, emojis, stickers, guild, events, roles] = await Promise.all([
    tx.blobRefs.attachmentIds({ guildId }),
    tx.emojis.listByGuild(guildId),
    tx.stickers.listByGuild(guildId),
    tx.guilds.findById(guildId),
    tx.scheduledEvents.listByGuild(guildId),
    tx.roles.listByGuild(guildId),
  ]);
  const members = [];
  for (
    let page = await tx.members.listByGuild(guildId, { limit: MEMBERS_PAGE });
    page.length > 0;
  ) {
    members.push(...page.filter((m) => m.avatar !== null || m.banner !== null));
    const last = page[page.length - 1]?.userId;
    page =
      page.length < MEMBERS_PAGE || last === undefined
        ? []
        : await tx.members.listByGuild(guildId, { limit: MEMBERS_PAGE, after: last });
  }
  return [
    ...attachmentIds.map(attachmentKey),
    ...emojis.map((emoji) => `emojis/${emoji.id}`),
    ...stickers.map((sticker) => `stickers/${sticker.id}`),
    ...imageKeys(`icons/${guildId}`, guild?.icon),
    ...imageKeys(`banners/${guildId}`, guild?.banner),
    ...imageKeys(`splashes/${guildId}`, guild?.splash),
    ...members.flatMap((m) => [
      ...imageKeys(`guild-avatars/${guildId}/${m.userId}`, m.avatar),
      ...imageKeys(`guild-banners/${guildId}/${m.userId}`, m.banner),
    ]),
    ...events.flatMap((event) => imageKeys(`guild-events/${event.id}`, event.image)),
    ...roles.flatMap((role) => imageKeys(`role-icons/${role.id}`, role.icon)),
  ];
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
    // The wait's work, which a clock that fires it awaits.
    return running.then(() => {
      if (!stopped) cancel = deps.timers.schedule(run, deps.intervalMs);
    });
  };
  void run();
  return {
    async stop() {
      stopped = true;
      cancel?.();
      await running;
    },
  };
}
