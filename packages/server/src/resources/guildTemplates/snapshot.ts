/**
 * @module resources/guildTemplates/snapshot: a guild as a template keeps it (the wire's
 * `serialized_source_guild`): its settings, roles and channels, with template-local ids (0 for
 * @everyone, then 1, 2… for roles by position, and for channels) in place of the guild's, so a
 * snapshot says nothing of the guild it came from. Bot roles (managed) are left out; announcement
 * channels become text channels and stage channels voice channels, the types a template holds.
 */
import { ChannelTypes } from '@guildhall/protocol';
import type { Repositories, SettingsJson } from '../../storage/index.js';

/** The channel types a template keeps, and what others become. */
const TEMPLATE_TYPE: Readonly<Record<number, number>> = {
  [ChannelTypes.GUILD_TEXT]: ChannelTypes.GUILD_TEXT,
  [ChannelTypes.GUILD_ANNOUNCEMENT]: ChannelTypes.GUILD_TEXT,
  [ChannelTypes.GUILD_VOICE]: ChannelTypes.GUILD_VOICE,
  [ChannelTypes.GUILD_STAGE_VOICE]: ChannelTypes.GUILD_VOICE,
  [ChannelTypes.GUILD_CATEGORY]: ChannelTypes.GUILD_CATEGORY,
  [ChannelTypes.GUILD_FORUM]: ChannelTypes.GUILD_FORUM,
};

/** The platform's default bitrate of a voice channel in a template. */
const DEFAULT_TEMPLATE_BITRATE = 64_000;

/** The snapshot of a guild now. */
export async function snapshotGuild(repos: Repositories, guildId: string): Promise<SettingsJson> {
  const guild = await repos.guilds.findById(guildId);
  if (guild === null) return {};
  const [roles, channels] = await Promise.all([
    repos.roles.listByGuild(guildId),
    repos.channels.listByGuild(guildId),
  ]);
  const kept = roles
    .filter((role) => !role.managed)
    .sort((a, b) => a.position - b.position || a.id.localeCompare(b.id));
  const roleIds = new Map(kept.map((role, index) => [role.id, index]));
  const templated = channels
    .filter((c) => TEMPLATE_TYPE[c.type] !== undefined)
    .sort((a, b) => a.position - b.position || a.id.localeCompare(b.id));
  const channelIds = new Map(templated.map((c, index) => [c.id, index + 1]));
  const overwrites = await repos.overwrites.listByChannels(templated.map((c) => c.id));
  const localChannel = (id: string | null) => {
    const local = id === null ? undefined : channelIds.get(id);
    return local === undefined ? null : String(local);
  };
  return {
    name: guild.name,
    description: guild.description,
    region: null,
    verification_level: guild.verificationLevel,
    default_message_notifications: guild.defaultMessageNotifications,
    explicit_content_filter: guild.explicitContentFilter,
    preferred_locale: guild.preferredLocale,
    afk_channel_id: localChannel(guild.afkChannelId),
    afk_timeout: guild.afkTimeout,
    system_channel_id: localChannel(guild.systemChannelId),
    system_channel_flags: guild.systemChannelFlags,
    roles: kept.map((role, index) => ({
      id: index,
      name: role.name,
      permissions: role.permissions.toString(),
      color: role.color,
      colors: { primary_color: role.color, secondary_color: null, tertiary_color: null },
      hoist: role.hoist,
      mentionable: role.mentionable,
      icon: null,
      unicode_emoji: null,
    })),
    channels: templated.map((channel, index) => {
      const type = TEMPLATE_TYPE[channel.type] ?? ChannelTypes.GUILD_TEXT;
      const voice = type === ChannelTypes.GUILD_VOICE;
      return {
        id: index + 1,
        type,
        name: channel.name,
        position: channel.position,
        topic: channel.topic,
        bitrate: voice ? (channel.bitrate ?? DEFAULT_TEMPLATE_BITRATE) : DEFAULT_TEMPLATE_BITRATE,
        user_limit: voice ? (channel.userLimit ?? 0) : 0,
        nsfw: channel.nsfw,
        rate_limit_per_user: channel.rateLimitPerUser,
        parent_id: localChannel(channel.parentId),
        default_auto_archive_duration: null,
        permission_overwrites: overwrites
          .filter((o) => o.channelId === channel.id && o.type === 0 && roleIds.has(o.targetId))
          .map((o) => ({
            id: String(roleIds.get(o.targetId)),
            type: 0,
            allow: o.allow.toString(),
            deny: o.deny.toString(),
          })),
        available_tags: null,
        template: '',
        default_reaction_emoji: null,
        default_thread_rate_limit_per_user: null,
        default_sort_order: null,
        default_forum_layout: null,
        default_tag_setting: null,
        theme_color: null,
      };
    }),
  };
}
