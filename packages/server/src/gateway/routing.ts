/**
 * @module gateway/routing: which dispatch goes to which session, and in which form. Every rule
 * that decides whether a session receives an event, or a reduced form of it, lives here; the
 * fan-out (gateway/fanout.ts), the handshake's GUILD_CREATE (gateway/guildCreate.ts) and the
 * commands' answers (gateway/commands.ts) only ask. A new rule (the social layer's, an
 * interaction's) is added here, not in a caller.
 *
 * - Intents: a dispatch needs the intent `intentFor` names (gateway/intents.ts); a member's own
 *   GUILD_MEMBER_UPDATE and GUILD_MEMBER_REMOVE reach it without GUILD_MEMBERS.
 * - Permissions: GUILD_AUDIT_LOG_ENTRY_CREATE needs VIEW_AUDIT_LOG; the AUTO_MODERATION_* events
 *   need MANAGE_GUILD, and an AUTO_MODERATION_ACTION_EXECUTION's `content` and `matched_content`
 *   are empty for an app without MESSAGE_CONTENT; INVITE_CREATE and
 *   INVITE_DELETE go to those who may manage the channel's invites (the REST rule,
 *   `canManageInvites`), whether or not they can view the channel.
 * - Channel visibility: an event of a channel the session's user cannot view is not sent, except,
 *   to a session that obfuscates, the obfuscated CHANNEL_CREATE/UPDATE
 *   (docs/platform-notes.md#channel-obfuscation). After a role, member or guild change such a
 *   session gets a CHANNEL_UPDATE for each channel whose visibility changed. GUILD_CREATE
 *   carries the channels, and the scheduled events, the same way.
 * - Message content: MESSAGE_CREATE/UPDATE without MESSAGE_CONTENT lose their content unless the
 *   user wrote it or is mentioned (`canReadMessageContent`).
 * - Presence privacy: a custom status (activity type 4) is hidden per the user's profile privacy
 *   (`visibleActivities`); invisible and offline users have no presence in GUILD_CREATE or
 *   GUILD_MEMBERS_CHUNK; presences need GUILD_PRESENCES.
 * - Token scopes: a user-addressed dispatch reaches a session only when its token may read the
 *   kind of data it carries (DM channels, DM messages, relationships, presences, lobbies…), by
 *   the rule the REST routes apply to that token (`domain/tokenAccess.ts`, the dispatch's kind in
 *   `gateway/tokenRouting.ts`): an OAuth2 Bearer session only with the scope, a dispatch the table
 *   does not know never; USER_UPDATE carries the email and the real `premium_type` only as
 *   `GET /users/@me` shows them to that token (`userDispatchForms`). READY shows the same.
 * - App scope: a user-addressed dispatch of one game (`applicationId` on the dispatch: a lobby's,
 *   a game DM's, a game relationship's) reaches the user's SDK sessions of that application and
 *   the user's own (session-token) clients, never an SDK session of another application nor a bot
 *   (`receivesUserDispatch`). ACTIVITY_JOIN (a join secret) reaches only the game's SDK sessions.
 * - Threads: a thread's events and messages are gated by its view: the parent's VIEW_CHANNEL, and
 *   for a private thread membership or MANAGE_THREADS (gateway/guildState.ts). THREAD_MEMBERS_UPDATE
 *   also reaches the users it adds or removes; THREAD_MEMBER_UPDATE only its own user. GUILD_CREATE
 *   carries the active threads the session may view; a role, member, guild or channel change that
 *   lets a user see active threads it did not sends THREAD_LIST_SYNC of those threads' parents.
 * - Ephemeral messages: an interaction's ephemeral message is addressed to its user only (never
 *   to the guild); in a guild channel it carries `guild_id` and needs GUILD_MESSAGES, as the
 *   guild's messages do, not DIRECT_MESSAGES (`receivesUserDispatch`).
 * - Person events: EMBEDDED_ACTIVITY_UPDATE (an activity instance's joins, leaves and end) reaches
 *   only people's own clients (session and OAuth2 sessions), never a bot nor an SDK session
 *   (`personOnly`); in a guild, only those who can view the instance's channel.
 * - A new friend's presence: a session that receives RELATIONSHIP_ADD of a friendship (type 1)
 *   gets the friend's current presence right after it, as a PRESENCE_UPDATE without `guild_id`
 *   (`newFriendOf`, `friendPresenceWire`), when the friend is online; an ended friendship sends
 *   nothing more.
 *
 * Each variant of an event is encoded at most once, whatever the number of sessions.
 * The event classes and shared predicates are in gateway/routingEvents.ts, the presence and
 * activity forms in gateway/presenceWire.ts (re-exported here).
 */
