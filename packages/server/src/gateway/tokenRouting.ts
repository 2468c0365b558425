/**
 * @module gateway/tokenRouting: what a session's token may read of the dispatches addressed to
 * its user, by the rule the REST routes apply to the same token (`domain/tokenAccess.ts`), and
 * USER_UPDATE in the form that token reads `GET /users/@me`. gateway/routing.ts asks it for every
 * user-addressed dispatch; gateway/handshake.ts asks the same rule what READY shows.
 */
import { currentUserView, mayAccess, type Access, type TokenGrant } from '../domain/tokenAccess.js';
import { EncodedDispatch } from './frames.js';

const DM_MESSAGE_EVENTS = [
  'MESSAGE_CREATE',
  'MESSAGE_UPDATE',
  'MESSAGE_DELETE',
  'MESSAGE_DELETE_BULK',
  'MESSAGE_REACTION_ADD',
  'MESSAGE_REACTION_REMOVE',
  'MESSAGE_REACTION_REMOVE_ALL',
  'MESSAGE_REACTION_REMOVE_EMOJI',
  'MESSAGE_POLL_VOTE_ADD',
  'MESSAGE_POLL_VOTE_REMOVE',
  'CHANNEL_PINS_UPDATE',
  'TYPING_START',
] as const;

/** Dispatches of one kind of data. */
const kind = (access: Access, types: readonly string[]) =>
  Object.fromEntries(types.map((type) => [type, access]));

/**
 * The kind of data each dispatch addressed to a user carries (docs/gateway.md, "What a Bearer
 * session receives"). A dispatch absent here reaches no Bearer session; bot and session tokens
 * are not held to this table beyond `mayAccess` (they read every kind but bots the email).
 */
export const USER_EVENT_ACCESS: Readonly<Record<string, Access>> = {
  USER_UPDATE: 'currentUser',
  // Asks the game to link the account: it carries the application's id only.
  AUTHORIZE_REQUEST: 'currentUser',
  ...kind('dmChannels', [
    'CHANNEL_CREATE',
    'CHANNEL_UPDATE',
    'CHANNEL_DELETE',
    'CHANNEL_RECIPIENT_ADD',
    'CHANNEL_RECIPIENT_REMOVE',
    'CALL_CREATE',
    'CALL_UPDATE',
    'CALL_DELETE',
  ]),
  ...kind('dmMessages', DM_MESSAGE_EVENTS),
  ...kind('relationships', ['RELATIONSHIP_ADD', 'RELATIONSHIP_UPDATE', 'RELATIONSHIP_REMOVE']),
  PRESENCE_UPDATE: 'presences',
  ACTIVITY_JOIN: 'activities',
  ACTIVITY_JOIN_REQUEST: 'activities',
  ACTIVITY_SPECTATE: 'activities',
  ...kind('lobbies', [
    'LOBBY_CREATE',
    'LOBBY_UPDATE',
    'LOBBY_DELETE',
    'LOBBY_MEMBER_ADD',
    'LOBBY_MEMBER_UPDATE',
    'LOBBY_MEMBER_REMOVE',
    'LOBBY_MESSAGE_CREATE',
    'LOBBY_MESSAGE_UPDATE',
    'LOBBY_MESSAGE_DELETE',
    // The user-addressed voice dispatches: a lobby call's, or a DM call's (social_layer has both).
    'VOICE_STATE_UPDATE',
    'VOICE_SERVER_UPDATE',
  ]),
  ...kind('guildsAndClient', [
    'INTERACTION_SUCCESS',
    'INTERACTION_FAILURE',
    'INTERACTION_MODAL_CREATE',
    'APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE',
    'EMBEDDED_ACTIVITY_UPDATE',
  ]),
};

const MESSAGE_EVENTS: ReadonlySet<string> = new Set(DM_MESSAGE_EVENTS);

/**
 * The kind of data a user-addressed dispatch carries; null when the table does not know it. A
 * message event with a `guild_id` (an interaction's ephemeral message in a guild channel) is the
 * guild's, not a DM's.
 */
export function accessOf(type: string, data: unknown): Access | null {
  if (
    MESSAGE_EVENTS.has(type) &&
    typeof (data as { guild_id?: unknown } | null)?.guild_id === 'string'
  ) {
    return 'guildsAndClient';
  }
  return USER_EVENT_ACCESS[type] ?? null;
}

/** Whether the session's token may read a dispatch addressed to its user. */
export function tokenReads(grant: TokenGrant, dispatch: { type: string; data: unknown }): boolean {
  const access = accessOf(dispatch.type, dispatch.data);
  return access === null ? grant.kind !== 'bearer' : mayAccess(grant, access);
}

/**
 * What each session receives of a dispatch addressed to its user, once it may receive it: the
 * dispatch as published, but USER_UPDATE as the session's token reads `GET /users/@me` (the email
 * only with `email` or a session token, the real `premium_type` only with `identify.premium` or
 * a session token). Each form is encoded once, whatever the number of sessions.
 */
export function userDispatchForms(
  type: string,
  data: unknown,
): (grant: TokenGrant) => EncodedDispatch {
  const full = new EncodedDispatch(type, data);
  if (type !== 'USER_UPDATE' || typeof data !== 'object' || data === null) return () => full;
  const user = data as Record<string, unknown>;
  const forms = new Map<string, EncodedDispatch>();
  return (grant) => {
    const view = currentUserView(grant);
    if (view.email && view.premium) return full;
    const key = `${String(view.email)}|${String(view.premium)}`;
    let form = forms.get(key);
    if (form === undefined) {
      form = new EncodedDispatch(type, {
        ...user,
        ...(view.email || !('email' in user) ? {} : { email: null }),
        ...(view.premium || !('premium_type' in user) ? {} : { premium_type: 0 }),
      });
      forms.set(key, form);
    }
    return form;
  };
}
