/**
 * The snowflake worker slot of this process (docs/operations.md, Worker ids). Processes sharing a
 * PostgreSQL database lease a (worker id, process id) slot there, renew it while they run and
 * free it when they stop, so no two mint the same id; an id set by hand is checked against the
 * live leases the same way. SQLite is one process: the configured id stands, unleased.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { ConfigError } from './config.js';
import type { Clock, Timers } from './domain/clock.js';
import { createSnowflakeGenerator, type IdGenerator } from './domain/snowflakes.js';
import type { Storage, WorkerLeaseRecord, WorkerSlot } from './storage/index.js';

/** How worker leases are kept. */
export interface WorkerLeaseOptions {
  /** How long a lease lasts unrenewed: a stopped process's slot is free after this. */
  ttlMs: number;
  /** How often a running process renews its lease (well within `ttlMs`). */
  renewEveryMs: number;
}

export const DEFAULT_WORKER_LEASE_OPTIONS = {
  ttlMs: 30_000,
  renewEveryMs: 10_000,
} as const satisfies WorkerLeaseOptions;

/** Snowflake ids have 5 bits of worker id and 5 of process id. */
const SLOT_IDS = 32;
/**
 * The process ids a leased slot may have: never 0, which every process with a configured
 * GUILDHALL_WORKER_ID uses, nor the last, which the admin commands use beside it (cli/), so
 * leased and configured processes never meet on one slot.
 */
const FIRST_LEASED_PROCESS_ID = 1;
const LAST_LEASED_PROCESS_ID = SLOT_IDS - 2;

/** Every slot a process may lease, in the order they are tried. */
export const LEASABLE_SLOTS: readonly WorkerSlot[] = Array.from(
  { length: LAST_LEASED_PROCESS_ID - FIRST_LEASED_PROCESS_ID + 1 },
  (_, p) =>
    Array.from({ length: SLOT_IDS }, (_, workerId) => ({
      workerId,
      processId: p + FIRST_LEASED_PROCESS_ID,
    })),
).flat();

/** This process's slot, and the lease that keeps it its own. */
export interface WorkerLease {
  /** The slot ids are minted with now (a lease lost while stalled moves to another). */
  slot(): WorkerSlot;
  /** Whether the slot is leased (PostgreSQL) rather than configured and alone (SQLite). */
  readonly leased: boolean;
  /** Stops renewing and frees the slot. */
  release(): Promise<void>;
}

const slotName = (slot: WorkerSlot) =>
  `worker id ${String(slot.workerId)} (process id ${String(slot.processId)})`;

const key = (slot: WorkerSlot) => `${String(slot.workerId)}:${String(slot.processId)}`;

/**
 * Takes this process's slot: the configured one (`workerId` set; `processId` beside it), checked
 * against the live leases, or the first free leasable one.
 * @throws ConfigError when the configured slot is another live process's, or no slot is free.
 */
export async function leaseWorkerSlot(deps: {
  storage: Storage;
  clock: Clock;
  timers: Timers;
  logger: Logger;
  /** GUILDHALL_WORKER_ID, or null to lease one. */
  workerId: number | null;
  /** The process id beside a configured worker id. */
  processId: number;
  options?: Partial<WorkerLeaseOptions>;
}): Promise<WorkerLease> {
  const { storage, clock, timers, logger } = deps;
  if (storage.dialect === 'sqlite') {
    const slot = { workerId: deps.workerId ?? 0, processId: deps.processId };
    return { slot: () => slot, leased: false, release: () => Promise.resolve() };
  }
  const options: WorkerLeaseOptions = { ...DEFAULT_WORKER_LEASE_OPTIONS, ...deps.options };
  const holder = `${hostname()}/${String(process.pid)}/${randomBytes(4).toString('hex')}`;
  const leaseOf = (slot: WorkerSlot): WorkerLeaseRecord => ({
    ...slot,
    holder,
    expiresAt: clock.now() + options.ttlMs,
  });

  /** The first free leasable slot, taken; null when every one is live. */
  const claimFree = async (): Promise<WorkerSlot | null> => {
    const live = new Set((await storage.workerLeases.listLive(clock.now())).map(key));
    for (const slot of LEASABLE_SLOTS) {
      if (live.has(key(slot))) continue;
      // Another process may take it between the list and the claim: then try the next.
      const got = await storage.workerLeases.claim(leaseOf(slot), clock.now());
      if (got.holder === holder) return slot;
    }
    return null;
  };

  let current: WorkerSlot;
  if (deps.workerId !== null) {
    current = { workerId: deps.workerId, processId: deps.processId };
    const got = await storage.workerLeases.claim(leaseOf(current), clock.now());
    if (got.holder !== holder) {
      throw new ConfigError(
        `GUILDHALL_WORKER_ID ${String(current.workerId)}: ${slotName(current)} is in use by another ` +
          `process sharing this database (${got.holder}, leased until ` +
          `${new Date(got.expiresAt).toISOString()}). Give every process its own id, or leave ` +
          'GUILDHALL_WORKER_ID unset to lease a free one. A stopped process frees its id within ' +
          `${String(options.ttlMs / 1000)} s.`,
      );
    }
  } else {
    const got = await claimFree();
    if (got === null) {
      throw new ConfigError(
        `No free snowflake worker id: all ${String(LEASABLE_SLOTS.length)} of this database are ` +
          'leased by running processes. Stop one (a stopped process frees its id within ' +
          `${String(options.ttlMs / 1000)} s), or set GUILDHALL_WORKER_ID by hand.`,
      );
    }
    current = got;
  }
  logger.info({ ...current, holder }, 'snowflake worker slot leased');

  let stopped = false;
  let cancel: () => void = () => undefined;
  let renewing: Promise<void> = Promise.resolve();
  /** Renews; a lease lost while this process stalled past its end is replaced by a free one. */
  const renew = async () => {
    if (await storage.workerLeases.renew(leaseOf(current))) return;
    const taken = await storage.workerLeases.claim(leaseOf(current), clock.now());
    if (taken.holder === holder) return;
    const moved = await claimFree();
    if (moved === null) {
      logger.error({ ...current, holder }, 'snowflake worker lease lost and no slot is free');
      return;
    }
    logger.error(
      { from: current, to: moved, holder },
      'snowflake worker lease lost while this process stalled; ids now use another slot',
    );
    current = moved;
  };
  const schedule = () => {
    cancel = timers.schedule(() => {
      renewing = renew()
        .catch((err: unknown) => {
          logger.warn({ err, ...current }, 'snowflake worker lease not renewed (retrying)');
        })
        .finally(() => {
          if (!stopped) schedule();
        });
    }, options.renewEveryMs);
  };
  schedule();

  return {
    slot: () => current,
    leased: true,
    async release() {
      if (stopped) return;
      stopped = true;
      cancel();
      // A renewal under way would otherwise take the slot again after it is freed.
      await renewing;
      await storage.workerLeases.release({ ...current, holder });
    },
  };
}

/** Mints ids with the lease's slot, following it if it moves. */
export function leasedIdGenerator(lease: WorkerLease, clock: Clock): IdGenerator {
  let slot = lease.slot();
  let generate = createSnowflakeGenerator({ clock, ...slot });
  return () => {
    const now = lease.slot();
    if (now !== slot) {
      slot = now;
      generate = createSnowflakeGenerator({ clock, ...slot });
    }
    return generate();
  };
}
