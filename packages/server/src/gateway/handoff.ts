/**
 * @module gateway/handoff: a RESUME on another node. The resuming node first watches the
 * session's subjects (its user's and its guilds') and holds what they bring for it; then it asks
 * for the session on RELEASE. The node serving it detaches it, writes out what it buffered for
 * it, and answers on RELEASED with the bus dispatches it sent. The resuming node waits for that
 * answer, reads the replay, and sends what it held that the old node did not: nothing published
 * while the session changes hands is lost, and nothing is sent twice.
 *
 * When the old node does not answer within RELEASE_TIMEOUT_MS (it died), its last entries may
 * never have been stored: what the session missed is read from the bus history
 * (gateway/recovery.ts) and sent before what was held, and the client's RESUME seq, which may be
 * past the stored entries, is accepted.
 */
import { randomBytes } from 'node:crypto';
import { GatewayCloseCodes as Close } from '@guildhall/protocol';
import type { EventBus, Subscription } from '../bus/index.js';
import type { Timers } from '../domain/clock.js';
import type { Clock } from '../domain/clock.js';
import type { TokenGrant } from '../domain/tokenAccess.js';
import type { Storage } from '../storage/index.js';
import { PreserializedDispatch } from './frames.js';
import type { GuildCreate } from './guildCreate.js';
import { scalarText } from './guildState.js';
import { storedSession, type SessionRegistry } from './registry.js';
import type { Sender } from './send.js';
import { inShard, type HeldDispatch, type Session } from './session.js';
import type { GatewayReplayEntry } from '../storage/index.js';
import type { Recover } from './recovery.js';
import type { Lifecycle } from './lifecycle.js';
import type { LoadedSession, SessionStore } from './sessionStore.js';

/** Where a node asks for a session another node serves (exported for tests). */
export const SESSION_RELEASE_SUBJECT = 'gateway.session-release';
const SESSION_RELEASED_SUBJECT = 'gateway.session-released';
const RELEASE_TIMEOUT_MS = 2000;

