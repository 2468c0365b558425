/**
 * @module appFoundation: what every other part of the composition root stands on, opened in
 * this order and each added to the lifecycle as it opens (so a failed start closes what opened,
 * and close stops them last): the controls' clock, TLS, tracing, storage, the sealed secrets, the
 * worker lease, the bus, the shared state and the blob store.
 */
import {
  loadApiTls,
  openBlobStore,
  openBus,
  openSharedState,
  openStorage,
  startConfiguredTracing,
} from './appDrivers.js';
import { createAppControl } from './appControl.js';
import type { AppOptions } from './appTypes.js';
import { servesTls, type Config } from './config.js';
import { realTimers, systemClock } from './domain/clock.js';
import type { Lifecycle } from './domain/lifecycle.js';
import { openSecrets } from './secrets.js';
import { leaseWorkerSlot } from './workerLease.js';
import type { Logger } from 'pino';

export async function openFoundation(
  config: Config,
  options: AppOptions & { logger: Logger },
  lifecycle: Lifecycle,
) {
  const { logger } = options;
  const overrides = options.overrides ?? {};
  // Two clocks: the platform's, which every dated rule reads and a test moves (app.control), and
  // the real one of what runs on the wire or between nodes (heartbeats, leases, the bus).
  const wireClock = overrides.clock ?? systemClock;
  const control = createAppControl({ config, base: overrides.clock, logger });
  // Read (or made) before anything opens: unreadable files stop the start with one line.
  const tls = servesTls(config) ? await loadApiTls(config, wireClock.now()) : null;
  // Tracing, when configured: only then is its SDK loaded (tracing.ts); stopped last.
  const tracing = await startConfiguredTracing(config, overrides.traceExporter);
  if (tracing !== null) lifecycle.add({ name: 'tracing', stop: () => tracing.shutdown() });
  const storage = overrides.storage ?? (await openStorage(config, logger));
  lifecycle.add({ name: 'storage', stop: () => storage.close() });
  // Stored secrets are sealed (and checked to open) before anything serves them.
  const secrets = await openSecrets({ config, storage, logger }, wireClock);
  // No two processes sharing the database mint ids with one worker slot.
  const workerLease = await leaseWorkerSlot({
    storage,
    clock: wireClock,
    timers: overrides.workerLease?.timers ?? realTimers,
    logger,
    workerId: config.workerId,
    processId: options.processId ?? 0,
    ...(overrides.workerLease?.options ? { options: overrides.workerLease.options } : {}),
  });
  lifecycle.add({ name: 'worker lease', stop: () => workerLease.release() });
  const bus = overrides.bus ?? (await openBus(config, logger));
  lifecycle.add({ name: 'bus', stop: () => bus.close() });
  const sharedState = await openSharedState(config, { logger, clock: wireClock });
  lifecycle.add({ name: 'shared state', stop: () => sharedState.close() });
  const blobs = overrides.blobs ?? (await openBlobStore(config, logger));
  if (overrides.blobs === undefined) {
    lifecycle.add({
      name: 'blob store',
      stop: () => {
        blobs.close?.();
      },
    });
  }
  return {
    ...{ control, clock: control.parts.clock, wireClock, tls, tracing, storage, secrets },
    ...{ workerLease, bus, sharedState, blobs },
  };
}

export type Foundation = Awaited<ReturnType<typeof openFoundation>>;
