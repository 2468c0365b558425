// Flag bitfields and small enumerations of the application, user, channel and attachment objects.

/**
 * The documented application flags. Values are `bigint` because the full set (`flags_new`) may go
 * past bit 30; see {@link applicationFlagsWire} for the wire form.
 *
 * @see docs/platform-notes.md#application-flags
 */
export const ApplicationFlags = {
  /** The app uses the Auto Moderation API. */
  APPLICATION_AUTO_MODERATION_RULE_CREATE_BADGE: 1n << 6n,
  /** Presence intent, for bots in 100 or more servers. */
  GATEWAY_PRESENCE: 1n << 12n,
  /** Presence intent, for bots in fewer than 100 servers. */
  GATEWAY_PRESENCE_LIMITED: 1n << 13n,
  /** Guild members intent, for bots in 100 or more servers. */
  GATEWAY_GUILD_MEMBERS: 1n << 14n,
  /** Guild members intent, for bots in fewer than 100 servers. */
  GATEWAY_GUILD_MEMBERS_LIMITED: 1n << 15n,
  /** Unusual growth that prevents verification. */
  VERIFICATION_PENDING_GUILD_LIMIT: 1n << 16n,
  /** The app is embedded in the platform client. */
  EMBEDDED: 1n << 17n,
  /** Message content intent, for bots in 100 or more servers. */
  GATEWAY_MESSAGE_CONTENT: 1n << 18n,
  /** Message content intent, for bots in fewer than 100 servers. */
  GATEWAY_MESSAGE_CONTENT_LIMITED: 1n << 19n,
  /** The app has registered global application commands. */
  APPLICATION_COMMAND_BADGE: 1n << 23n,
} as const;

/** The name of an application flag: a key of {@link ApplicationFlags}. */
export type ApplicationFlagName = keyof typeof ApplicationFlags;

/** Bits 0 to 30: what fits in the positive range of a 32-bit signed integer. */
const LEGACY_APPLICATION_FLAGS_MASK = (1n << 31n) - 1n;

/**
 * The two wire fields of an application's flags: `flags`, a 32-bit integer holding bits 0 to 30
 * only (higher bits are dropped), and `flags_new`, the full set as a decimal string (the pattern of
 * `permissions_new`).
 *
 * @param bits - The application's full flag set (non-negative).
 * @returns `{ flags, flags_new }` for the application object.
 * @throws TypeError when `bits` is negative.
 * @example
 * ```ts
 * applicationFlagsWire((1n << 33n) | ApplicationFlags.EMBEDDED);
 * // { flags: 131072, flags_new: '8590065664' }
 * ```
 * @see docs/platform-notes.md#application-flags
 */
export function applicationFlagsWire(bits: bigint): { flags: number; flags_new: string } {
  if (bits < 0n) throw new TypeError('Application flags cannot be negative');
  return { flags: Number(bits & LEGACY_APPLICATION_FLAGS_MASK), flags_new: bits.toString() };
}

/**
 * The documented public user flags (the user object's `flags` and `public_flags`).
 *
 * @see docs/platform-notes.md#user-flags-and-premium-type
 */
export const UserFlags = {
  STAFF: 1 << 0,
  PARTNER: 1 << 1,
  HYPESQUAD: 1 << 2,
  BUG_HUNTER_LEVEL_1: 1 << 3,
  HYPESQUAD_ONLINE_HOUSE_1: 1 << 6,
  HYPESQUAD_ONLINE_HOUSE_2: 1 << 7,
  HYPESQUAD_ONLINE_HOUSE_3: 1 << 8,
  PREMIUM_EARLY_SUPPORTER: 1 << 9,
  TEAM_PSEUDO_USER: 1 << 10,
  BUG_HUNTER_LEVEL_2: 1 << 14,
  VERIFIED_BOT: 1 << 16,
  VERIFIED_DEVELOPER: 1 << 17,
  CERTIFIED_MODERATOR: 1 << 18,
  BOT_HTTP_INTERACTIONS: 1 << 19,
  ACTIVE_DEVELOPER: 1 << 22,
} as const;

/** The name of a user flag: a key of {@link UserFlags}. */
export type UserFlagName = keyof typeof UserFlags;

