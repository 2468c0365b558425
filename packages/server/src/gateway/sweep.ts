/**
 * @module gateway/sweep: the periodic pass that closes connections that stopped heartbeating or
 * never identified, and forgets sessions not resumed in time. Time comes from the injected clock,
 * its turns from the injected timers.
 */
import { GatewayCloseCodes as Close } from '@guildhall/protocol';
import type { Timers } from '../domain/clock.js';
import type { Clock } from '../domain/clock.js';
import type { GatewayOptions } from './options.js';
import type { SessionRegistry } from './registry.js';
import type { Sender } from './send.js';
import type { Connection } from './session.js';

/** The sweep runs every half heartbeat interval, within these bounds. */
const MIN_SWEEP_INTERVAL_MS = 20;
const MAX_SWEEP_INTERVAL_MS = 5000;

export function startSweep(deps: {
  clock: Clock;
  timers: Timers;
  options: GatewayOptions;
  connections: ReadonlySet<Connection>;
  /** Whether a connection has not identified in time (http/unidentified.ts). */
  identifyOverdue: (conn: Connection, nowMs: number) => boolean;
  registry: SessionRegistry;
  send: Sender;
}): { stop(): void } {
  const { clock, options, connections, registry, send } = deps;
  const sweep = () => {
    const now = clock.now();
    const limit = options.heartbeatIntervalMs + options.heartbeatGraceMs;
    for (const conn of connections) {
      // Not identified in time (an IDENTIFY waiting its turn in the queue is not late).
      if (!conn.busy && deps.identifyOverdue(conn, now)) {
        send.close(conn, Close.NOT_AUTHENTICATED, 'Not identified in time.');
      } else if (now - conn.lastBeatAt > limit) {
        send.close(conn, Close.SESSION_TIMED_OUT, 'Session timed out.');
      }
    }
    for (const session of registry.all()) {
      if (session.conn === null && now - session.detachedAt > options.resumeWindowMs) {
        registry.drop(session);
      }
    }
  };
  const interval = Math.max(
    MIN_SWEEP_INTERVAL_MS,
    Math.min(options.heartbeatIntervalMs / 2, MAX_SWEEP_INTERVAL_MS),
  );
  let cancel: () => void;
  const turn = () => {
    cancel = deps.timers.schedule(turn, interval);
    sweep();
  };
  cancel = deps.timers.schedule(turn, interval);
  return {
    stop() {
      cancel();
    },
  };
}
