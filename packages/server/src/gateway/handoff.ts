/**
 * @module gateway/handoff: a RESUME on another node. The resuming node asks for the session on
 * RELEASE; the node serving it detaches it, writes out what it buffered for it, and answers on
 * RELEASED. The resuming node waits for that answer (or, when the old node is gone,
 * RELEASE_TIMEOUT_MS) before it reads the replay, so nothing the old node received is missed.
 */
import { randomBytes } from 'node:crypto';
import { GatewayCloseCodes as Close } from '@guildhall/protocol';
import type { EventBus, Subscription } from '../bus/index.js';
import type { Timers } from '../domain/clock.js';
import type { Clock } from '../domain/clock.js';
import type { Storage } from '../storage/index.js';
import { PreserializedDispatch } from './frames.js';
import type { GuildDirectory } from './guildDirectory.js';
import { scalarText } from './guildState.js';
import type { SessionRegistry } from './registry.js';
import type { Sender } from './send.js';
import { inShard, type Session } from './session.js';
import type { SessionStore, StoredSession } from './sessionStore.js';

const SESSION_RELEASE_SUBJECT = 'gateway.session-release';
const SESSION_RELEASED_SUBJECT = 'gateway.session-released';
const RELEASE_TIMEOUT_MS = 2000;

export function createHandoff(deps: {
  storage: Storage;
  bus: EventBus;
  clock: Clock;
  timers: Timers;
  sessionStore: SessionStore;
  registry: SessionRegistry;
  guilds: GuildDirectory;
  send: Sender;
}) {
  const { storage, bus, clock, timers, sessionStore, registry, guilds, send } = deps;
  const nodeId = randomBytes(8).toString('hex');
  /** Resuming sessions waiting for their old node to let go, by session id. */
  const releaseWaits = new Map<string, () => void>();
  const subscriptions: Subscription[] = [];

  const announce = (subject: string, type: string, sessionId: string) =>
    bus.publish(subject, {
      type,
      topic: sessionId,
      data: { sessionId, node: nodeId },
      publishedAt: clock.now(),
    });

  /** The session id of another node's message (null for this node's own). */
  const fromOtherNode = (data: unknown): string | null => {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
    const fields = data as Record<string, unknown>;
    return fields['node'] === nodeId ? null : scalarText(fields['sessionId']);
  };

  /** Asks the node serving a session to let it go, and waits until it has (or is silent). */
  const releaseFromOtherNode = async (sessionId: string): Promise<void> => {
    let cancel: (() => void) | undefined;
    const released = new Promise<void>((resolve) => {
      releaseWaits.set(sessionId, resolve);
      cancel = timers.schedule(resolve, RELEASE_TIMEOUT_MS);
    });
    try {
      await announce(SESSION_RELEASE_SUBJECT, 'SESSION_RELEASE', sessionId);
      await released;
    } finally {
      cancel?.();
      releaseWaits.delete(sessionId);
    }
  };

  /** Another node resumes one of ours: detach it, write out its replay, then say so. */
  const releaseToOtherNode = async (sessionId: string): Promise<void> => {
    const taken = registry.get(sessionId);
    if (taken === undefined) return;
    if (taken.conn !== null)
      send.close(taken.conn, Close.UNKNOWN_ERROR, 'Session resumed elsewhere.');
    taken.conn = null;
    registry.drop(taken, { keepStored: true });
    await sessionStore.flush();
    await announce(SESSION_RELEASED_SUBJECT, 'SESSION_RELEASED', sessionId);
  };

  /**
   * Takes over a session another node served (RESUME through the shared store): its settings,
   * its replay buffer and its guilds, without sending GUILD_CREATE again.
   */
  const adopt = async (stored: StoredSession): Promise<Session | null> => {
    const sessionId = stored.id;
    await releaseFromOtherNode(sessionId);
    const [user, entries] = await Promise.all([
      storage.users.findById(stored.userId),
      sessionStore.replay(sessionId),
    ]);
    if (user === null) return null;
    const application = user.bot ? await storage.applications.findByBotUserId(user.id) : null;
    const session: Session = {
      ...stored,
      shard: [stored.shard[0], stored.shard[1]],
      user,
      isApp: user.bot,
      applicationId: application?.id ?? null,
      seq: entries.at(-1)?.seq ?? 0,
      guildIds: new Set(),
      // Set by the RESUME that adopts it, once its token is checked.
      credential: '',
      conn: null,
      detachedAt: clock.now(),
      replay: entries.map((e) => ({
        seq: e.seq,
        event: new PreserializedDispatch(e.type, e.data),
      })),
    };
    registry.register(session);
    const guildRecords = await storage.guilds.listForUser(user.id);
    const guildIds = guildRecords.map((g) => g.id).filter((id) => inShard(id, session.shard));
    const members = await storage.members.findForUser(user.id, guildIds);
    for (const member of members) {
      const state = guilds.stateOf(member.guildId);
      state.setMember(user.id, {
        roleIds: member.roleIds,
        communicationDisabledUntil: member.communicationDisabledUntil,
        joinedAt: new Date(member.joinedAt).toISOString(),
      });
      if ((await guilds.snapshotOf(state)) === null) continue;
      state.sessions.add(session);
      session.guildIds.add(member.guildId);
    }
    return session;
  };

  return {
    /** Answers other nodes' RELEASE and waits on their RELEASED. */
    async start() {
      subscriptions.push(
        await bus.subscribe(SESSION_RELEASE_SUBJECT, (event) => {
          const sessionId = fromOtherNode(event.data);
          return sessionId === null ? undefined : releaseToOtherNode(sessionId);
        }),
        await bus.subscribe(SESSION_RELEASED_SUBJECT, (event) => {
          const sessionId = fromOtherNode(event.data);
          if (sessionId !== null) releaseWaits.get(sessionId)?.();
        }),
      );
    },
    adopt,
    stop() {
      for (const subscription of subscriptions) subscription.unsubscribe();
    },
  };
}

export type Handoff = ReturnType<typeof createHandoff>;
