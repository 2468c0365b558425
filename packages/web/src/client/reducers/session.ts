import type { APIChannel, APIUser } from 'discord-api-types/v10';
import {
  compareIds,
  initialState,
  withPresences,
  withUsers,
  type ClientState,
} from '../clientState.js';
import { putChannel } from './channels.js';
import type { Slice, UserReadyData } from './dispatch.js';

function lastActivity(channel: APIChannel | undefined): string {
  if (channel === undefined) return '0';
  return ('last_message_id' in channel ? channel.last_message_id : null) ?? channel.id;
}

/** A new session: the state starts again from READY (its DMs, relationships and presences). */
function ready(state: ClientState, ready: UserReadyData): ClientState {
  let next: ClientState = {
    ...initialState,
    // A fresh session (not a resume) may have missed events: loaded histories are dropped
    // and read again by the panes showing them. Messages being sent stay.
    pending: state.pending,
    ownStatus: state.ownStatus,
    // The open frame stays open across sessions, and its presence is sent again.
    activities: state.activities,
    me: ready.user,
    sessionId: ready.session_id,
    ready: true,
    users: { [ready.user.id]: ready.user },
  };
  for (const channel of ready.private_channels ?? []) next = putChannel(next, channel);
  next.privateChannelIds = [...next.privateChannelIds].sort((a, b) =>
    compareIds(lastActivity(next.channels[b]), lastActivity(next.channels[a])),
  );
  const relationships: ClientState['relationships'] = {};
  for (const r of ready.relationships ?? []) {
    relationships[r.id] = { id: r.id, type: r.type, user: r.user, nickname: r.nickname ?? null };
  }
  next.relationships = relationships;
  next.users = withUsers(
    next.users,
    (ready.relationships ?? []).map((r) => r.user),
  );
  next.presences = withPresences(next.presences, ready.presences ?? []);
  return next;
}

/** The session: READY, the user's own changes, and presences. */
export const sessionSlice: Slice = {
  READY: ready,
  USER_UPDATE: (state, user) => {
    if (state.me?.id !== user.id) return state;
    return { ...state, me: { ...state.me, ...user }, users: withUsers(state.users, [user]) };
  },
  PRESENCE_UPDATE: (state, presence) => {
    const { user } = presence;
    const next = { ...state, presences: withPresences(state.presences, [presence]) };
    // A presence's user is partial unless something about the user changed.
    if (user.username !== undefined) next.users = withUsers(state.users, [user as APIUser]);
    return next;
  },
};