export function createHandoff(deps: {
  storage: Storage;
  bus: EventBus;
  clock: Clock;
  timers: Timers;
  sessionStore: SessionStore;
  registry: SessionRegistry;
  send: Sender;
  joinGuild: GuildCreate;
  /** What a session taken over from a node that died missed (gateway/recovery.ts). */
  recover: Recover;
  /** Where a takeover is logged and counted. */
  lifecycle: Pick<Lifecycle, 'takenOver'>;
}) {
  const { storage, bus, clock, timers, sessionStore, registry, send, joinGuild } = deps;
  const nodeId = randomBytes(8).toString('hex');
  /** Resuming sessions waiting for their old node to let go, by session id. */
  const releaseWaits = new Map<string, (sent: ReadonlySet<string>) => void>();
  const subscriptions: Subscription[] = [];

  const announce = (subject: string, type: string, data: { sessionId: string; sent?: string[] }) =>
    bus.publish(subject, {
      type,
      topic: data.sessionId,
      data: { ...data, node: nodeId },
      publishedAt: clock.now(),
    });

  /** The fields of another node's message (null for this node's own). */
  const fromOtherNode = (data: unknown): Record<string, unknown> | null => {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
    const fields = data as Record<string, unknown>;
    return fields['node'] === nodeId ? null : fields;
  };

  /**
   * Asks the node serving a session to let it go, and waits until it has. Resolves to the bus
   * dispatches (envelope ids) that node sent the session, or to null when no node answered.
   */
  const releaseFromOtherNode = async (sessionId: string): Promise<ReadonlySet<string> | null> => {
    let cancel: (() => void) | undefined;
    const released = new Promise<ReadonlySet<string> | null>((resolve) => {
      releaseWaits.set(sessionId, resolve);
      cancel = timers.schedule(() => {
        resolve(null);
      }, RELEASE_TIMEOUT_MS);
    });
    try {
      await announce(SESSION_RELEASE_SUBJECT, 'SESSION_RELEASE', { sessionId });
      return await released;
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
    const sent = new Set<string>();
    for (const entry of taken.replay) if (entry.source !== null) sent.add(entry.source.id);
    await sessionStore.flush();
    await announce(SESSION_RELEASED_SUBJECT, 'SESSION_RELEASED', { sessionId, sent: [...sent] });
  };

  /**
   * No node answered for the session: what the history holds that the stored entries lack goes
   * first, then what was held, less what either holds. The client may have seen what the old
   * node sent but never stored: its RESUME `seq` is taken, and numbering goes on after it.
   * Resolves to the dispatches (ids) already sent, which held ones must not repeat; or to null
   * when the session cannot be resumed whole: no history, and the client saw more than is stored.
   */
  const takeOverFromDeadNode = async (
    session: Session,
    input: { entries: readonly GatewayReplayEntry[]; savedAt: number; resumeSeq: number },
  ): Promise<ReadonlySet<string> | null> => {
    const { entries, savedAt, resumeSeq } = input;
    const stored = new Set<string>();
    for (const entry of entries) if (entry.source !== null) stored.add(entry.source.id);
    const missed = await deps.recover(session, { stored: entries, savedAt });
    if (missed === null) {
      if (resumeSeq > session.seq) return null;
      deps.lifecycle.takenOver(session, { from: 'dead', recovered: null });
      return stored;
    }
    deps.lifecycle.takenOver(session, { from: 'dead', recovered: missed.length });
    session.seq = Math.max(session.seq, resumeSeq);
    const recovered = new Set<string>();
    for (const held of missed) if (held.source !== null) recovered.add(held.source.id);
    const notRecovered = (held: HeldDispatch) =>
      held.source === null || !recovered.has(held.source.id);
    session.held = [...missed, ...(session.held ?? []).filter(notRecovered)];
    return stored;
  };

  /**
   * Takes over a session another node served (RESUME through the shared store): its settings,
   * its guilds (without sending GUILD_CREATE again) and its replay buffer, followed by what was
   * published while it changed hands. `resume.seq` is the client's last seq.
   */
  const adopt = async (
    loaded: LoadedSession,
    resume: { seq: number; sdk: boolean; applicationId: string | null; grant: TokenGrant },
  ): Promise<Session | null> => {
    const { savedAt, ...stored } = loaded;
    const sessionId = stored.id;
    const user = await storage.users.findById(stored.userId);
    if (user === null) return null;
    const application = user.bot ? await storage.applications.findByBotUserId(user.id) : null;
    const session: Session = {
      ...stored,
      shard: [stored.shard[0], stored.shard[1]],
      user,
      isApp: user.bot,
      // An SDK session is the resuming token's: its application, no guilds.
      applicationId: resume.sdk ? resume.applicationId : (application?.id ?? null),
      sdk: resume.sdk,
      // The resuming token's, which the RESUME checked reads what the stored one did.
      grant: resume.grant,
      seq: 0,
      guildIds: new Set(),
      // Set by the RESUME that adopts it, once its token is checked.
      credential: '',
      conn: null,
      detachedAt: clock.now(),
      replay: [],
      // What arrives for it is held until the old node's replay is read.
      held: [],
    };
    try {
      await registry.register(session);
      const guildRecords = resume.sdk ? [] : await storage.guilds.listForUser(user.id);
      const guildIds = guildRecords.map((g) => g.id).filter((id) => inShard(id, session.shard));
      const members = await storage.members.findForUser(user.id, guildIds);
      // No GUILD_CREATE goes out, so the guilds are joined in no particular order.
      await Promise.all(
        members.map((self) => joinGuild(session, { guildId: self.guildId, self, announce: false })),
      );
      const sent = await releaseFromOtherNode(sessionId);
      const entries = await sessionStore.replay(sessionId);
      session.seq = entries.at(-1)?.seq ?? 0;
      for (const e of entries) {
        session.replay.push({
          seq: e.seq,
          event: new PreserializedDispatch(e.type, e.data),
          source: e.source,
        });
      }
      if (sent !== null) deps.lifecycle.takenOver(session, { from: 'live', recovered: null });
      const skip =
        sent ?? (await takeOverFromDeadNode(session, { entries, savedAt, resumeSeq: resume.seq }));
      if (skip === null) {
        registry.drop(session);
        return null;
      }
      send.releaseHeld(session, { skip });
      // Its row names this node now, so it is not swept with the node it came from.
      sessionStore.save(storedSession(session));
      return session;
    } catch (err) {
      registry.drop(session, { keepStored: true });
      throw err;
    }
  };

  return {
    /** Answers other nodes' RELEASE and waits on their RELEASED. */
    async start() {
      subscriptions.push(
        await bus.subscribe(SESSION_RELEASE_SUBJECT, (event) => {
          const fields = fromOtherNode(event.data);
          return fields === null ? undefined : releaseToOtherNode(scalarText(fields['sessionId']));
        }),
        await bus.subscribe(SESSION_RELEASED_SUBJECT, (event) => {
          const fields = fromOtherNode(event.data);
          if (fields === null) return;
          const sent = Array.isArray(fields['sent']) ? fields['sent'].map(String) : [];
          releaseWaits.get(scalarText(fields['sessionId']))?.(new Set(sent));
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
