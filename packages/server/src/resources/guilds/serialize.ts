import type { APIGuild, RESTAPIPartialCurrentUserGuild } from 'discord-api-types/v10';
import type { WireShape } from '../wireShape.js';
import type {
  EmojiRecord,
  GuildRecord,
  Repositories,
  RoleRecord,
  StickerRecord,
} from '../../storage/index.js';
import { serializeEmoji } from '../emojis/index.js';
import { serializeRole } from '../roles/index.js';
import { serializeSticker } from '../stickers/index.js';

/**
 * The guild object as sent, checked against discord-api-types' APIGuild. `region`, deprecated
 * there, is still sent; the library lacks `home_header` and the legacy `nsfw`; `hub_type` (Student
 * Hubs) is not sent.
 */
type GuildWireShape = Omit<WireShape<APIGuild>, 'region' | 'hub_type'> & {
  region: string;
  home_header: null;
  nsfw: boolean;
};

export interface GuildParts {
  roles: readonly RoleRecord[];
  emojis: readonly EmojiRecord[];
  stickers: readonly StickerRecord[];
  /** The settings the guild object reports (resources/guildSettings); absent: none set. */
  settings?: GuildObjectSettings;
}

/** What the guild object shows of the guild's settings documents. */
export interface GuildObjectSettings {
  widgetEnabled: boolean;
  widgetChannelId: string | null;
  vanityUrlCode: string | null;
  /** Incident actions set, as ISO timestamps; null when none. */
  incidents: { invites_disabled_until: string | null; dms_disabled_until: string | null } | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const isoOf = (value: unknown): string | null =>
  typeof value === 'number' ? new Date(value).toISOString() : null;

/** Reads the settings the guild object reports (widget, vanity code, incident actions). */
export async function guildObjectSettings(
  repos: Repositories,
  guildId: string,
): Promise<GuildObjectSettings> {
  const [widget, vanity, incidents] = await Promise.all([
    repos.guildSettings.get(guildId, 'widget'),
    repos.guildSettings.vanity(guildId),
    repos.guildSettings.get(guildId, 'incident_actions'),
  ]);
  const invites = isoOf(incidents?.['invites_disabled_until']);
  const dms = isoOf(incidents?.['dms_disabled_until']);
  return {
    widgetEnabled: widget?.['enabled'] === true,
    widgetChannelId: text(widget?.['channel_id']),
    vanityUrlCode: vanity?.code ?? null,
    incidents:
      invites === null && dms === null
        ? null
        : { invites_disabled_until: invites, dms_disabled_until: dms },
  };
}

/** The platform's fixed maxima of a guild without boosts, as the guild object states them. */
const GUILD_MAXIMA = {
  max_members: 500_000,
  max_stage_video_channel_users: 50,
  max_video_channel_users: 25,
} as const;

/**
 * The guild object (GuildResponse). Settings this platform does not have (widgets, boosts,
 * vanity URLs, discovery) carry the values of a guild that never turned them on.
 */
export function serializeGuild(guild: GuildRecord, parts: GuildParts) {
  return {
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    description: guild.description,
    home_header: null,
    splash: guild.splash,
    discovery_splash: null,
    features: guild.features,
    banner: guild.banner,
    owner_id: guild.ownerId,
    application_id: null,
    region: 'deprecated',
    afk_channel_id: guild.afkChannelId,
    afk_timeout: guild.afkTimeout,
    system_channel_id: guild.systemChannelId,
    system_channel_flags: guild.systemChannelFlags,
    widget_enabled: parts.settings?.widgetEnabled ?? false,
    widget_channel_id: parts.settings?.widgetChannelId ?? null,
    verification_level: guild.verificationLevel,
    roles: parts.roles.map(serializeRole),
    default_message_notifications: guild.defaultMessageNotifications,
    mfa_level: 0,
    explicit_content_filter: guild.explicitContentFilter,
    max_presences: null,
    ...GUILD_MAXIMA,
    vanity_url_code: parts.settings?.vanityUrlCode ?? null,
    premium_tier: 0,
    premium_subscription_count: 0,
    preferred_locale: guild.preferredLocale,
    rules_channel_id: guild.rulesChannelId,
    safety_alerts_channel_id: null,
    public_updates_channel_id: guild.publicUpdatesChannelId,
    premium_progress_bar_enabled: guild.premiumProgressBarEnabled,
    nsfw: false,
    nsfw_level: 0,
    emojis: parts.emojis.map((emoji) => serializeEmoji(emoji, null)),
    stickers: parts.stickers.map((sticker) => serializeSticker(sticker, null)),
    incidents_data: parts.settings?.incidents ?? null,
  } satisfies GuildWireShape;
}

export type GuildWire = ReturnType<typeof serializeGuild>;

/** Loads what a guild object embeds and serializes it. */
export async function viewGuild(repos: Repositories, guild: GuildRecord) {
  const [roles, emojis, stickers, settings] = await Promise.all([
    repos.roles.listByGuild(guild.id),
    repos.emojis.listByGuild(guild.id),
    repos.stickers.listByGuild(guild.id),
    guildObjectSettings(repos, guild.id),
  ]);
  return serializeGuild(guild, { roles, emojis, stickers, settings });
}

/** The partial guild of GET /users/@me/guilds (MyGuildResponse). */
export function serializeMyGuild(
  guild: GuildRecord,
  view: { userId: string; permissions: bigint; memberCount?: number },
) {
  return {
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    banner: guild.banner,
    owner: guild.ownerId === view.userId,
    permissions: view.permissions.toString(),
    features: guild.features,
    ...(view.memberCount === undefined
      ? {}
      : { approximate_member_count: view.memberCount, approximate_presence_count: 0 }),
  } satisfies WireShape<RESTAPIPartialCurrentUserGuild>;
}

/** The settings GUILD_UPDATE entries compare, by wire name. */
export function auditedGuild(guild: GuildRecord): Record<string, unknown> {
  return {
    name: guild.name,
    description: guild.description,
    icon_hash: guild.icon,
    banner_hash: guild.banner,
    splash_hash: guild.splash,
    afk_channel_id: guild.afkChannelId,
    afk_timeout: guild.afkTimeout,
    system_channel_id: guild.systemChannelId,
    system_channel_flags: guild.systemChannelFlags,
    rules_channel_id: guild.rulesChannelId,
    public_updates_channel_id: guild.publicUpdatesChannelId,
    verification_level: guild.verificationLevel,
    default_message_notifications: guild.defaultMessageNotifications,
    explicit_content_filter: guild.explicitContentFilter,
    preferred_locale: guild.preferredLocale,
    premium_progress_bar_enabled: guild.premiumProgressBarEnabled,
    features: guild.features,
  };
}
