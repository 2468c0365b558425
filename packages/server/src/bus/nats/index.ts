/** @module bus/nats: the bus shared by API and gateway nodes of a scaled-out deployment. */
import { connect, type ConnectionOptions, type NatsConnection } from 'nats';
import { encodeEvent } from '../codec.js';
import { BusClosedError } from '../errors.js';
import { invokeHandler, safeErrorHandler } from '../handlers.js';
import { assertPublishSubject, assertSubscribeSubject } from '../subjects.js';
import type {
  BusErrorHandler,
  BusEvent,
  BusHandler,
  EventBus,
  EventHistory,
  Subscription,
} from '../types.js';
import {
  decodeDelivered,
  historyStreamName,
  openNatsHistory,
  type NatsHistoryOptions,
} from './history.js';

export { historyStreamName, type NatsHistoryOptions } from './history.js';

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
}

export const DEFAULT_NATS_BUS_OPTIONS = {
  name: 'guildhall',
  subjectPrefix: 'guildhall.',
  connectTimeoutMs: 5000,
} as const satisfies Partial<NatsBusOptions>;

interface ParsedServers {
  servers: string[];
  /** The URLs with any password hidden, for error messages. */
  display: string;
  /** Credentials from the URLs, and `tls: {}` when one asks for `tls://`. */
  extra: Pick<ConnectionOptions, 'user' | 'pass' | 'token' | 'tls'>;
}

function parseServers(servers: string | string[]): ParsedServers {
  const list = typeof servers === 'string' ? [servers] : servers;
  const extra: ParsedServers['extra'] = {};
  const shown: string[] = [];
  const plain = list.map((server) => {
    if (!/^[a-z]+:\/\//i.test(server)) {
      shown.push(server);
      return server;
    }
    const url = new URL(server);
    // nats.js ignores the scheme; tls:// is how the config asks for TLS.
    if (url.protocol === 'tls:') extra.tls = {};
    const user = decodeURIComponent(url.username);
    const pass = decodeURIComponent(url.password);
    // A URL with only a user part carries a token, as NATS' other clients read it.
    if (user !== '' && extra.user === undefined && extra.token === undefined) {
      Object.assign(extra, pass === '' ? { token: user } : { user, pass });
    }
    url.username = '';
    url.password = '';
    shown.push(user === '' ? url.href : url.href.replace('://', '://***@'));
    return url.href;
  });
  return { servers: plain, display: shown.join(', '), extra };
}

function checkPrefix(prefix: string): void {
  if (prefix === '') return;
  if (!prefix.endsWith('.')) throw new TypeError(`subjectPrefix must end with ".": ${prefix}`);
  assertPublishSubject(prefix.slice(0, -1));
}

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
 * Connects to NATS and returns a bus over core NATS publish/subscribe (at-most-once: a dispatch
 * missed by a disconnected gateway is recovered by the client's resume). With `history`, a
 * JetStream stream also keeps what is published on some subjects, for a node that takes over
 * another's sessions. It reconnects for ever, re-subscribing on its own; close() drains.
 * @throws Error naming the server (without its password) when it cannot connect, or cannot keep
 * the history (no JetStream, or another stream holds the subjects).
 */
export async function createNatsBus(options: NatsBusOptions): Promise<EventBus> {
  const { name, subjectPrefix, connectTimeoutMs } = { ...DEFAULT_NATS_BUS_OPTIONS, ...options };
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
      ...extra,
    });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`Cannot connect to NATS at ${display}: ${reason}`, { cause: err });
  }

  let closing: Promise<void> | null = null;
  void nc.closed().then((err) => {
    if (err !== undefined && closing === null) report(err, {});
  });
  const ensureOpen = () => {
    if (closing !== null || nc.isClosed())
      throw new BusClosedError(`the bus to ${display} is closed`);
  };

  let history: EventHistory | null = null;
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

  return {
    driver: 'nats',
    history,
    publish(subject: string, event: BusEvent): Promise<void> {
      // The executor runs now, so publish order is call order; a throw rejects.
      return new Promise((resolve) => {
        ensureOpen();
        assertPublishSubject(subject);
        nc.publish(subjectPrefix + subject, encodeEvent(event));
        resolve();
      });
    },
    async subscribe(subject: string, handler: BusHandler): Promise<Subscription> {
      ensureOpen();
      assertSubscribeSubject(subject);
      let active = true;
      const sub = nc.subscribe(subjectPrefix + subject, {
        callback: (err, msg) => {
          if (err !== null) {
            report(err, { subject });
            return;
          }
          if (!active) return;
          const delivered = decodeDelivered(msg, subjectPrefix, report);
          if (delivered !== null) invokeHandler(handler, delivered, report);
        },
      });
      // Once the server answers the flush it holds the interest: later publishes reach us.
      await nc.flush();
      return {
        subject,
        unsubscribe() {
          if (!active) return;
          active = false;
          if (!nc.isClosed() && !nc.isDraining()) sub.unsubscribe();
        },
      };
    },
    async ping(): Promise<void> {
      ensureOpen();
      // While the client reconnects, flush waits; the readiness check bounds how long.
      await nc.flush();
    },
    close(): Promise<void> {
      closing ??= nc.isClosed() ? Promise.resolve() : nc.drain();
      return closing;
    },
  };
}
