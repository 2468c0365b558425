import { ChannelTypes } from '@guildhall/protocol';

/**
 * Field rules of guild channels shared by guild creation (POST /guilds) and the channel routes:
 * which types exist, how names are normalised, what each type carries.
 */

/** The guild channel types the platform creates (spec, Channels): text, voice, category, … */
export const GUILD_CHANNEL_TYPES = [
  ChannelTypes.GUILD_TEXT,
  ChannelTypes.GUILD_VOICE,
  ChannelTypes.GUILD_CATEGORY,
  ChannelTypes.GUILD_ANNOUNCEMENT,
  ChannelTypes.GUILD_STAGE_VOICE,
  ChannelTypes.GUILD_FORUM,
  ChannelTypes.GUILD_MEDIA,
] as const;

export type GuildChannelType = (typeof GUILD_CHANNEL_TYPES)[number];

const THREAD_ONLY_TYPES = new Set<number>([ChannelTypes.GUILD_FORUM, ChannelTypes.GUILD_MEDIA]);
/** Channels whose names the platform writes as slugs (lower case, dashes for spaces). */
const SLUG_NAMED_TYPES = new Set<number>([
  ChannelTypes.GUILD_TEXT,
  ChannelTypes.GUILD_ANNOUNCEMENT,
  ChannelTypes.GUILD_FORUM,
  ChannelTypes.GUILD_MEDIA,
]);

export const isThreadOnlyType = (type: number): boolean => THREAD_ONLY_TYPES.has(type);
export const isCategory = (type: number): boolean => type === ChannelTypes.GUILD_CATEGORY;
/** Types with a topic: text, announcement, stage, forum and media. */
export const hasTopic = (type: number): boolean =>
  !isCategory(type) && type !== ChannelTypes.GUILD_VOICE;

/** The default bitrate of a new voice or stage channel. */
export const DEFAULT_BITRATE = 64_000;
/**
 * The platform's limits of a channel body's fields, whatever the type (the type-dependent ones
 * follow). The guild create body's channels take the same.
 */
export const CHANNEL_FIELD_LIMITS = {
  name: { min: 1, max: 100 },
  /** The longest topic any type takes (forum and media channels); see maxTopicLength. */
  topic: 4096,
  bitrate: { min: 8000, max: 384_000 },
  userLimit: 10_000,
  rateLimitPerUserSeconds: 21_600,
  overwrites: 100,
  /** Channels in one positions body, or in a guild create body. */
  channels: 500,
  /** Tags a forum or media channel offers, the length of a tag's name and of its emoji's. */
  availableTags: 20,
  tagName: 20,
  tagEmojiName: 100,
} as const;

/** Without boosts a guild's voice channels top out at 96 kbps; stage channels at 64 kbps. */
export const VOICE_MAX_BITRATE = 96_000;
export const MAX_BITRATE: Record<number, number> = {
  [ChannelTypes.GUILD_VOICE]: VOICE_MAX_BITRATE,
  [ChannelTypes.GUILD_STAGE_VOICE]: 64_000,
};
/** A voice channel holds at most 99 users; a stage channel 10,000. */
export const VOICE_MAX_USERS = 99;
export const MAX_USER_LIMIT: Record<number, number> = {
  [ChannelTypes.GUILD_VOICE]: VOICE_MAX_USERS,
  [ChannelTypes.GUILD_STAGE_VOICE]: CHANNEL_FIELD_LIMITS.userLimit,
};
/** The topic of a text-like channel; forum and media channels take CHANNEL_FIELD_LIMITS.topic. */
const TEXT_TOPIC_MAX_LENGTH = 1024;
/** Topic length: 1024 characters, 4096 for forum and media channels. */
export const maxTopicLength = (type: number): number =>
  isThreadOnlyType(type) ? CHANNEL_FIELD_LIMITS.topic : TEXT_TOPIC_MAX_LENGTH;

/**
 * The name as the platform stores it: trimmed; text-like channels lower-cased with runs of
 * whitespace turned into one dash. Returns null when nothing is left.
 */
export function normaliseChannelName(type: number, name: string): string | null {
  let normalised = name.trim();
  if (SLUG_NAMED_TYPES.has(type)) normalised = normalised.toLowerCase().replace(/\s+/g, '-');
  return normalised.length === 0 ? null : normalised;
}
