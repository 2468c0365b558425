import type {
  APIGuild,
  APIGuildMember,
  APIRole,
  GatewayGuildCreateDispatchData,
} from 'discord-api-types/v10';
import {
  omit,
  omitAll,
  withPresences,
  withUsers,
  type ClientState,
  type PresenceData,
} from '../clientState.js';
import { parseVoiceState, type VoiceStateEntry } from '../voice/voiceState.js';
import type { Slice } from './dispatch.js';

/** The lists GUILD_CREATE brings beside the guild (absent when the guild is unavailable). */
type GuildLists = 'channels' | 'members' | 'presences' | 'voice_states' | 'member_count';

/** GUILD_CREATE as this reducer reads it: any of its lists may be absent. */
export type GuildCreate = Omit<GatewayGuildCreateDispatchData, GuildLists> &
  Partial<Pick<GatewayGuildCreateDispatchData, Exclude<GuildLists, 'presences'>>> & {
    presences?: readonly PresenceData[];
  };

function addGuild(state: ClientState, raw: GuildCreate): ClientState {
  if (raw.unavailable === true) return state;
  const {
    channels = [],
    members = [],
    presences = [],
    voice_states: voiceStates = [],
    member_count: memberCount,
    ...guild
  } = raw;
  const nextChannels = omitAll(state.channels, new Set(state.guildChannelIds[guild.id] ?? []));
  for (const channel of channels) nextChannels[channel.id] = { ...channel, guild_id: guild.id };
  const guildMembers: Record<string, APIGuildMember> = { ...state.members[guild.id] };
  for (const member of members) guildMembers[member.user.id] = member;
  const guildVoice: Record<string, VoiceStateEntry> = {};
  for (const raw of voiceStates) {
    const parsed = parseVoiceState(raw);
    if (parsed?.entry.channel_id != null) guildVoice[parsed.userId] = parsed.entry;
  }
  return {
    ...state,
    guilds: { ...state.guilds, [guild.id]: guild },
    guildChannelIds: { ...state.guildChannelIds, [guild.id]: channels.map((c) => c.id) },
    channels: nextChannels,
    members: { ...state.members, [guild.id]: guildMembers },
    users: withUsers(
      state.users,
      members.map((m) => m.user),
    ),
    presences: withPresences(state.presences, presences),
    voiceStates: { ...state.voiceStates, [guild.id]: guildVoice },
    memberCounts:
      memberCount === undefined
        ? state.memberCounts
        : { ...state.memberCounts, [guild.id]: memberCount },
  };
}

/** A guild left or deleted: its channels, their messages, members and voice states go too. */
export function removeGuild(state: ClientState, guildId: string): ClientState {
  const ids = new Set(state.guildChannelIds[guildId] ?? []);
  const channels = omitAll(state.channels, ids);
  const messages = omitAll(state.messages, ids);
  return {
    ...state,
    guilds: omit(state.guilds, guildId),
    guildChannelIds: omit(state.guildChannelIds, guildId),
    channels,
    messages,
    members: omit(state.members, guildId),
    voiceStates: omit(state.voiceStates, guildId),
    voiceStartTimes: omitAll(state.voiceStartTimes, ids),
    memberCounts: omit(state.memberCounts, guildId),
  };
}

function updateGuild(
  state: ClientState,
  guildId: string,
  update: (guild: APIGuild) => APIGuild,
): ClientState {
  const guild = state.guilds[guildId];
  if (guild === undefined) return state;
  return { ...state, guilds: { ...state.guilds, [guildId]: update(guild) } };
}

function putRole(state: ClientState, guildId: string, role: APIRole): ClientState {
  return updateGuild(state, guildId, (guild) => ({
    ...guild,
    roles: [...guild.roles.filter((r) => r.id !== role.id), role],
  }));
}

/** Guilds and their roles: GUILD_CREATE (with its channels, members, presences, voice). */
export const guildsSlice: Slice = {
  GUILD_CREATE: addGuild,
  GUILD_UPDATE: (state, guild) => updateGuild(state, guild.id, (old) => ({ ...old, ...guild })),
  GUILD_DELETE: (state, guild) => removeGuild(state, guild.id),
  GUILD_ROLE_CREATE: (state, { role, guild_id: guildId }) => putRole(state, guildId, role),
  GUILD_ROLE_UPDATE: (state, { role, guild_id: guildId }) => putRole(state, guildId, role),
  GUILD_ROLE_DELETE: (state, { role_id: roleId, guild_id: guildId }) =>
    updateGuild(state, guildId, (guild) => ({
      ...guild,
      roles: guild.roles.filter((r) => r.id !== roleId),
    })),
};
