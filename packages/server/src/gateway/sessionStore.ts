import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { realTimers, type Clock, type Timers } from '../domain/clock.js';
import { startRepeatingPass } from '../domain/repeat.js';
import type { TokenGrant } from '../domain/tokenAccess.js';
import type { GatewayReplayEntry, Storage } from '../storage/index.js';
import type { EncodedDispatch } from './frames.js';
import type { DispatchSource } from './session.js';

/** What another node needs to take over a session on RESUME. */
export interface StoredSession {
  id: string;
  userId: string;
  intents: number;
  shard: [number, number];
  obfuscate: boolean;
  largeThreshold: number;
  /** The session's token grant; absent in a session an older node saved. */
  grant?: TokenGrant;
}

/** A stored session as read back, and when it was saved (epoch ms, by the saving node's clock). */
export type LoadedSession = StoredSession & { savedAt: number };

/**
 * Where sessions and their replay buffers live beyond the node that serves them. Each node keeps
 * its own sessions in memory too (the fast path for a RESUME on the same node); a shared store
 * lets a RESUME land on any node.
 */
export interface SessionStore {
  /** Whether another node can read what this store keeps. */
  readonly shared: boolean;
  save(session: StoredSession): void;
  record(entry: {
    sessionId: string;
    seq: number;
    event: EncodedDispatch;
    source: DispatchSource | null;
  }): void;
  /** Resolves once everything recorded so far is readable by other nodes. */
  flush(): Promise<void>;
  load(sessionId: string): Promise<LoadedSession | null>;
  /** Every entry kept for the session, oldest first. */
  replay(sessionId: string): Promise<GatewayReplayEntry[]>;
  /** The session ended: its stored copy goes. */
  drop(sessionId: string): void;
  /** Another node serves the session now: this one forgets it, its stored copy stays. */
  release(sessionId: string): void;
  close(): Promise<void>;
}

/** The single-process store: the node's own memory is all there is. */
export const LOCAL_SESSION_STORE: SessionStore = {
  shared: false,
  save: () => undefined,
  record: () => undefined,
  flush: () => Promise.resolve(),
  load: () => Promise.resolve(null),
  replay: () => Promise.resolve([]),
  drop: () => undefined,
  release: () => undefined,
  close: () => Promise.resolve(),
};

const FLUSH_EVERY_MS = 25;
const MAX_ROWS_PER_INSERT = 5000;
/** Sessions of dead nodes deleted per statement; a sweep repeats until a batch comes back short. */
const SWEEP_BATCH = 100;

/** How a node of the shared store says it is alive and sweeps the sessions of dead ones. */
export interface SessionStoreOptions {
  /** How often the node's heartbeat is written. */
  heartbeatMs: number;
  /** How often the node sweeps the sessions of nodes taken for dead. */
  sweepEveryMs: number;
}

export const DEFAULT_SESSION_STORE_OPTIONS = {
  heartbeatMs: 10_000,
  sweepEveryMs: 60_000,
} as const satisfies SessionStoreOptions;

/** Heartbeats a node may miss (a slow database) before its silence counts. */
const MISSED_HEARTBEATS = 3;

/**
 * The shared store over the database (PostgreSQL when several nodes run): the gateway_sessions
 * and gateway_replay tables. Replay entries are written in batches off the send path; a session
 * keeps at most `keep` entries.
 *
 * Each row names the node serving the session, and each node writes its heartbeat to
 * gateway_nodes. Once a node has been silent for the resume window (and a few heartbeats more),
 * no client can resume its sessions anywhere: every node sweeps their rows. A node that was cut
 * off from the database that long stores its sessions again when it is back.
 */
