import type { Logger } from 'pino';
import type { AppOptions } from './appTypes.js';
import type { Services } from './appServices.js';
import type { BlobStore } from './blobs/index.js';
import {
  DEFAULT_BLOB_GRACE_MS,
  DEFAULT_BLOB_SWEEP_INTERVAL_MS,
  startBlobSweeper,
} from './blobs/lifecycle.js';
import { realTimers, type Clock, type Timers } from './domain/clock.js';
import type { SecretKeyring } from './domain/keyring.js';
import type { SecretBox } from './domain/secretBox.js';
import { startLobbySweeper } from './resources/lobbies/index.js';
import { expiredCredentialTasks } from './resources/auth/index.js';
import { startTimedSweeper } from './resources/threads/index.js';
import { startResealing } from './secrets.js';
import type { Storage } from './storage/index.js';

/** The periodic sweeps of a running app, stopped together when it closes. */
export interface AppSweeps {
  /** Stops each sweep in turn (after its current pass). */
  stop(): Promise<void>;
}

/**
 * Starts the app's background sweeps (orphan blobs, idle lobbies, idle threads, expired polls and
 * credentials, resealing during a key rotation), each unless its option turns it off.
 */
export function startAppSweeps(deps: {
  options: Pick<AppOptions, 'blobSweep' | 'lobbySweep' | 'timedSweep'>;
  storage: Storage;
  blobs: BlobStore;
  /** The platform clock, and the waits that follow it. */
  clock: Clock & { timers: Timers };
  /** The real clock (resealing runs on it). */
  wireClock: Clock;
  logger: Logger;
  services: Pick<Services, 'threads' | 'polls'>;
  secrets: { box: SecretBox; keyring: SecretKeyring; source: string };
}): AppSweeps {
  const { options, storage, blobs, clock, logger, services } = deps;
  const timers = clock.timers;
  const { box: secrets, keyring, source: keySource } = deps.secrets;

  // Blobs a crash left without their row, and abandoned uploads, go at start and every 6 h.
  const blobSweeper =
    options.blobSweep === false
      ? null
      : startBlobSweeper({
          storage,
          blobs,
          clock,
          timers: options.blobSweep?.timers ?? timers,
          graceMs: options.blobSweep?.graceMs ?? DEFAULT_BLOB_GRACE_MS,
          intervalMs: DEFAULT_BLOB_SWEEP_INTERVAL_MS,
          onError: (err) => {
            logger.error({ err }, 'blob sweep failed');
          },
        });

  // Empty lobbies past their idle timeout are deleted every minute.
  const lobbySweeper =
    options.lobbySweep === false
      ? null
      : startLobbySweeper({
          storage,
          clock,
          timers: options.lobbySweep?.timers ?? timers,
          onError: (err) => {
            logger.error({ err }, 'idle lobby sweep failed');
          },
        });

  // Idle threads archive themselves, expired polls end and expired credentials go, every minute.
  const timedSweeper =
    options.timedSweep === false
      ? null
      : startTimedSweeper({
          tasks: [
            (limit) => services.threads.archiveIdle(limit),
            (limit) => services.polls.endExpired(limit),
            ...expiredCredentialTasks({ storage, clock }),
          ],
          timers: options.timedSweep?.timers ?? timers,
          onError: (err) => {
            logger.error({ err }, 'thread, poll and credential sweep failed');
          },
        });

  // During a rotation, what a node still on the previous key seals is sealed again here.
  const resealing = startResealing({
    storage,
    box: secrets,
    keyring,
    source: keySource,
    clock: deps.wireClock,
    timers: realTimers,
    logger,
  });

  return {
    async stop() {
      await blobSweeper?.stop();
      await lobbySweeper?.stop();
      await timedSweeper?.stop();
      await resealing?.stop();
    },
  };
}
