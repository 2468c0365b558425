import type { APIChannel } from 'discord-api-types/v10';
import { omit, withUsers, type ClientState } from '../clientState.js';
import type { Slice } from './dispatch.js';

/** A channel created or changed: a guild's in its guild's list, a private one first in the DMs. */
export function putChannel(state: ClientState, channel: APIChannel): ClientState {
  const guildId = 'guild_id' in channel ? channel.guild_id : undefined;
  const next = { ...state, channels: { ...state.channels, [channel.id]: channel } };
  if (guildId !== undefined) {
    const ids = state.guildChannelIds[guildId] ?? [];
    if (!ids.includes(channel.id)) {
      next.guildChannelIds = { ...state.guildChannelIds, [guildId]: [...ids, channel.id] };
    }
  } else if (!state.privateChannelIds.includes(channel.id)) {
    next.privateChannelIds = [channel.id, ...state.privateChannelIds];
    if ('recipients' in channel && channel.recipients !== undefined) {
      next.users = withUsers(state.users, channel.recipients);
    }
  }
  return next;
}

function removeChannel(state: ClientState, channel: { id: string; guild_id?: string }) {
  const guildId = channel.guild_id;
  return {
    ...state,
    channels: omit(state.channels, channel.id),
    messages: omit(state.messages, channel.id),
    guildChannelIds:
      guildId === undefined
        ? state.guildChannelIds
        : {
            ...state.guildChannelIds,
            [guildId]: (state.guildChannelIds[guildId] ?? []).filter((id) => id !== channel.id),
          },
    privateChannelIds: state.privateChannelIds.filter((id) => id !== channel.id),
  };
}

/** A message's channel: its last message, and a private channel moves to the top of the DMs. */
function messagePosted(state: ClientState, message: { id: string; channel_id: string }) {
  const channelId = message.channel_id;
  const channel = state.channels[channelId];
  if (channel === undefined) return state;
  const next = {
    ...state,
    channels: { ...state.channels, [channelId]: { ...channel, last_message_id: message.id } },
  };
  if (next.privateChannelIds.includes(channelId) && next.privateChannelIds[0] !== channelId) {
    next.privateChannelIds = [
      channelId,
      ...next.privateChannelIds.filter((id) => id !== channelId),
    ];
  }
  return next;
}

/** Channels, guild and private: created, changed, deleted, pinned in, posted in. */
export const channelsSlice: Slice = {
  CHANNEL_CREATE: putChannel,
  CHANNEL_UPDATE: putChannel,
  CHANNEL_DELETE: removeChannel,
  CHANNEL_PINS_UPDATE: (state, pins) => {
    const channel = state.channels[pins.channel_id];
    if (channel === undefined) return state;
    const lastPin = pins.last_pin_timestamp ?? null;
    return {
      ...state,
      channels: { ...state.channels, [channel.id]: { ...channel, last_pin_timestamp: lastPin } },
    };
  },
  MESSAGE_CREATE: messagePosted,
};
