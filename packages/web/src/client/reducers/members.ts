import type { APIGuildMember, APIUser, GuildMemberFlags } from 'discord-api-types/v10';
import { omit, withPresences, withUsers, type ClientState } from '../clientState.js';
import { parseVoiceState } from '../voice/voiceState.js';
import type { Slice } from './dispatch.js';
import { removeGuild } from './guilds.js';

/** Fields a member event may leave out (GUILD_MEMBER_UPDATE's), with what they mean then. */
const MEMBER_DEFAULTS = {
  deaf: false,
  mute: false,
  // No flag set: the enum names single bits, not the empty set.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- the empty bit set
  flags: 0 as GuildMemberFlags,
} satisfies Partial<APIGuildMember>;

/**
 * A member as dispatches carry it: TYPING_START's and a message's may lack the user,
 * GUILD_MEMBER_UPDATE's the voice fields and flags (kept from before, else MEMBER_DEFAULTS).
 */
type MemberUpdate = Omit<APIGuildMember, 'user' | keyof typeof MEMBER_DEFAULTS> &
  Partial<Pick<APIGuildMember, keyof typeof MEMBER_DEFAULTS>> & { user?: APIUser };

function setMember(
  state: ClientState,
  ref: { guildId: string; userId?: string },
  member: MemberUpdate,
): ClientState {
  const { guildId } = ref;
  const user = member.user;
  const userId = user?.id ?? ref.userId;
  if (userId === undefined) return state;
  const previous = state.members[guildId]?.[userId];
  // A partial member (TYPING_START's has no user) of someone not loaded yet: nothing to show a
  // member by, so it waits for the member's own event or chunk.
  const known = user ?? previous?.user ?? state.users[userId];
  if (known === undefined) return state;
  const merged: APIGuildMember = { ...MEMBER_DEFAULTS, ...previous, ...member, user: known };
  return {
    ...state,
    members: { ...state.members, [guildId]: { ...state.members[guildId], [userId]: merged } },
    users: user === undefined ? state.users : withUsers(state.users, [user]),
  };
}

function removeMember(state: ClientState, guildId: string, userId: string): ClientState {
  if (userId === state.me?.id) return removeGuild(state, guildId);
  const count = state.memberCounts[guildId];
  return {
    ...state,
    members: { ...state.members, [guildId]: omit(state.members[guildId] ?? {}, userId) },
    memberCounts:
      count === undefined ? state.memberCounts : { ...state.memberCounts, [guildId]: count - 1 },
  };
}

/**
 * Guild members: added, changed, removed, chunks (with their presences), and the member a
 * message, a typing indicator or a voice state carries.
 */
export const membersSlice: Slice = {
  GUILD_MEMBER_ADD: (state, member) => {
    const guildId = member.guild_id;
    const next = setMember(state, { guildId }, member);
    const count = state.memberCounts[guildId];
    return count === undefined
      ? next
      : { ...next, memberCounts: { ...next.memberCounts, [guildId]: count + 1 } };
  },
  GUILD_MEMBER_UPDATE: (state, member) => setMember(state, { guildId: member.guild_id }, member),
  GUILD_MEMBER_REMOVE: (state, { guild_id: guildId, user }) =>
    removeMember(state, guildId, user.id),
  GUILD_MEMBERS_CHUNK: (state, { guild_id: guildId, members, presences = [] }) => {
    let next = state;
    for (const member of members) next = setMember(next, { guildId }, member);
    const nextPresences = withPresences(next.presences, presences);
    return nextPresences === next.presences ? next : { ...next, presences: nextPresences };
  },
  MESSAGE_CREATE: (state, message) => {
    if (message.member === undefined || message.guild_id === undefined) return state;
    return setMember(
      state,
      { guildId: message.guild_id },
      { ...message.member, user: message.author },
    );
  },
  TYPING_START: (state, { member, guild_id: guildId, user_id: userId }) => {
    if (member === undefined || guildId === undefined) return state;
    return setMember(state, { guildId, userId }, member);
  },
  VOICE_STATE_UPDATE: (state, voiceState) => {
    // A lobby call's state (guild_id null) has no place in the client: it has no lobby view.
    const parsed = parseVoiceState(voiceState);
    const member = voiceState.member;
    if (parsed?.guildId == null || member === undefined) return state;
    return setMember(state, { guildId: parsed.guildId, userId: parsed.userId }, member);
  },
};
