/**
 * @module gateway/routingEvents: the classes of dispatch the routing rules (gateway/routing.ts)
 * tell apart, and the small predicates on a receiving session they share: person-only events,
 * the users a thread membership dispatch is about, whether a session asked for an intent.
 */
import type { TokenGrant } from '../domain/tokenAccess.js';
import type { ReceivedBody } from './decode.js';

/** What the rules look at of a receiving session. */
export interface RoutedSession {
  userId: string;
  isApp: boolean;
  /** The kind and scopes of the token the session logged in with. */
  grant: TokenGrant;
  intents: number;
  obfuscate: boolean;
  /** An SDK session: user-addressed dispatches reach it whatever its intents. */
  sdk?: boolean;
  /** The application of an SDK session's token (or a bot's). */
  applicationId?: string | null;
}

/**
 * User-addressed dispatches of one game: only the user's SDK sessions of the application their
 * `application_id` names receive them (ACTIVITY_JOIN carries a join secret, ACTIVITY_SPECTATE a
 * spectate secret; AUTHORIZE_REQUEST
 * asks that game to start an authorization; the voice states and voice server of a lobby call,
 * that name no channel, belong to the game's own voice; a DM call's name its channel).
 */
export const GAME_USER_EVENTS = new Set([
  'ACTIVITY_JOIN',
  'ACTIVITY_JOIN_REQUEST',
  'ACTIVITY_SPECTATE',
  'AUTHORIZE_REQUEST',
  'VOICE_STATE_UPDATE',
  'VOICE_SERVER_UPDATE',
]);

/**
 * The game events the person's own client (a session token: the local client whose RPC daemon
 * passes them to the game, docs/rpc.md) receives too: the person joined a party, someone asks to
 * join theirs, the person chose to spectate a friend's game, the person asked a game to link
 * their account.
 */
export const LOCAL_CLIENT_GAME_EVENTS = new Set([
  'ACTIVITY_JOIN',
  'ACTIVITY_JOIN_REQUEST',
  'ACTIVITY_SPECTATE',
  'AUTHORIZE_REQUEST',
]);

/** The dispatches of a DM or group-DM call (resources/calls). */
const CALL_EVENTS = new Set(['CALL_CREATE', 'CALL_UPDATE', 'CALL_DELETE']);

/**
 * Whether a user-addressed dispatch is a private channel's call's: CALL_*, or a voice state or
 * voice server naming the channel (a lobby call's name none, and belong to the lobby's game).
 */
export function isPrivateCallDispatch(dispatch: {
  type: string;
  channelId?: string | null | undefined;
}): boolean {
  if (CALL_EVENTS.has(dispatch.type)) return true;
  return GAME_USER_EVENTS.has(dispatch.type) && typeof dispatch.channelId === 'string';
}

/** Dispatches only people's own clients receive: never bots, never SDK (game) sessions. */
const PERSON_EVENTS = new Set(['EMBEDDED_ACTIVITY_UPDATE']);

/** Whether the session may not receive `type` because it is a person-only event. */
export function personOnly(session: RoutedSession, type: string): boolean {
  return PERSON_EVENTS.has(type) && (session.isApp || session.sdk === true);
}

/** Dispatches that can change which channels a session's user may view (besides the channel's own). */
export const VISIBILITY_EVENTS = new Set([
  'GUILD_ROLE_CREATE',
  'GUILD_ROLE_UPDATE',
  'GUILD_ROLE_DELETE',
  'GUILD_MEMBER_UPDATE',
  'GUILD_UPDATE',
]);
/** Dispatches only sessions that may manage the channel's invites receive. */
export const INVITE_EVENTS = new Set(['INVITE_CREATE', 'INVITE_DELETE']);
/**
 * The member a GUILD_MEMBER_UPDATE or GUILD_MEMBER_REMOVE is about, whose own sessions receive it
 * whatever their intents; null for any other dispatch.
 */
export function ownMemberOf(received: ReceivedBody): string | null {
  if (!received.known) return null;
  const { body } = received;
  return body.type === 'GUILD_MEMBER_UPDATE' || body.type === 'GUILD_MEMBER_REMOVE'
    ? body.data.user.id
    : null;
}
/** Dispatches only sessions whose user has MANAGE_GUILD receive (auto-moderation). */
export const MANAGE_GUILD_EVENTS = new Set([
  'AUTO_MODERATION_RULE_CREATE',
  'AUTO_MODERATION_RULE_UPDATE',
  'AUTO_MODERATION_RULE_DELETE',
  'AUTO_MODERATION_ACTION_EXECUTION',
]);
/** The events of an ephemeral message, addressed to its user with the guild's `guild_id`. */
export const EPHEMERAL_MESSAGE_EVENTS = new Set([
  'MESSAGE_CREATE',
  'MESSAGE_UPDATE',
  'MESSAGE_DELETE',
]);
export const CHANNEL_EVENTS = new Set(['CHANNEL_CREATE', 'CHANNEL_UPDATE']);

/**
 * The users a thread membership dispatch is about: THREAD_MEMBERS_UPDATE's added and removed
 * members (they receive it whatever their intents), THREAD_MEMBER_UPDATE's own user (only they
 * receive it). Null for other dispatches.
 */
export function threadMemberUsers(received: ReceivedBody): Set<string> | null {
  if (!received.known) return null;
  const { body } = received;
  if (body.type === 'THREAD_MEMBER_UPDATE') return new Set([body.data.user_id]);
  if (body.type !== 'THREAD_MEMBERS_UPDATE') return null;
  return new Set([
    ...(body.data.added_members ?? []).map((m) => m.user_id),
    ...(body.data.removed_member_ids ?? []),
  ]);
}

/** Whether the session asked for the intent (0: none needed). */
export function hasIntent(session: RoutedSession, intent: number): boolean {
  return intent === 0 || (session.intents & intent) !== 0;
}
