/** @module bus/nats: the bus shared by API and gateway nodes of a scaled-out deployment. */
import { Events, connect, type NatsConnection } from 'nats';
import { encodeEvent } from '../codec.js';
import { BusClosedError } from '../errors.js';
import { safeErrorHandler } from '../handlers.js';
import { assertPublishSubject } from '../subjects.js';
import type { BusErrorHandler, BusEvent, EventBus } from '../types.js';
import { createDeliveries } from './deliveries.js';
import {
  historyStreamName,
  openNatsHistory,
  type NatsHistory,
  type NatsHistoryOptions,
} from './history.js';
import { createOutbox, type OutboxLimits } from './outbox.js';
import { checkPrefix, parseServers } from './servers.js';

export { historyStreamName, type NatsHistoryOptions } from './history.js';
export type { OutboxLimits } from './outbox.js';

export interface NatsBusOptions {
  /** `nats://[user:pass@]host:port` URL(s); credentials in a URL are sent as user and password. */
  servers: string | string[];
  /** The client name the NATS server's monitoring shows. */
  name?: string;
  /** Prepended to every subject, so deployments (or test files) sharing a server stay apart. */
  subjectPrefix?: string;
  /** How long the first connection may take before createNatsBus rejects. */
  connectTimeoutMs?: number;
  /** Told about handler failures, malformed messages and a connection that closed on its own. */
  onError?: BusErrorHandler;
  /**
   * Keep what is published on these subjects for a while, in a JetStream stream (the server
   * must run with JetStream): the bus's `history`. Unset: nothing is kept (`history` is null).
   */
  history?: NatsHistoryOptions;
  /** How long to wait between two attempts to reach the server again, ms. */
  reconnectWaitMs?: number;
  /** What is held while NATS does not take events, and how acknowledgements are waited for. */
  outbox?: Partial<OutboxLimits>;
  /** How long close() waits for held events to be taken before it drops them, ms. */
  closeWaitMs?: number;
}

export const DEFAULT_NATS_BUS_OPTIONS = {
  name: 'guildhall',
  subjectPrefix: 'guildhall.',
  connectTimeoutMs: 5000,
  reconnectWaitMs: 500,
  closeWaitMs: 5000,
} as const satisfies Partial<NatsBusOptions>;

/**
 * The outbox's bounds: 100,000 events or 32 MiB of them (some 30,000 dispatches of 1 KB, about
 * 64 MB of the process's memory), the first reached (docs/operations.md, Outages).
 */
export const DEFAULT_OUTBOX_LIMITS = {
  maxHeldEvents: 100_000,
  maxHeldBytes: 32 * 1024 * 1024,
  ackTimeoutMs: 2000,
  retryMs: 250,
} as const satisfies OutboxLimits;

/** The server cannot keep the history asked for (no JetStream, or a stream in the way). */
export class NatsHistoryError extends Error {
  override readonly name = 'NatsHistoryError';
}

/** Why the history could not be opened, as one sentence. */
function historyFailure(err: unknown, where: { display: string; stream: string }): string {
  const reason = err instanceof Error ? err.message : String(err);
  // nats.js says "503" when no JetStream answers the API.
  const said = reason === '503' ? 'JetStream is not enabled' : reason;
  return `Cannot keep the bus history in JetStream stream ${where.stream} at ${where.display}: ${said}`;
}

/**
 * Follows the connection's state: what is published is held while it is down, and what the
 * subscriptions missed is read from the history once it is back.
 */
function watchConnection(nc: NatsConnection, on: { lost(atMs: number): void; back(): void }): void {
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === Events.Disconnect) on.lost(Date.now());
      else if (status.type === Events.Reconnect) on.back();
    }
  })();
}

/** NATS did not answer when the bus was opened (the CLI says what to do: appDrivers.ts). */
export class NatsUnavailableError extends Error {
  override readonly name = 'NatsUnavailableError';
}

