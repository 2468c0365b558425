import type { Logger } from 'pino';
import type { AppOverrides } from './appTypes.js';
import type { Services } from './appServices.js';
import type { BlobStore } from './blobs/index.js';
import {
  DEFAULT_BLOB_GRACE_MS,
  DEFAULT_BLOB_SWEEP_INTERVAL_MS,
  startBlobSweeper,
} from './blobs/lifecycle.js';
import { realTimers, type Clock, type Timers } from './domain/clock.js';
import type { Component } from './domain/lifecycle.js';
import type { SecretKeyring } from './domain/keyring.js';
import type { SecretBox } from './domain/secretBox.js';
import { startLobbySweeper } from './resources/lobbies/index.js';
import { expiredCredentialTasks } from './resources/auth/index.js';
import { startTimedSweeper } from './resources/threads/index.js';
import { startResealing } from './secrets.js';
import type { Storage } from './storage/index.js';

/** A sweep started by `start` (a pass at once, then on a timer), stopped after its pass. */
function sweep(name: string, start: () => { stop(): Promise<void> } | null): Component {
  let running: { stop(): Promise<void> } | null = null;
  return {
    name,
    start() {
      running = start();
    },
    stop: () => running?.stop(),
  };
}

/**
 * The app's background sweeps (orphan blobs, idle lobbies, idle threads, expired polls and
 * credentials, resealing during a key rotation), each unless its option turns it off: parts of
 * the app's lifecycle (domain/lifecycle.ts), started with the others.
 */
export function appSweeps(deps: {
  overrides: Pick<AppOverrides, 'blobSweep' | 'lobbySweep' | 'timedSweep'>;
  storage: Storage;
  blobs: BlobStore;
  /** The platform clock, and the waits that follow it. */
  clock: Clock & { timers: Timers };
  /** The real clock (resealing runs on it). */
  wireClock: Clock;
  logger: Logger;
  services: Pick<Services, 'threads' | 'polls' | 'calls'>;
  secrets: { box: SecretBox; keyring: SecretKeyring; source: string };
}): Component[] {
  const { storage, blobs, clock, logger, services } = deps;
  const { blobSweep, lobbySweep, timedSweep } = deps.overrides;
  const timers = clock.timers;
  const { box: secrets, keyring, source: keySource } = deps.secrets;

  // Blobs a crash left without their row, and abandoned uploads, go at start and every 6 h.
  const blobSweeper =
    blobSweep === false
      ? null
      : sweep('blob sweep', () =>
          startBlobSweeper({
            storage,
            blobs,
            clock,
            timers: blobSweep?.timers ?? timers,
            graceMs: blobSweep?.graceMs ?? DEFAULT_BLOB_GRACE_MS,
            intervalMs: DEFAULT_BLOB_SWEEP_INTERVAL_MS,
            onError: (err) => {
              logger.error({ err }, 'blob sweep failed');
            },
          }),
        );

  // Empty lobbies past their idle timeout are deleted every minute.
  const lobbySweeper =
    lobbySweep === false
      ? null
      : sweep('idle lobby sweep', () =>
          startLobbySweeper({
            storage,
            clock,
            timers: lobbySweep?.timers ?? timers,
            onError: (err) => {
              logger.error({ err }, 'idle lobby sweep failed');
            },
          }),
        );

  // Idle threads archive themselves, expired polls end, expired credentials go and calls that
  // rang long enough stop ringing, every minute.
  const timedSweeper =
    timedSweep === false
      ? null
      : sweep('thread, poll and credential sweep', () =>
          startTimedSweeper({
            tasks: [
              (limit) => services.threads.archiveIdle(limit),
              (limit) => services.polls.endExpired(limit),
              (limit) => services.calls.ringing.stopExpiredRinging(limit),
              ...expiredCredentialTasks({ storage, clock }),
            ],
            timers: timedSweep?.timers ?? timers,
            onError: (err) => {
              logger.error({ err }, 'thread, poll and credential sweep failed');
            },
          }),
        );

  // During a rotation, what a node still on the previous key seals is sealed again here.
  const resealing = sweep('resealing', () =>
    startResealing({
      storage,
      box: secrets,
      keyring,
      source: keySource,
      clock: deps.wireClock,
      timers: realTimers,
      logger,
    }),
  );

  return [blobSweeper, lobbySweeper, timedSweeper, resealing].filter((part) => part !== null);
}