import { GatewayIntentBits as I, PermissionFlags as P } from '@guildhall/protocol';
import { canReadMessageContent, withoutMessageContent } from '../domain/messageContent.js';
import { canManageInvites } from '../domain/permissions.js';
import { bodyType, messageOf, payloadRecord, type ReceivedBody } from './decode.js';
import { EncodedDispatch } from './frames.js';
import { obfuscateChannel, type GuildSnapshot, type GuildState } from './guildState.js';
import { intentFor } from './intents.js';
import { guildPresenceWire } from './presenceWire.js';
import {
  CHANNEL_EVENTS,
  EPHEMERAL_MESSAGE_EVENTS,
  GAME_USER_EVENTS,
  hasIntent,
  isPrivateCallDispatch,
  INVITE_EVENTS,
  LOCAL_CLIENT_GAME_EVENTS,
  MANAGE_GUILD_EVENTS,
  ownMemberOf,
  personOnly,
  threadMemberUsers,
  VISIBILITY_EVENTS,
  type RoutedSession,
} from './routingEvents.js';
import { tokenReads } from './tokenRouting.js';

export {
  activityWire,
  friendPresenceWire,
  guildPresenceWire,
  newFriendOf,
  SMALL_SERVER_MAX_MEMBERS,
  visibleActivities,
} from './presenceWire.js';
export type { RoutedSession } from './routingEvents.js';

/** A dispatch encoded only when a session receives it. */
function lazy(type: string, make: () => unknown): EncodedDispatch {
  let made: EncodedDispatch | null = null;
  const get = () => (made ??= new EncodedDispatch(type, make()));
  return new (class extends EncodedDispatch {
    override json() {
      return get().json();
    }
    override frame(...args: Parameters<EncodedDispatch['frame']>) {
      return get().frame(...args);
    }
  })(type, undefined);
}

/**
 * The variants of one guild dispatch: the full one, the obfuscated channel (CHANNEL_CREATE/UPDATE
 * of a channel a session cannot view) and the message without its content.
 */
interface DispatchVariants {
  full: EncodedDispatch;
  obfuscated: EncodedDispatch | null;
  withoutContent: EncodedDispatch | null;
  canRead(session: RoutedSession): boolean;
}

function dispatchVariants(received: ReceivedBody, guildId: string): DispatchVariants {
  const type = bodyType(received);
  const data = payloadRecord(received);
  const full = new EncodedDispatch(type, data);
  const obfuscated = CHANNEL_EVENTS.has(type)
    ? lazy(type, () => obfuscateChannel(data, guildId))
    : null;
  if (type === 'AUTO_MODERATION_ACTION_EXECUTION') {
    return {
      full,
      obfuscated,
      withoutContent: lazy(type, () => ({ ...data, content: '', matched_content: '' })),
      canRead: (session) => !session.isApp || (session.intents & I.MESSAGE_CONTENT) !== 0,
    };
  }
  const wire = messageOf(received);
  if (wire === null) return { full, obfuscated, withoutContent: null, canRead: () => true };
  const message = {
    authorId: wire.author.id,
    inDirectChannel: false,
    mentionedUserIds: wire.mentions.map((m) => m.id),
  };
  return {
    full,
    obfuscated,
    withoutContent: lazy(type, () => withoutMessageContent(wire)),
    canRead: (session) =>
      canReadMessageContent(
        {
          userId: session.userId,
          isApp: session.isApp,
          hasMessageContent: (session.intents & I.MESSAGE_CONTENT) !== 0,
        },
        message,
      ),
  };
}

/** Which active threads each session's user can view, keyed by user. */
function threadVisibility<S extends RoutedSession>(state: GuildState<S>, nowMs: number) {
  const byUser = new Map<string, Set<string>>();
  for (const session of state.sessions) {
    if (byUser.has(session.userId)) continue;
    const visible = new Set<string>();
    for (const thread of state.threads.values()) {
      if (!thread.archived && state.canView(session.userId, thread.id, nowMs))
        visible.add(thread.id);
    }
    byUser.set(session.userId, visible);
  }
  return byUser;
}

/** Which channels each obfuscating session's user can view, keyed by user. */
function visibilityOf<S extends RoutedSession>(state: GuildState<S>, nowMs: number) {
  const byUser = new Map<string, Set<string>>();
  for (const session of state.sessions) {
    if (!session.obfuscate || byUser.has(session.userId)) continue;
    const visible = new Set<string>();
    for (const id of state.channels.keys()) {
      if (state.canView(session.userId, id, nowMs)) visible.add(id);
    }
    byUser.set(session.userId, visible);
  }
  return byUser;
}

/**
 * The routing of one guild dispatch. Made before the dispatch is applied to the guild's model (it
 * notes who could view what before), then asked, once the model is current, what each session
 * receives.
 */
