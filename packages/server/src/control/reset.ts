/**
 * @module control/reset: returning a running server to a point taken earlier (a loaded world),
 * for tests: the database's contents, and what the server keeps in memory about them.
 */
import type { ActivityProxy } from '../activities/proxyServer.js';
import type { Gateway } from '../gateway/index.js';
import type { Authenticator } from '../http/authenticator.js';
import type { SharedState } from '../sharedState/index.js';
import type { Storage } from '../storage/index.js';

/** A point the server can return to (App.snapshot()). */
export interface AppSnapshot {
  /**
   * Returns the server to this point: the database as it was, rate limits, identify buckets and
   * presences forgotten, cached credentials and activity URL mappings dropped, gateway sessions
   * ended (their clients reconnect and identify again, seeing the world as it was).
   */
  restore(): Promise<void>;
  /** The database's size at this point, in bytes. */
  readonly bytes: number;
}

/** A server that cannot return to a snapshot (its database or shared state is not SQLite and memory). */
export class SnapshotUnsupportedError extends Error {
  override readonly name = 'SnapshotUnsupportedError';
}

/** What a reset touches, from the composition root. */
export interface ResetParts {
  storage: Pick<Storage, 'snapshot' | 'dialect'>;
  sharedState: Pick<SharedState, 'clear' | 'driver'>;
  authenticator: Pick<Authenticator, 'forgetAll'>;
  /** The auto-moderation rules this node holds. */
  autoModRules: { forgetAll(): void };
  gateway: Pick<Gateway, 'endAll'>;
  /** The proxy host of an API node (its URL mappings held in memory), or null. */
  activityProxy: Pick<ActivityProxy, 'forgetMappings'> | null;
}

/**
 * Takes the point a reset returns to.
 * @throws SnapshotUnsupportedError on PostgreSQL or with Redis (their state is not this process's
 *   to copy): tests that reset run on SQLite (in memory, the kit's default) and memory.
 */
export async function takeSnapshot(parts: ResetParts): Promise<AppSnapshot> {
  const { storage, sharedState, authenticator, autoModRules, gateway, activityProxy } = parts;
  if (storage.snapshot === undefined) {
    throw new SnapshotUnsupportedError(
      `a server on ${storage.dialect} cannot return to a snapshot: run it on SQLite (unset DATABASE_URL) to reset it`,
    );
  }
  const clear = sharedState.clear;
  if (clear === undefined) {
    throw new SnapshotUnsupportedError(
      `a server sharing state through ${sharedState.driver} cannot return to a snapshot: unset REDIS_URL to reset it`,
    );
  }
  const image = await storage.snapshot();
  return {
    bytes: image.bytes,
    async restore() {
      // Sessions end first: nothing they hold may outlive the data underneath it.
      gateway.endAll();
      await image.restore();
      authenticator.forgetAll();
      autoModRules.forgetAll();
      activityProxy?.forgetMappings();
      clear.call(sharedState);
    },
  };
}
