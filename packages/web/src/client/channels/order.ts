import { ChannelType, type APIChannel } from 'discord-api-types/v10';

export interface ChannelGroup {
  category: APIChannel | null;
  channels: APIChannel[];
}

const byPosition = (a: APIChannel, b: APIChannel) => {
  const pa = 'position' in a ? a.position : 0;
  const pb = 'position' in b ? b.position : 0;
  // Text before voice at one position, as the platform lists them; then by id (creation).
  const va = isVoice(a) ? 1 : 0;
  const vb = isVoice(b) ? 1 : 0;
  return va - vb || pa - pb || a.id.length - b.id.length || a.id.localeCompare(b.id);
};

export function isVoice(channel: APIChannel): boolean {
  return channel.type === ChannelType.GuildVoice || channel.type === ChannelType.GuildStageVoice;
}

export function isText(channel: APIChannel): boolean {
  return channel.type === ChannelType.GuildText || channel.type === ChannelType.GuildAnnouncement;
}

/** A guild's channels as the sidebar lists them: those without a category, then each category. */
export function groupChannels(channels: APIChannel[]): ChannelGroup[] {
  const categories = channels
    .filter((c) => c.type === ChannelType.GuildCategory)
    .sort((a, b) => byPosition(a, b));
  const listed = channels.filter((c) => isText(c) || isVoice(c));
  const parentOf = (c: APIChannel) => ('parent_id' in c ? (c.parent_id ?? null) : null);
  const known = new Set(categories.map((c) => c.id));
  const groups: ChannelGroup[] = [
    {
      category: null,
      channels: listed
        .filter((c) => {
          const parent = parentOf(c);
          return parent === null || !known.has(parent);
        })
        .sort(byPosition),
    },
  ];
  for (const category of categories) {
    groups.push({
      category,
      channels: listed.filter((c) => parentOf(c) === category.id).sort(byPosition),
    });
  }
  return groups;
}

/** The channel a guild opens on: its first text channel in sidebar order. */
export function firstTextChannel(channels: APIChannel[]): APIChannel | undefined {
  for (const group of groupChannels(channels)) {
    const text = group.channels.find(isText);
    if (text !== undefined) return text;
  }
  return undefined;
}