/**
 * Channel types (the channel object's `type`). Values 6 to 9 are unused. The Social SDK's own
 * `Lobby` (17) and `EphemeralDm` (18) are SDK-side only, not wire channel types.
 *
 * @see docs/platform-notes.md#channel-types-and-flags
 */
export const ChannelTypes = {
  GUILD_TEXT: 0,
  DM: 1,
  GUILD_VOICE: 2,
  GROUP_DM: 3,
  GUILD_CATEGORY: 4,
  GUILD_ANNOUNCEMENT: 5,
  ANNOUNCEMENT_THREAD: 10,
  PUBLIC_THREAD: 11,
  PRIVATE_THREAD: 12,
  GUILD_STAGE_VOICE: 13,
  GUILD_DIRECTORY: 14,
  GUILD_FORUM: 15,
  GUILD_MEDIA: 16,
} as const;

/** A channel type: a value of {@link ChannelTypes}. */
export type ChannelType = (typeof ChannelTypes)[keyof typeof ChannelTypes];

/** The channel types a member connects to by voice (gateway op 4): voice and stage channels. */
export const VOICE_CHANNEL_TYPES: readonly ChannelType[] = [
  ChannelTypes.GUILD_VOICE,
  ChannelTypes.GUILD_STAGE_VOICE,
];

/**
 * Whether a channel type is a voice channel type (one of {@link VOICE_CHANNEL_TYPES}).
 *
 * @param type - A channel's `type`.
 * @returns True for GUILD_VOICE and GUILD_STAGE_VOICE.
 */
export function isVoiceChannelType(type: number): boolean {
  return (VOICE_CHANNEL_TYPES as readonly number[]).includes(type);
}

/**
 * Channel flags (the channel object's `flags`).
 *
 * @see docs/platform-notes.md#channel-types-and-flags
 */
export const ChannelFlags = {
  /** A thread pinned to the top of its forum or media channel. */
  PINNED: 1 << 1,
  /** A tag is required to create a thread in this forum or media channel. */
  REQUIRE_TAG: 1 << 4,
  /** Media channel: hide the embedded media download options. */
  HIDE_MEDIA_DOWNLOAD_OPTIONS: 1 << 15,
  /**
   * The bot cannot view this channel and receives it obfuscated (name `___hidden___`). Set over
   * the gateway only, never over HTTP.
   */
  CHANNEL_OBFUSCATED: 1 << 17,
  /** The channel is marked as a spoiler. */
  IS_SPOILER_CHANNEL: 1 << 21,
} as const;

/** The name of a channel flag: a key of {@link ChannelFlags}. */
export type ChannelFlagName = keyof typeof ChannelFlags;

/**
 * Attachment flags (the attachment object's `flags`).
 *
 * @see docs/platform-notes.md#attachment-flags
 */
export const AttachmentFlags = {
  /** The attachment is a clip from a stream. */
  IS_CLIP: 1 << 0,
  /** The attachment is the thumbnail of a thread in a media channel. */
  IS_THUMBNAIL: 1 << 1,
  /** The attachment has been edited with the remix feature. */
  IS_REMIX: 1 << 2,
  /**
   * The attachment is a spoiler. The legacy `SPOILER_` filename prefix also marks one, but not
   * every spoilered attachment has it.
   */
  IS_SPOILER: 1 << 3,
  /** The attachment is an animated image. */
  IS_ANIMATED: 1 << 5,
} as const;

/** The name of an attachment flag: a key of {@link AttachmentFlags}. */
export type AttachmentFlagName = keyof typeof AttachmentFlags;

/**
 * Premium (subscription) types of a user's `premium_type`. Applications not approved for the
 * `identify.premium` scope always see `NONE`.
 *
 * @see docs/platform-notes.md#user-flags-and-premium-type
 */
export const PremiumTypes = {
  NONE: 0,
  NITRO_CLASSIC: 1,
  NITRO: 2,
  NITRO_BASIC: 3,
} as const;

/** A premium type: a value of {@link PremiumTypes}. */
export type PremiumType = (typeof PremiumTypes)[keyof typeof PremiumTypes];
