/**
 * @module gateway/lifecycle: what an operator watches of the gateway's sessions. Each event of a
 * session's life (IDENTIFY, RESUME, a takeover from a node that died, INVALID_SESSION, a close)
 * is one info line, with the session id and shard and never a token, and a count for /metrics
 * (gateway/metrics.ts writes them out). The hot path's figures (dispatches sent and dropped) are
 * plain numbers the sender adds to.
 */
import { GatewayCloseCodes } from '@guildhall/protocol';
import type { Logger } from 'pino';
import { Histogram, LabelledCounts, labelText } from '../domain/metricText.js';
import type { Connection, Session } from './session.js';

/** Upper bounds of the identify queue wait histogram, seconds (a bucket admits every 5 s). */
const IDENTIFY_WAIT_BOUNDS_SECONDS = [0, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

const CLOSE_NAMES = new Map<number, string>(
  Object.entries(GatewayCloseCodes).map(([name, code]) => [code, name.toLowerCase()]),
);

/** Why a login was refused, for a label: the close code's name, or the code itself. */
export function refusalReason(code: number): string {
  return CLOSE_NAMES.get(code) ?? String(code);
}

/**
 * Why an IDENTIFY or a RESUME was refused: a close code's name (refusalReason), or one of
 * `session_start_limit`, `unknown_session`, `grant_changed`, `handoff_failed`, `replay_expired`,
 * `fault` (a test harness's answer).
 */
export type RefusalReason = string;

/** Why a session got INVALID_SESSION: a refusal's reason, or `bus_gap`. */
export type InvalidSessionReason = string;

/** What an INVALID_SESSION answers, for its log line. */
export interface InvalidSessionDetail {
  resumable: boolean;
  reason: InvalidSessionReason;
  /** The session it concerns when the connection no longer names it. */
  session?: Session | null;
  /** The IDENTIFY or RESUME it refuses (what the line says of it: no session exists yet). */
  login?: {
    kind: 'identify' | 'resume';
    detail: { userId?: string; sessionId?: string; shard?: readonly [number, number] };
  };
}

/** The gateway's counters, read at each scrape. */
export interface GatewayStats {
  /** By `result` (ok, refused) and `reason`. */
  identifies: LabelledCounts;
  resumes: LabelledCounts;
  /** Dispatches written to a connection. */
  dispatchesSent: number;
  /** Dispatches not written, by `reason`. */
  dispatchesDropped: LabelledCounts;
  invalidSessions: LabelledCounts;
  /** Connections closed, by `code` and who closed (`by`: server, client). */
  closes: LabelledCounts;
  /** Seconds a bot's IDENTIFY waited for its identify bucket. */
  identifyWait: Histogram;
  /** Reads of the bus history for a session taken over from a node that died, by `result`. */
  historyReplays: LabelledCounts;
  /** Dispatches those reads recovered. */
  historyReplayedDispatches: number;
  /** Sessions taken over from another node, by `from` (live, dead). */
  takeovers: LabelledCounts;
}

const OK = labelText({ result: 'ok' });

/** The shard as logs show it: `[id, count]`. */
type Shard = readonly [number, number];

export function createLifecycle(logger: Logger) {
  const stats: GatewayStats = {
    identifies: new LabelledCounts(),
    resumes: new LabelledCounts(),
    dispatchesSent: 0,
    dispatchesDropped: new LabelledCounts(),
    invalidSessions: new LabelledCounts(),
    closes: new LabelledCounts(),
    identifyWait: new Histogram(IDENTIFY_WAIT_BOUNDS_SECONDS),
    historyReplays: new LabelledCounts(),
    historyReplayedDispatches: 0,
    takeovers: new LabelledCounts(),
  };
  const refused = (reason: string) => labelText({ result: 'refused', reason });
  const who = (session: Session) => ({
    sessionId: session.id,
    shard: session.shard,
    userId: session.userId,
  });

  return {
    stats,
    identified(session: Session, conn: Connection) {
      stats.identifies.add(OK);
      logger.info(
        {
          ...who(session),
          intents: session.intents,
          encoding: conn.encoding,
          compression: compressionOf(conn),
        },
        'gateway: session identified',
      );
    },
    /**
     * An IDENTIFY or a RESUME refused: counted, and logged unless its answer is logged on its
     * own (an INVALID_SESSION's line names the login it answers).
     */
    loginRefused(
      kind: 'identify' | 'resume',
      reason: RefusalReason,
      detail: { userId?: string; sessionId?: string; shard?: Shard; log?: boolean },
    ) {
      const { log = true, ...fields } = detail;
      (kind === 'identify' ? stats.identifies : stats.resumes).add(refused(reason));
      if (log) logger.info({ ...fields, reason }, `gateway: ${kind} refused`);
    },
    /** The bot's IDENTIFY waited `seconds` for its turn in the identify bucket. */
    identifyWaited(seconds: number) {
      stats.identifyWait.observe(seconds);
    },
    resumed(session: Session, detail: { seq: number; replayed: number }) {
      stats.resumes.add(OK);
      logger.info({ ...who(session), ...detail }, 'gateway: session resumed');
    },
    /**
     * A session another node served is now this node's: handed over (`live`), or read back from
     * the store and the bus history because its node did not answer (`dead`).
     */
    takenOver(session: Session, detail: { from: 'live' | 'dead'; recovered: number | null }) {
      stats.takeovers.add(labelText({ from: detail.from }));
      if (detail.from === 'live') return;
      logger.info(
        { ...who(session), recovered: detail.recovered },
        'gateway: session taken over from a dead node',
      );
    },
    /** A read of the bus history: what it recovered, or null when the bus keeps none. */
    historyReplayed(recovered: number | null) {
      stats.historyReplays.add(labelText({ result: recovered === null ? 'no_history' : 'ok' }));
      if (recovered !== null) stats.historyReplayedDispatches += recovered;
    },
    invalidSession(conn: Connection, detail: InvalidSessionDetail) {
      const { resumable, reason } = detail;
      stats.invalidSessions.add(labelText({ resumable: String(resumable), reason }));
      const session = detail.session ?? conn.session;
      const login = detail.login;
      logger.info(
        {
          ...(session === null ? {} : who(session)),
          ...(login === undefined ? {} : { login: login.kind, ...login.detail }),
          resumable,
          reason,
        },
        'gateway: invalid session',
      );
    },
    /** A connection closed: with the code and reason the server sent, or the client's. */
    closed(conn: Connection, close: { code: number; reason: string; by: 'server' | 'client' }) {
      stats.closes.add(labelText({ code: close.code, by: close.by }));
      const session = conn.session;
      logger.info(
        { ...(session === null ? {} : who(session)), ...close },
        'gateway: connection closed',
      );
    },
  };
}

export type Lifecycle = ReturnType<typeof createLifecycle>;

/** How a connection's frames are compressed: zlib-stream, per payload, or not at all. */
export function compressionOf(conn: Connection): 'zlib-stream' | 'payload' | 'none' {
  if (conn.transport.zlibStream) return 'zlib-stream';
  return conn.transport.compressPayloads ? 'payload' : 'none';
}
