import { ChannelType, type APIChannel, type APIUser } from 'discord-api-types/v10';
import { compareIds, type ClientState } from '../state.js';
import { displayName } from './relationships.js';

/** A DM or a group DM: the channels the home sidebar lists. */
export type PrivateChannel = Extract<APIChannel, { type: ChannelType.DM | ChannelType.GroupDM }>;

export function isPrivateChannel(channel: APIChannel | undefined): channel is PrivateChannel {
  return channel?.type === ChannelType.DM || channel?.type === ChannelType.GroupDM;
}

/**
 * The private channels, newest activity first: the last message's id, or the channel's own id
 * for a DM nobody has written in yet (both snowflakes, so they sort together).
 */
export function privateChannelsByActivity(
  channels: ClientState['channels'],
  ids: readonly string[],
): PrivateChannel[] {
  return ids
    .map((id) => channels[id])
    .filter(isPrivateChannel)
    .sort((a, b) => compareIds(b.last_message_id ?? b.id, a.last_message_id ?? a.id));
}

/** A DM opened or shown again (POST /users/@me/channels, CHANNEL_CREATE): listed first. */
export function privateChannelOpened(state: ClientState, channel: PrivateChannel): ClientState {
  const users = { ...state.users };
  for (const user of channel.recipients ?? []) users[user.id] = user;
  return {
    ...state,
    channels: { ...state.channels, [channel.id]: channel },
    privateChannelIds: [channel.id, ...state.privateChannelIds.filter((id) => id !== channel.id)],
    users,
  };
}

/** A DM closed, or a group DM left (CHANNEL_DELETE to the user who did it). */
export function privateChannelClosed(state: ClientState, channelId: string): ClientState {
  if (!state.privateChannelIds.includes(channelId)) return state;
  const channels = Object.fromEntries(
    Object.entries(state.channels).filter(([id]) => id !== channelId),
  );
  return {
    ...state,
    channels,
    privateChannelIds: state.privateChannelIds.filter((id) => id !== channelId),
  };
}

/** A group DM's member joined or left (CHANNEL_RECIPIENT_ADD / _REMOVE to those in it). */
export function groupRecipientChanged(
  state: ClientState,
  change: { channel_id: string; user: APIUser },
  added: boolean,
): ClientState {
  const channel = state.channels[change.channel_id];
  if (channel?.type !== ChannelType.GroupDM) return state;
  const others = (channel.recipients ?? []).filter((user) => user.id !== change.user.id);
  const recipients = added ? [...others, change.user] : others;
  return { ...state, channels: { ...state.channels, [channel.id]: { ...channel, recipients } } };
}

/** The other person of a DM (a group DM has several). */
export function dmRecipient(channel: PrivateChannel): APIUser | undefined {
  return channel.type === ChannelType.DM ? channel.recipients?.[0] : undefined;
}

/** A private channel's name: the other person's, or the group's name, or its members' names. */
export function privateChannelName(channel: PrivateChannel, state: ClientState): string {
  if (channel.type === ChannelType.GroupDM && channel.name) return channel.name;
  const names = (channel.recipients ?? []).map((user) =>
    displayName(user, state.relationships[user.id]?.nickname ?? null),
  );
  if (names.length > 0) return names.join(', ');
  return channel.type === ChannelType.GroupDM ? 'Unnamed group' : 'Unknown user';
}
