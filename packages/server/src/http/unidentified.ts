/**
 * @module http/unidentified: WebSocket connections that have not identified yet, for the gateway
 * and the voice gateway alike. One client address may hold at most `maxPerAddress` of them: an
 * upgrade past that is answered HTTP 429 before any WebSocket exists. Each has `timeoutMs` to
 * identify; its server's sweep asks {@link UnidentifiedConnections.overdue} and closes it with its
 * own close code. A connection stops counting once it identified (or resumed), or closed.
 */
import type { Duplex } from 'node:stream';
import type { Clock } from '../domain/clock.js';

export interface UnidentifiedLimits {
  /** Open connections not yet identified one client address may hold; more get HTTP 429. */
  maxPerAddress: number;
  /** How long a connection may stay without identifying, ms. */
  timeoutMs: number;
}

export interface UnidentifiedConnections<C> {
  /**
   * At an upgrade from `address`: true when it may go on; false when the address holds the most
   * already, and the socket was answered 429 and ended.
   */
  admit(address: string, socket: Duplex): boolean;
  /** The new connection counts against `address` from now until it identifies or closes. */
  add(conn: C, address: string): void;
  /** The connection identified or closed: it counts no longer (again: nothing happens). */
  remove(conn: C): void;
  /** Whether the connection still has not identified and its time to do so has passed. */
  overdue(conn: C, nowMs: number): boolean;
}

const TOO_MANY_UNIDENTIFIED =
  'HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Type: text/plain\r\n' +
  'Content-Length: 46\r\n\r\nToo many connections that have not identified.';

/** The count and deadlines of one server's unidentified connections (one process's). */
export function trackUnidentified<C>(deps: {
  clock: Clock;
  limits: UnidentifiedLimits;
}): UnidentifiedConnections<C> {
  const { clock, limits } = deps;
  const perAddress = new Map<string, number>();
  const waiting = new Map<C, { address: string; sinceMs: number }>();
  return {
    admit(address, socket) {
      if ((perAddress.get(address) ?? 0) < limits.maxPerAddress) return true;
      socket.end(TOO_MANY_UNIDENTIFIED);
      return false;
    },
    add(conn, address) {
      if (waiting.has(conn)) return;
      waiting.set(conn, { address, sinceMs: clock.now() });
      perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
    },
    remove(conn) {
      const entry = waiting.get(conn);
      if (entry === undefined) return;
      waiting.delete(conn);
      const left = (perAddress.get(entry.address) ?? 1) - 1;
      if (left <= 0) perAddress.delete(entry.address);
      else perAddress.set(entry.address, left);
    },
    overdue(conn, nowMs) {
      const entry = waiting.get(conn);
      return entry !== undefined && nowMs - entry.sinceMs > limits.timeoutMs;
    },
  };
}
