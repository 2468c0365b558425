/**
 * @module gateway/registry: the sessions this node serves, by id, by user and by the credential
 * (token hash) they logged in with, so a revocation finds them. The node watches the subject of
 * each user it serves sessions of while it has one.
 */
import { GatewayCloseCodes as Close } from '@guildhall/protocol';
import { userSubject } from '../events/dispatcher.js';
import type { Revocation } from '../events/revocations.js';
import type { GuildDirectory } from './guildDirectory.js';
import type { Sender } from './send.js';
import type { Session } from './session.js';
import type { SessionStore, StoredSession } from './sessionStore.js';
import type { SubjectSubscriptions } from '../bus/subscriptions.js';

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V) {
  const set = map.get(key) ?? new Set<V>();
  set.add(value);
  map.set(key, set);
}

function removeFrom<K, V>(map: Map<K, Set<V>>, key: K, value: V) {
  const set = map.get(key);
  set?.delete(value);
  if (set?.size === 0) map.delete(key);
}

/** What another node needs of a session to take it over. */
export function storedSession(session: Session): StoredSession {
  return {
    id: session.id,
    userId: session.userId,
    intents: session.intents,
    shard: [session.shard[0], session.shard[1]],
    obfuscate: session.obfuscate,
    largeThreshold: session.largeThreshold,
    grant: {
      kind: session.grant.kind,
      scopes: [...session.grant.scopes],
      applicationId: session.grant.applicationId ?? null,
    },
  };
}

export function createSessionRegistry(deps: {
  sessionStore: SessionStore;
  guilds: GuildDirectory;
  send: Sender;
  subscriptions: SubjectSubscriptions;
  /**
   * A user's last session on this node ended (not handed to another node): their presence
   * goes offline. Bots only when sessions are not shared: with several nodes their shards may
   * live on other nodes.
   */
  onPersonGone?: (userId: string) => void;
  /** A session ended here for good (not handed to another node): its voice states end. */
  onSessionEnded?: (session: Session) => void;
}) {
  const { sessionStore, guilds, send, subscriptions } = deps;
  const sessions = new Map<string, Session>();
  const byUser = new Map<string, Set<Session>>();
  const byCredential = new Map<string, Set<Session>>();

  /**
   * Adds a session; resolves once its user's dispatches reach this node (read what the session
   * starts from after that, so nothing falls in between).
   */
  const register = (session: Session): Promise<void> => {
    sessions.set(session.id, session);
    addTo(byUser, session.userId, session);
    addTo(byCredential, session.credential, session);
    return subscriptions.acquire(userSubject(session.userId));
  };

  /** Forgets a session (and, unless another node takes it over, its stored copy). */
  const drop = (session: Session, options: { keepStored?: boolean } = {}) => {
    if (options.keepStored !== true) sessionStore.drop(session.id);
    else sessionStore.release(session.id);
    if (!sessions.delete(session.id)) return;
    subscriptions.release(userSubject(session.userId));
    removeFrom(byUser, session.userId, session);
    removeFrom(byCredential, session.credential, session);
    for (const guildId of [...session.guildIds]) guilds.leave(session, guildId);
    if (options.keepStored !== true) deps.onSessionEnded?.(session);
    // A bot too when sessions are not shared (one node): no shard of it can live elsewhere.
    const mayBeElsewhere = session.user.bot && sessionStore.shared;
    if (options.keepStored !== true && !mayBeElsewhere && !byUser.has(session.userId)) {
      deps.onPersonGone?.(session.userId);
    }
  };

  /** A RESUME may bring another token of the same user (a reset bot token): it is the one now. */
  const changeCredential = (session: Session, credential: string) => {
    if (session.credential === credential || !sessions.has(session.id)) return;
    removeFrom(byCredential, session.credential, session);
    session.credential = credential;
    addTo(byCredential, credential, session);
  };

  /** Ends every session opened or resumed with a revoked credential: close 4004, no RESUME. */
  const revoke = (revocation: Pick<Revocation, 'tokenHashes' | 'userIds'>) => {
    const ended = new Set<Session>();
    for (const hash of revocation.tokenHashes) {
      for (const session of byCredential.get(hash) ?? []) ended.add(session);
    }
    for (const userId of revocation.userIds) {
      for (const session of byUser.get(userId) ?? []) ended.add(session);
    }
    for (const session of ended) {
      const conn = session.conn;
      session.conn = null;
      drop(session);
      if (conn !== null) send.close(conn, Close.AUTHENTICATION_FAILED, 'Authentication failed.');
    }
  };

  return {
    get: (sessionId: string) => sessions.get(sessionId),
    has: (sessionId: string) => sessions.has(sessionId),
    all: () => sessions.values(),
    /** The users with a session on this node. */
    users: () => byUser.keys(),
    size: () => sessions.size,
    /** The user's sessions on this node (none: undefined). */
    ofUser: (userId: string): ReadonlySet<Session> | undefined => byUser.get(userId),
    register,
    drop,
    changeCredential,
    revoke,
  };
}

export type SessionRegistry = ReturnType<typeof createSessionRegistry>;
