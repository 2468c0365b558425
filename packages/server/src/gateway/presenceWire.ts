/**
 * @module gateway/presenceWire: presences and activities as other users see them: a friend's
 * presence (READY, the PRESENCE_UPDATE after a new friendship), a guild member's (GUILD_CREATE,
 * GUILD_MEMBERS_CHUNK), with custom status hidden per the user's profile privacy and an
 * activity's secrets never shown. The routing rules (gateway/routing.ts) re-export them.
 */
import type { ReceivedBody } from './decode.js';
import type { ProfilePrivacy } from '../storage/index.js';
import type { Presence } from './presences.js';

/** Custom status is hidden from guilds above this size under Friends & Small Servers. */
export const SMALL_SERVER_MAX_MEMBERS = 200;
const CUSTOM_STATUS_ACTIVITY = 4;

/** The relationship type of a friendship (the platform's RelationshipType.Friend). */
const FRIEND_RELATIONSHIP = 1;

/**
 * The friend a RELATIONSHIP_ADD makes (type 1), whose presence the receiving session gets right
 * after it (`friendPresenceWire`); null for any other dispatch.
 */
export function newFriendOf(received: ReceivedBody): string | null {
  if (!received.known || received.body.type !== 'RELATIONSHIP_ADD') return null;
  const relationship = received.body.data;
  return relationship.type === FRIEND_RELATIONSHIP ? relationship.id : null;
}

/**
 * An activity as other users see it: its `secrets` never (a join or spectate secret is handed
 * only to a user who joins or spectates, resources/activityInvites), only the JOIN and SPECTATE
 * flags op 3 set from them (gateway/presenceCommand.ts; the web client's Join and Spectate); its
 * buttons as their labels, their URLs in `metadata.button_urls`, as the platform sends them.
 */
export function activityWire(activity: Record<string, unknown>): Record<string, unknown> {
  if (activity['secrets'] === undefined && activity['buttons'] === undefined) return activity;
  const rest = { ...activity };
  delete rest['secrets'];
  delete rest['buttons'];
  const buttons = activity['buttons'];
  if (!Array.isArray(buttons)) return rest;
  const list = buttons as { label?: unknown; url?: unknown }[];
  return {
    ...rest,
    buttons: list.map((b) => b.label),
    metadata: { button_urls: list.map((b) => b.url) },
  };
}

/** The activities a guild's sessions see: custom status dropped per the privacy rule. */
export function visibleActivities(
  activities: readonly Record<string, unknown>[],
  input: { privacy: ProfilePrivacy; memberCount: number },
): Record<string, unknown>[] {
  const hideCustom =
    input.privacy === 'friends' ||
    (input.privacy === 'friends_and_small_servers' && input.memberCount > SMALL_SERVER_MAX_MEMBERS);
  const shown = hideCustom
    ? activities.filter((a) => a['type'] !== CUSTOM_STATUS_ACTIVITY)
    : activities;
  return shown.map(activityWire);
}

/**
 * A presence on the wire: PRESENCE_UPDATE's payload (with `guild_id` in a guild, without it to
 * friends) and the entries of READY's and GUILD_CREATE's `presences`.
 */
export interface PresenceWire {
  user: { id: string };
  guild_id?: string;
  status: string;
  activities: Record<string, unknown>[];
  client_status: Record<string, string>;
}

declare module '../domain/dispatch.js' {
  interface DispatchPayloads {
    PRESENCE_UPDATE: PresenceWire;
  }
}

/**
 * A user's presence as their friends see it (READY's `presences`, the PRESENCE_UPDATE without
 * `guild_id`): every activity, custom status included whatever the privacy setting, without
 * secrets; none while invisible or offline.
 */
export function friendPresenceWire(
  userId: string,
  presence: Presence | undefined,
): PresenceWire | null {
  if (presence === undefined || presence.status === 'invisible' || presence.status === 'offline') {
    return null;
  }
  return {
    user: { id: userId },
    status: presence.status,
    activities: presence.activities.map(activityWire),
    client_status: presence.clientStatus ?? { web: presence.status },
  };
}

/**
 * A user's presence as a guild's sessions see it, in GUILD_CREATE and GUILD_MEMBERS_CHUNK: none
 * while invisible or offline, and the custom status per the privacy rule PRESENCE_UPDATE follows.
 */
export function guildPresenceWire(
  userId: string,
  presence: Presence | undefined,
  memberCount: number,
): PresenceWire | null {
  if (presence === undefined || presence.status === 'invisible' || presence.status === 'offline') {
    return null;
  }
  return {
    user: { id: userId },
    status: presence.status,
    activities: visibleActivities(presence.activities, { privacy: presence.privacy, memberCount }),
    client_status: presence.clientStatus ?? { web: presence.status },
  };
}
