import type { Logger } from 'pino';
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
  drop(sessionId: string): void;
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
  close: () => Promise.resolve(),
};

const FLUSH_EVERY_MS = 25;
const MAX_ROWS_PER_INSERT = 5000;

/**
 * The shared store over the database (PostgreSQL when several nodes run): the gateway_sessions
 * and gateway_replay tables. Replay entries are written in batches off the send path; a session
 * keeps at most `keep` entries.
 */
export function createDatabaseSessionStore(options: {
  storage: Storage;
  keep: number;
  logger: Logger;
  clock: { now(): number };
}): SessionStore {
  const { storage, keep, logger, clock } = options;
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
  return {
    shared: true,
    save(session) {
      writing = writing
        .then(() =>
          storage.gateway.saveSession({
            id: session.id,
            userId: session.userId,
            state: JSON.stringify(session),
            seq: 0,
            updatedAt: clock.now(),
          }),
        )
        .catch(fail);
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
      writing = writing.then(() => storage.gateway.deleteSession(sessionId)).catch(fail);
    },
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
