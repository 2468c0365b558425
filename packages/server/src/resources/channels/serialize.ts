import type {
  APIGuildChannel,
  APIGuildForumChannel,
  APIGuildTextChannel,
  APIGuildVoiceChannel,
  APIOverwrite,
  APISortableChannel,
  GuildTextChannelType,
} from 'discord-api-types/v10';
import type { WireShape } from '../wireShape.js';
import { ChannelFlags, PermissionFlags as P, isVoiceChannelType } from '@guildhall/protocol';
import type { ChannelRecord, ForumTagRecord, OverwriteRecord } from '../../storage/index.js';
import { DEFAULT_BITRATE, hasTopic, isCategory, isThreadOnlyType } from './rules.js';

/** An overwrite on the wire: bitsets as decimal strings. */
export function serializeOverwrite(overwrite: OverwriteRecord) {
  return {
    id: overwrite.targetId,
    type: overwrite.type,
    allow: overwrite.allow.toString(),
    deny: overwrite.deny.toString(),
  } satisfies WireShape<APIOverwrite>;
}

/**
 * The fields every guild channel sends, checked against discord-api-types' APIGuildChannel. The
 * library lacks a guild channel's `application_id` (always null here) and types `guild_id` as
 * never null (the record's is nullable; only guild channels are serialized here).
 */
type GuildChannelWireShape = Omit<WireShape<APIGuildChannel>, 'guild_id'> &
  APISortableChannel & { guild_id: string | null; application_id: string | null };
/** The fields of channels that hold messages (text, announcement, voice, stage). */
type MessageChannelFields = Pick<
  WireShape<APIGuildTextChannel<GuildTextChannelType>>,
  'nsfw' | 'rate_limit_per_user' | 'last_message_id' | 'topic'
>;

/** A forum or media channel's tag (ForumTagResponse). */
export function serializeForumTag(tag: ForumTagRecord) {
  return {
    id: tag.id,
    name: tag.name,
    moderated: tag.moderated,
    emoji_id: tag.emojiId,
    emoji_name: tag.emojiName,
  };
}

/**
 * A guild channel (GuildChannelResponse). Each type carries only its own fields, as the platform
 * sends them. `application_id` is nullable (spec, Channel object): null for guild channels. The
 * voice status is ephemeral and never a field here (spec, Events).
 */
export function serializeChannel(
  channel: ChannelRecord,
  overwrites: readonly OverwriteRecord[],
  /** A forum or media channel's tags (none for other types). */
  tags: readonly ForumTagRecord[] = [],
) {
  const base = {
    id: channel.id,
    type: channel.type,
    guild_id: channel.guildId,
    name: channel.name ?? '',
    position: channel.position,
    flags: channel.flags,
    parent_id: channel.parentId,
    permission_overwrites: overwrites.map(serializeOverwrite),
    application_id: channel.applicationId,
  } satisfies GuildChannelWireShape;
  if (isCategory(channel.type)) return base;
  const common = {
    ...base,
    nsfw: channel.nsfw,
    rate_limit_per_user: channel.rateLimitPerUser,
    last_message_id: channel.lastMessageId,
    ...(hasTopic(channel.type) ? { topic: channel.topic } : {}),
  } satisfies GuildChannelWireShape & MessageChannelFields;
  if (isVoiceChannelType(channel.type)) {
    return {
      ...common,
      bitrate: channel.bitrate ?? DEFAULT_BITRATE,
      user_limit: channel.userLimit ?? 0,
      rtc_region: null,
    } satisfies GuildChannelWireShape &
      MessageChannelFields &
      Pick<WireShape<APIGuildVoiceChannel>, 'bitrate' | 'user_limit' | 'rtc_region'>;
  }
  if (isThreadOnlyType(channel.type)) {
    return {
      ...common,
      available_tags: tags.map(serializeForumTag),
      default_reaction_emoji: null,
      default_sort_order: null,
      default_forum_layout: 0,
      default_thread_rate_limit_per_user: 0,
    } satisfies GuildChannelWireShape &
      MessageChannelFields &
      Pick<
        WireShape<APIGuildForumChannel>,
        | 'available_tags'
        | 'default_reaction_emoji'
        | 'default_sort_order'
        | 'default_forum_layout'
        | 'default_thread_rate_limit_per_user'
      >;
  }
  return common;
}

export type ChannelWire = ReturnType<typeof serializeChannel>;

/** Groups overwrites by channel id. */
export function overwritesByChannel(overwrites: readonly OverwriteRecord[]) {
  const byChannel = new Map<string, OverwriteRecord[]>();
  for (const overwrite of overwrites) {
    const list = byChannel.get(overwrite.channelId) ?? [];
    list.push(overwrite);
    byChannel.set(overwrite.channelId, list);
  }
  return byChannel;
}

/**
 * The channel as a caller that may not view it sees it: the gateway's obfuscated channel, and the
 * channel list's entry before unviewable channels are omitted
 * (docs/platform-notes.md#channel-obfuscation).
 */
export function obfuscateChannel(
  wire: Record<string, unknown>,
  guildId: string,
): Record<string, unknown> {
  const hidden: Record<string, unknown> = {
    id: wire['id'],
    type: wire['type'],
    guild_id: guildId,
    name: '___hidden___',
    position: wire['position'],
    parent_id: wire['parent_id'] ?? null,
    flags: Number(wire['flags'] ?? 0) | ChannelFlags.CHANNEL_OBFUSCATED,
    permission_overwrites: [{ id: guildId, type: 0, allow: '0', deny: P.VIEW_CHANNEL.toString() }],
  };
  if ('topic' in wire) hidden['topic'] = null;
  if ('nsfw' in wire) hidden['nsfw'] = false;
  if ('last_message_id' in wire) hidden['last_message_id'] = null;
  if ('rate_limit_per_user' in wire) hidden['rate_limit_per_user'] = 0;
  return hidden;
}
