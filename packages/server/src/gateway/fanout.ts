/**
 * @module gateway/fanout: the dispatches of the bus to this node's sessions. The node receives
 * the subjects of the guilds and users it serves (bus/subscriptions.ts). A guild's dispatch
 * first updates the guild's model (roles, channels, members: what permissions are computed
 * from), then goes to each session in the guild in the form gateway/routing.ts decides; a user's
 * dispatch goes to the user's sessions, and a member's GUILD_MEMBER_ADD, on the member's subject,
 * makes its sessions join the guild.
 */
import type { Logger } from 'pino';
import type { BusEvent, KeptEvent } from '../bus/index.js';
import type { Clock } from '../domain/clock.js';
import type { DispatchBody } from '../domain/dispatch.js';
import { mayAccess } from '../domain/tokenAccess.js';
import {
  GUILD_SUBJECT_PREFIX,
  USER_SUBJECT_PREFIX,
  type DispatchEnvelope,
} from '../events/dispatcher.js';
import type { Storage } from '../storage/index.js';
import { inRemoteSpan } from '../events/tracing.js';
import { busDispatch, type BusDispatch } from './decode.js';
import { EncodedDispatch } from './frames.js';
import type { GuildCreate } from './guildCreate.js';
import type { GuildDirectory } from './guildDirectory.js';
import type { GuildState } from './guildState.js';
import type { Presences } from './presences.js';
import type { SessionRegistry } from './registry.js';
import {
  friendPresenceWire,
  newFriendOf,
  receivesUserDispatch,
  routeGuildDispatch,
} from './routing.js';
import type { Sender } from './send.js';
import { userDispatchForms } from './tokenRouting.js';
import { inShard, type DispatchSource, type HeldDispatch, type Session } from './session.js';

/**
 * Dispatches that leave a guild's GUILD_CREATE as it was, so a busy guild keeps its snapshot for
 * the identifies that come while messages flow.
 */
const SNAPSHOT_NEUTRAL_EVENTS = new Set([
  // Not MESSAGE_CREATE: it moves the channel's last_message_id.
  'MESSAGE_UPDATE',
  'MESSAGE_DELETE',
  'MESSAGE_DELETE_BULK',
  'MESSAGE_REACTION_ADD',
  'MESSAGE_REACTION_REMOVE',
  'MESSAGE_REACTION_REMOVE_ALL',
  'MESSAGE_REACTION_REMOVE_EMOJI',
  'MESSAGE_POLL_VOTE_ADD',
  'MESSAGE_POLL_VOTE_REMOVE',
  'TYPING_START',
  'CHANNEL_PINS_UPDATE',
  'EMBEDDED_ACTIVITY_UPDATE',
  'INVITE_CREATE',
  'INVITE_DELETE',
  'GUILD_AUDIT_LOG_ENTRY_CREATE',
  'VOICE_CHANNEL_STATUS_UPDATE',
  'VOICE_SERVER_UPDATE',
]);

/** Keeps the guild's permission model current with one of its dispatches. */
function applyToModel(state: GuildState<Session>, body: DispatchBody) {
  if (body.type === 'GUILD_ROLE_CREATE' || body.type === 'GUILD_ROLE_UPDATE') {
    state.setRole(body.data.role);
  } else if (body.type === 'GUILD_ROLE_DELETE') {
    const roleId = body.data.role_id;
    state.roles.delete(roleId);
    for (const [userId, member] of state.members) {
      if (member.roleIds.includes(roleId)) {
        state.members.set(userId, {
          ...member,
          roleIds: member.roleIds.filter((r) => r !== roleId),
        });
      }
    }
    state.invalidate();
  } else if (body.type === 'CHANNEL_CREATE' || body.type === 'CHANNEL_UPDATE') {
    state.setChannel(body.data);
  } else if (body.type === 'CHANNEL_DELETE') {
    const channelId = body.data.id;
    state.channels.delete(channelId);
    for (const thread of [...state.threads.values()]) {
      if (thread.parentId === channelId) state.threads.delete(thread.id);
    }
    state.invalidate();
  } else if (body.type === 'THREAD_CREATE' || body.type === 'THREAD_UPDATE') {
    state.setThread(body.data);
  } else if (body.type === 'THREAD_DELETE') {
    state.threads.delete(body.data.id);
    state.invalidate();
  } else if (body.type === 'THREAD_MEMBERS_UPDATE') {
    const { data } = body;
    const added = (data.added_members ?? []).map((m) => m.user_id);
    state.updateThreadMembers(data.id, added, data.removed_member_ids ?? []);
  } else if (body.type === 'GUILD_MEMBER_UPDATE') {
    const { data } = body;
    const known = state.members.get(data.user.id);
    if (known !== undefined) {
      const until = data.communication_disabled_until;
      state.setMember(data.user.id, {
        roleIds: data.roles,
        communicationDisabledUntil: until === null ? null : Date.parse(until),
        joinedAt: known.joinedAt,
      });
    }
  } else if (body.type === 'GUILD_UPDATE') {
    state.ownerId = body.data.owner_id;
    state.invalidate();
  }
}

