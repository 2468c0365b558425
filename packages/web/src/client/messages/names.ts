import {
  ChannelType,
  type APIChannel,
  type APIGuildMember,
  type APIUser,
} from 'discord-api-types/v10';

/** A user's name as shown: the guild nickname, else the display name, else the username. */
export function displayName(
  user: Pick<APIUser, 'username' | 'global_name'> | undefined,
  member?: Pick<APIGuildMember, 'nick'>,
): string {
  if (user === undefined) return 'Unknown user';
  return member?.nick ?? user.global_name ?? user.username;
}

/** The other people of a DM or group DM (not the current user). */
export function recipients(channel: APIChannel, meId: string | null): APIUser[] {
  const list = 'recipients' in channel ? (channel.recipients ?? []) : [];
  return list.filter((u) => u.id !== meId);
}

/** A channel's name as its header and list show it (a DM: the other person's username). */
export function channelTitle(channel: APIChannel, meId: string | null): string {
  if (channel.type === ChannelType.DM || channel.type === ChannelType.GroupDM) {
    const named: unknown = channel.name;
    if (typeof named === 'string' && named !== '') return named;
    const others = recipients(channel, meId);
    return others.length === 0 ? 'Unknown' : others.map((u) => u.username).join(', ');
  }
  return channel.name;
}

/** The composer's accessible name: "Message #general", or "Message @ada" in a DM. */
export function composerLabel(channel: APIChannel, meId: string | null): string {
  const isPrivate = channel.type === ChannelType.DM || channel.type === ChannelType.GroupDM;
  return `Message ${isPrivate ? '@' : '#'}${channelTitle(channel, meId)}`;
}