export function routeGuildDispatch<S extends RoutedSession>(
  state: GuildState<S>,
  dispatch: { received: ReceivedBody; channelId: string | null },
  nowMs: number,
) {
  const { received, channelId } = dispatch;
  const type = bodyType(received);
  // Who could view the channel before the change (CHANNEL_DELETE of a hidden channel).
  const viewBefore = new Map<S, boolean>();
  if ((type === 'CHANNEL_DELETE' || type === 'THREAD_DELETE') && channelId !== null) {
    for (const s of state.sessions) viewBefore.set(s, state.canView(s.userId, channelId, nowMs));
  }
  const visibleBefore = VISIBILITY_EVENTS.has(type) ? visibilityOf(state, nowMs) : null;
  const threadsBefore =
    (VISIBILITY_EVENTS.has(type) || type === 'CHANNEL_UPDATE') && state.threads.size > 0
      ? threadVisibility(state, nowMs)
      : null;
  const variants = dispatchVariants(received, state.id);
  const required = intentFor(type, true);
  const subjectUserId = ownMemberOf(received);
  const invite = INVITE_EVENTS.has(type);
  const threadMembers = threadMemberUsers(received);

  /** What the session receives of the dispatch: null for nothing. */
  const eventFor = (session: S): EncodedDispatch | null => {
    if (personOnly(session, type)) return null;
    const involved = threadMembers?.has(session.userId) === true;
    if (type === 'THREAD_MEMBER_UPDATE' && !involved) return null;
    // Those a THREAD_MEMBERS_UPDATE adds or removes get it whatever their intents and view.
    if (involved && type === 'THREAD_MEMBERS_UPDATE') return variants.full;
    if (!hasIntent(session, required) && subjectUserId !== session.userId) return null;
    if (
      type === 'GUILD_AUDIT_LOG_ENTRY_CREATE' &&
      (state.guildPermissions(session.userId, nowMs) & P.VIEW_AUDIT_LOG) === 0n
    ) {
      return null;
    }
    if (
      MANAGE_GUILD_EVENTS.has(type) &&
      (state.guildPermissions(session.userId, nowMs) & P.MANAGE_GUILD) === 0n
    ) {
      return null;
    }
    if (
      invite &&
      (channelId === null ||
        !canManageInvites({
          channel: state.channelPermissions(session.userId, channelId, nowMs),
          guild: state.guildPermissions(session.userId, nowMs),
        }))
    ) {
      return null;
    }
    let event = variants.full;
    if (channelId !== null && !invite) {
      const view = viewBefore.get(session) ?? state.canView(session.userId, channelId, nowMs);
      if (!view) {
        if (!session.obfuscate || variants.obfuscated === null) return null;
        event = variants.obfuscated;
      }
    }
    if (variants.withoutContent !== null && !variants.canRead(session)) {
      event = variants.withoutContent;
    }
    return event;
  };

  /**
   * After a role, member or guild change: the CHANNEL_UPDATE each obfuscating session gets for a
   * channel whose visibility changed, the full channel when it gained access, the obfuscated one
   * when it lost it.
   */
  function* visibilityChanges(): Generator<[S, EncodedDispatch]> {
    yield* threadSyncs();
    if (visibleBefore === null) return;
    const after = visibilityOf(state, nowMs);
    const full = new Map<string, EncodedDispatch>();
    const hidden = new Map<string, EncodedDispatch>();
    for (const session of state.sessions) {
      const was = visibleBefore.get(session.userId);
      const now = after.get(session.userId);
      if (was === undefined || now === undefined || !hasIntent(session, I.GUILDS)) continue;
      for (const channel of state.channels.values()) {
        if (now.has(channel.id) && !was.has(channel.id)) {
          let event = full.get(channel.id);
          if (event === undefined) {
            event = new EncodedDispatch('CHANNEL_UPDATE', channel.wire);
            full.set(channel.id, event);
          }
          yield [session, event];
        } else if (was.has(channel.id) && !now.has(channel.id)) {
          let event = hidden.get(channel.id);
          if (event === undefined) {
            event = new EncodedDispatch('CHANNEL_UPDATE', obfuscateChannel(channel.wire, state.id));
            hidden.set(channel.id, event);
          }
          yield [session, event];
        }
      }
    }
  }

  /**
   * After a change that can let a user see more (roles, a member, the guild, a channel's
   * overwrites): THREAD_LIST_SYNC to each `GUILDS` session whose user now sees active threads it
   * did not, with every active thread it sees in those threads' parents.
   */
  function* threadSyncs(): Generator<[S, EncodedDispatch]> {
    if (threadsBefore === null) return;
    const after = threadVisibility(state, nowMs);
    const byUser = new Map<string, EncodedDispatch | null>();
    for (const session of state.sessions) {
      if (!hasIntent(session, I.GUILDS)) continue;
      let event = byUser.get(session.userId);
      if (event === undefined) {
        const was = threadsBefore.get(session.userId) ?? new Set<string>();
        const now = after.get(session.userId) ?? new Set<string>();
        const gained = [...now].filter((id) => !was.has(id));
        const parents = new Set(gained.map((id) => state.threads.get(id)?.parentId ?? ''));
        event =
          gained.length === 0
            ? null
            : new EncodedDispatch('THREAD_LIST_SYNC', {
                guild_id: state.id,
                channel_ids: [...parents],
                threads: [...now]
                  .map((id) => state.threads.get(id))
                  .filter((t) => t !== undefined && parents.has(t.parentId))
                  .map((t) => t?.wire),
                members: [],
              });
        byUser.set(session.userId, event);
      }
      if (event !== null) yield [session, event];
    }
  }

  return { eventFor, visibilityChanges };
}