/** Whether a dispatch addressed to one session (`DispatchEnvelope.sessionId`) is for this one. */
function forSession(session: Session, envelope: DispatchEnvelope): boolean {
  return envelope.sessionId === undefined || envelope.sessionId === session.id;
}

/**
 * Whether a user-addressed dispatch meant for one shard (`DispatchEnvelope.shard`) is for this
 * session: the shard holding its guild, shard 0 for a DM; every session when it names none.
 */
function inDispatchShard(session: Session, envelope: DispatchEnvelope): boolean {
  if (envelope.shard === undefined) return true;
  const guildId = envelope.shard.guildId;
  return guildId === null ? session.shard[0] === 0 : inShard(guildId, session.shard);
}

export function createFanout(deps: {
  storage: Storage;
  clock: Clock;
  logger: Logger;
  registry: SessionRegistry;
  guilds: GuildDirectory;
  send: Sender;
  joinGuild: GuildCreate;
  presences: Pick<Presences, 'get'>;
  /** Dispatches written to connections so far (the span of a traced dispatch counts its own). */
  sent: () => number;
}) {
  const { storage, clock, logger, registry, guilds, send, joinGuild, presences } = deps;

  /**
   * After RELATIONSHIP_ADD of a friendship: the new friend's current presence to the sessions that
   * received it, when the friend is online (docs/gateway.md#sdk-sessions).
   */
  const sendFriendPresence = (sessions: readonly Session[], friendId: string) => {
    presences
      .get([friendId])
      .then((live) => {
        const wire = friendPresenceWire(friendId, live.get(friendId));
        if (wire === null) return;
        const event = new EncodedDispatch('PRESENCE_UPDATE', wire);
        for (const session of sessions) send.deliver(session, event);
      })
      .catch((err: unknown) => {
        logger.warn({ err }, 'gateway: new friend presence not sent');
      });
  };

  /** A new member's sessions on this node join the guild (those whose shard holds it). */
  const onGuildMemberAdd = async (userId: string, guildId: string, source: DispatchSource) => {
    const mine = registry.ofUser(userId);
    if (mine === undefined) return;
    const member = await storage.members.find(guildId, userId);
    if (member === null) return;
    for (const session of mine) {
      // An SDK session joins no guild (docs/gateway.md#sdk-sessions).
      if (session.sdk || session.guildIds.has(guildId) || !inShard(guildId, session.shard)) {
        continue;
      }
      await joinGuild(session, { guildId, self: member, source });
    }
  };

  const onGuildDispatch = ({ type, envelope, received, source }: BusDispatch) => {
    const guildId = envelope.guildId;
    if (guildId === null) return;
    const state = guilds.get(guildId);
    if (state === undefined) return;
    if (!SNAPSHOT_NEUTRAL_EVENTS.has(type)) {
      state.generation++;
      state.snapshot = null;
    }
    const route = routeGuildDispatch(
      state,
      { received, channelId: envelope.channelId },
      clock.now(),
    );
    if (received.known) applyToModel(state, received.body);
    const removedUserId =
      received.known && received.body.type === 'GUILD_MEMBER_REMOVE'
        ? received.body.data.user.id
        : null;
    for (const session of [...state.sessions]) {
      if (!forSession(session, envelope)) continue;
      const event = route.eventFor(session);
      if (event === null) continue;
      send.deliver(session, event, source);
      if (removedUserId === session.userId) {
        send.deliver(
          session,
          new EncodedDispatch('GUILD_DELETE', { id: guildId, unavailable: false }),
          source,
        );
        guilds.leave(session, guildId);
      }
    }
    if (type === 'GUILD_DELETE') {
      for (const session of [...state.sessions]) guilds.leave(session, guildId);
      guilds.forget(guildId);
    }
    for (const [session, event] of route.visibilityChanges()) send.deliver(session, event, source);
  };

  const onUserDispatch = (userId: string, { type, envelope, received, source }: BusDispatch) => {
    // A guild's dispatch on a user's subject says the user joined: the guild's own subject
    // delivers it to the sessions in the guild.
    if (envelope.guildId !== null) {
      if (type !== 'GUILD_MEMBER_ADD') return;
      const guildId = envelope.guildId;
      onGuildMemberAdd(userId, guildId, source).catch((err: unknown) => {
        logger.error({ err, guildId }, 'gateway: guild join failed');
      });
      return;
    }
    const mine = registry.ofUser(userId);
    if (mine === undefined) return;
    const eventFor = userDispatchForms(type, envelope.data);
    const receivers: Session[] = [];
    for (const session of mine) {
      if (!receivesUserDispatch(session, { type, ...envelope })) continue;
      if (!inDispatchShard(session, envelope) || !forSession(session, envelope)) continue;
      send.deliver(session, eventFor(session.grant), source);
      receivers.push(session);
    }
    const friendId = newFriendOf(received);
    // The friend's presence, to those whose token reads presences (as READY's `presences`).
    const watchers = receivers.filter((session) => mayAccess(session.grant, 'presences'));
    if (friendId !== null && watchers.length > 0) sendFriendPresence(watchers, friendId);
  };

  const route = (event: BusEvent, subject: string) => {
    const dispatch = busDispatch(event);
    if (subject.startsWith(GUILD_SUBJECT_PREFIX)) onGuildDispatch(dispatch);
    else if (subject.startsWith(USER_SUBJECT_PREFIX)) {
      onUserDispatch(subject.slice(USER_SUBJECT_PREFIX.length), dispatch);
    }
  };

  /**
   * Receives a dispatch of a subject this node watches. One that carries a trace (its request
   * was traced, events/tracing.ts) is routed inside a span of that trace, which counts the
   * dispatches written; without one, nothing of tracing runs.
   */
  const receive = (event: BusEvent, subject: string) => {
    const traceparent = event.trace;
    if (traceparent === undefined) {
      route(event, subject);
      return;
    }
    const attributes = { 'messaging.destination.name': subject, 'guildhall.dispatch': event.type };
    inRemoteSpan(`gateway dispatch ${event.type}`, { traceparent, attributes }, (span) => {
      const before = deps.sent();
      route(event, subject);
      span.setAttribute('guildhall.gateway.dispatches_sent', deps.sent() - before);
    });
  };

  /**
   * What one session receives of a dispatch read back from the bus's history (a session taken
   * over from a node that died, gateway/recovery.ts): the routing rules with the guild's model
   * as it is now, which the dispatch does not change (the node has applied what came since).
   * Joins and leaves are not replayed: the session is in the guilds it is in now.
   */
  const routeForSession = (session: Session, kept: KeptEvent): HeldDispatch[] => {
    const { type, envelope, received, source } = busDispatch(kept.event);
    if (!forSession(session, envelope)) return [];
    if (kept.subject.startsWith(USER_SUBJECT_PREFIX)) {
      if (
        envelope.guildId !== null ||
        !receivesUserDispatch(session, { type, ...envelope }) ||
        !inDispatchShard(session, envelope)
      ) {
        return [];
      }
      return [{ event: userDispatchForms(type, envelope.data)(session.grant), source }];
    }
    const state = envelope.guildId === null ? undefined : guilds.get(envelope.guildId);
    if (state?.sessions.has(session) !== true) return [];
    const route = routeGuildDispatch(
      state,
      { received, channelId: envelope.channelId },
      clock.now(),
    );
    const event = route.eventFor(session);
    return event === null ? [] : [{ event, source }];
  };

  return { receive, routeForSession };
}

export type Fanout = ReturnType<typeof createFanout>;