/**
 * Connects to NATS and returns a bus. Subjects its history keeps are published to JetStream and
 * count as published once stored (bus/nats/outbox.ts); while NATS is away they are held, in
 * order, and a subscriber cut off for a while receives from the history what it missed
 * (bus/nats/deliveries.ts). Subjects not kept go over core NATS, at most once. It reconnects for
 * ever, re-subscribing on its own; close() sends what it holds, then drains.
 * @throws Error naming the server (without its password) when it cannot connect, or cannot keep
 * the history (no JetStream, or another stream holds the subjects).
 */
export async function createNatsBus(options: NatsBusOptions): Promise<EventBus> {
  const { name, subjectPrefix, connectTimeoutMs, reconnectWaitMs, closeWaitMs } = {
    ...DEFAULT_NATS_BUS_OPTIONS,
    ...options,
  };
  checkPrefix(subjectPrefix);
  const report = safeErrorHandler(options.onError);
  const { servers, display, extra } = parseServers(options.servers);

  let nc: NatsConnection;
  try {
    nc = await connect({
      servers,
      name,
      timeout: connectTimeoutMs,
      maxReconnectAttempts: -1,
      reconnectTimeWait: reconnectWaitMs,
      ...extra,
    });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new NatsUnavailableError(`NATS at ${display} cannot be reached (${reason})`, {
      cause: err,
    });
  }

  let closing: Promise<void> | null = null;
  void nc.closed().then((err) => {
    if (err !== undefined && closing === null) report(err, {});
  });
  const ensureOpen = () => {
    if (closing !== null || nc.isClosed())
      throw new BusClosedError(`the bus to ${display} is closed`);
  };

  let history: NatsHistory | null = null;
  if (options.history !== undefined) {
    const stream = options.history.stream ?? historyStreamName(subjectPrefix);
    try {
      history = await openNatsHistory({
        nc,
        subjectPrefix,
        options: { ...options.history, stream },
        report,
        ensureOpen,
      });
    } catch (err) {
      closing = nc.close();
      await closing;
      if (err instanceof TypeError) throw err;
      throw new NatsHistoryError(historyFailure(err, { display, stream }), { cause: err });
    }
  }
  const kept = history;

  const limits = { ...DEFAULT_OUTBOX_LIMITS, ...options.outbox };
  const outbox = createOutbox({
    nc,
    js: nc.jetstream(),
    subjectPrefix,
    limits,
    report,
    covers: (subject) => kept?.covers(subject) ?? false,
    ensureStream: () => kept?.ensure() ?? Promise.resolve(),
  });
  const deliveries = createDeliveries({ nc, subjectPrefix, history, report });
  await deliveries.start();
  watchConnection(nc, {
    lost(atMs) {
      outbox.connectionLost();
      deliveries.connectionLost(atMs);
    },
    back() {
      outbox.connectionBack();
      deliveries.connectionBack();
    },
  });

  return {
    driver: 'nats',
    history,
    publish(subject: string, event: BusEvent): Promise<void> {
      // The executor runs now, so the outbox queues it in call order; a throw rejects.
      return new Promise((resolve, reject) => {
        ensureOpen();
        assertPublishSubject(subject);
        outbox.push(subject, encodeEvent(event)).then(resolve, reject);
      });
    },
    async subscribe(subject, handler, subscribeOptions = {}) {
      ensureOpen();
      return deliveries.subscribe(subject, handler, subscribeOptions);
    },
    async ping(): Promise<void> {
      ensureOpen();
      // While the client reconnects, flush waits; the readiness check bounds how long.
      await nc.flush();
      // Connected, but the history does not store what is published (JetStream gone, say):
      // events are only held, so the bus cannot carry them now.
      const stalled = outbox.stalledSince();
      if (stalled !== null && Date.now() - stalled > limits.ackTimeoutMs) {
        const { events } = outbox.held();
        throw new Error(
          `NATS has not stored an event since ${new Date(stalled).toISOString()}: ${events} held`,
        );
      }
    },
    close(): Promise<void> {
      closing ??= (async () => {
        await outbox.close(closeWaitMs);
        deliveries.close();
        if (!nc.isClosed()) await nc.drain();
      })();
      return closing;
    },
  };
}