/**
 * Whether a session receives a dispatch addressed to its user (not to a guild). Its token must
 * read the dispatch's kind of data (`tokenReads`). Bot and session tokens need the DIRECT_*
 * intent of DM events; an SDK session is a user's game client and gets
 * every dispatch addressed to its user that its scopes read (DMs, relationships, lobbies,
 * friends' presences) whatever intents it sent. A dispatch scoped to a game (`applicationId`) reaches only that
 * game's SDK sessions and the user's own clients; a game's events (ACTIVITY_JOIN…) only its SDK
 * sessions and, for the local client's RPC, the user's own (session token) clients.
 */
export function receivesUserDispatch(
  session: RoutedSession,
  dispatch: {
    type: string;
    data: unknown;
    applicationId?: string | undefined;
    channelId?: string | null | undefined;
  },
): boolean {
  const { type, data } = dispatch;
  if (personOnly(session, type) || !tokenReads(session.grant, dispatch)) return false;
  // A private channel's call (its dispatches name the channel): never a bot's.
  const privateCall = isPrivateCallDispatch(dispatch);
  if (privateCall && session.isApp) return false;
  if (GAME_USER_EVENTS.has(type) && !privateCall) {
    const applicationId =
      dispatch.applicationId ?? (data as { application_id?: unknown } | null)?.application_id;
    if (session.grant.kind === 'session' && LOCAL_CLIENT_GAME_EVENTS.has(type)) return true;
    return session.sdk === true && session.applicationId === applicationId;
  }
  if (dispatch.applicationId !== undefined) {
    if (session.sdk === true) return session.applicationId === dispatch.applicationId;
    if (session.isApp) return false;
  }
  // A user-addressed message of a guild channel (an ephemeral one) needs the guild's intent.
  const inGuild =
    EPHEMERAL_MESSAGE_EVENTS.has(type) &&
    typeof (data as { guild_id?: unknown } | null)?.guild_id === 'string';
  return session.sdk === true || hasIntent(session, intentFor(type, inGuild));
}

/**
 * What of a guild's GUILD_CREATE depends on the session: the channels and scheduled events its
 * user may view (or their obfuscated form), and the presences when it asked for them. `key`
 * names every session property the result depends on, so sessions with one key share a payload.
 */
export function guildCreateView<S extends RoutedSession & { largeThreshold: number }>(
  state: GuildState<S>,
  input: { session: S; snapshot: GuildSnapshot; nowMs: number },
) {
  const { session, snapshot, nowMs } = input;
  const { presences } = snapshot;
  const wantsPresences = hasIntent(session, I.GUILD_PRESENCES);
  const key = `${session.userId}|${session.obfuscate}|${session.largeThreshold}|${wantsPresences}`;
  const build = () => {
    const channels: unknown[] = [];
    for (const channel of state.channels.values()) {
      if (state.canView(session.userId, channel.id, nowMs)) channels.push(channel.wire);
      else if (session.obfuscate) channels.push(obfuscateChannel(channel.wire, state.id));
    }
    const threads: unknown[] = [];
    for (const thread of state.threads.values()) {
      if (!thread.archived && state.canView(session.userId, thread.id, nowMs)) {
        threads.push(thread.wire);
      }
    }
    const shownPresences: unknown[] = [];
    if (presences.size > 0 && wantsPresences) {
      for (const { userId } of snapshot.members) {
        const presence = guildPresenceWire(userId, presences.get(userId), snapshot.memberCount);
        if (presence !== null) shownPresences.push(presence);
      }
    }
    return {
      channels,
      threads,
      presences: shownPresences,
      scheduledEvents: snapshot.scheduledEvents
        .filter((e) => e.channelId === null || state.canView(session.userId, e.channelId, nowMs))
        .map((e) => e.wire),
    };
  };
  return { key, build };
}