export function createDatabaseSessionStore(
  options: {
    storage: Storage;
    keep: number;
    logger: Logger;
    clock: Clock;
    /** How long a session stays resumable after its connection drops (the gateway's). */
    resumeWindowMs: number;
    timers?: Timers;
  } & Partial<SessionStoreOptions>,
): SessionStore {
  const { storage, keep, logger, clock } = options;
  const { heartbeatMs, sweepEveryMs } = { ...DEFAULT_SESSION_STORE_OPTIONS, ...options };
  const timers = options.timers ?? realTimers;
  const node = randomBytes(8).toString('hex');
  const deadAfterMs = options.resumeWindowMs + MISSED_HEARTBEATS * heartbeatMs;
  /** The sessions this node serves, as stored (to store them again after a long silence). */
  const served = new Map<string, StoredSession>();
  let pending: GatewayReplayEntry[] = [];
  let writing: Promise<void> = Promise.resolve();
  const fail = (err: unknown) => {
    logger.error({ err }, 'gateway: session store write failed');
  };
  const flush = () => {
    if (pending.length === 0) return writing;
    const batch = pending;
    pending = [];
    writing = writing
      .then(async () => {
        for (let i = 0; i < batch.length; i += MAX_ROWS_PER_INSERT) {
          await storage.gateway.appendReplay(batch.slice(i, i + MAX_ROWS_PER_INSERT), keep);
        }
      })
      .catch(fail);
    return writing;
  };
  const timer = setInterval(() => {
    void flush();
  }, FLUSH_EVERY_MS);
  timer.unref();
  const write = (session: StoredSession) => {
    writing = writing
      .then(() =>
        storage.gateway.saveSession({
          id: session.id,
          userId: session.userId,
          state: JSON.stringify(session),
          seq: 0,
          updatedAt: clock.now(),
          node,
        }),
      )
      .catch(fail);
  };

  let lastBeatAt: number | null = null;
  let stopBeating: (() => void) | null = null;
  const beat = () => {
    writing = writing
      .then(async () => {
        const at = clock.now();
        await storage.gateway.heartbeatNode(node, at);
        // Silent this long, this node was taken for dead and its sessions swept: store them again.
        const sweptMeanwhile = lastBeatAt !== null && at - lastBeatAt > deadAfterMs;
        lastBeatAt = at;
        if (sweptMeanwhile) {
          logger.warn({ sessions: served.size }, 'gateway: node was silent; sessions stored again');
          for (const session of served.values()) write(session);
        }
      })
      .catch((err: unknown) => {
        logger.warn({ err }, 'gateway: node heartbeat not written');
      });
    stopBeating = timers.schedule(beat, heartbeatMs);
  };
  beat();
  const sweeper = startRepeatingPass({
    async pass() {
      let swept = 0;
      for (;;) {
        const n = await storage.gateway.sweepDeadNodes(clock.now() - deadAfterMs, SWEEP_BATCH);
        swept += n;
        if (n < SWEEP_BATCH) return swept;
      }
    },
    timers,
    intervalMs: sweepEveryMs,
    onError: (err) => {
      logger.warn({ err }, "gateway: dead nodes' sessions not swept");
    },
  });

  return {
    shared: true,
    save(session) {
      served.set(session.id, session);
      write(session);
    },
    record({ sessionId, seq, event, source }) {
      pending.push({ sessionId, seq, type: event.type, data: event.json(), source });
    },
    flush,
    async load(sessionId) {
      await flush();
      const row = await storage.gateway.findSession(sessionId);
      if (row === null) return null;
      return { ...(JSON.parse(row.state) as StoredSession), savedAt: row.updatedAt };
    },
    async replay(sessionId) {
      await flush();
      return storage.gateway.replaySince(sessionId, -1);
    },
    drop(sessionId) {
      served.delete(sessionId);
      writing = writing.then(() => storage.gateway.deleteSession(sessionId)).catch(fail);
    },
    release(sessionId) {
      served.delete(sessionId);
    },
    async close() {
      clearInterval(timer);
      stopBeating?.();
      await sweeper.stop();
      await flush();
    },
  };
}
