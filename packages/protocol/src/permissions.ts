// Permission bits, their wire form (a decimal string) and the dated enforcement of the split bits.

/**
 * Every permission bit by its official name. Values are `bigint` because the set goes past bit 31
 * (and past 2^53 in the future). Bit 47 is unassigned.
 *
 * @see docs/platform-notes.md#permission-bits
 */
export const PermissionFlags = {
  CREATE_INSTANT_INVITE: 1n << 0n,
  KICK_MEMBERS: 1n << 1n,
  BAN_MEMBERS: 1n << 2n,
  ADMINISTRATOR: 1n << 3n,
  MANAGE_CHANNELS: 1n << 4n,
  MANAGE_GUILD: 1n << 5n,
  ADD_REACTIONS: 1n << 6n,
  VIEW_AUDIT_LOG: 1n << 7n,
  PRIORITY_SPEAKER: 1n << 8n,
  STREAM: 1n << 9n,
  VIEW_CHANNEL: 1n << 10n,
  SEND_MESSAGES: 1n << 11n,
  SEND_TTS_MESSAGES: 1n << 12n,
  MANAGE_MESSAGES: 1n << 13n,
  EMBED_LINKS: 1n << 14n,
  ATTACH_FILES: 1n << 15n,
  READ_MESSAGE_HISTORY: 1n << 16n,
  MENTION_EVERYONE: 1n << 17n,
  USE_EXTERNAL_EMOJIS: 1n << 18n,
  VIEW_GUILD_INSIGHTS: 1n << 19n,
  CONNECT: 1n << 20n,
  SPEAK: 1n << 21n,
  MUTE_MEMBERS: 1n << 22n,
  DEAFEN_MEMBERS: 1n << 23n,
  MOVE_MEMBERS: 1n << 24n,
  USE_VAD: 1n << 25n,
  CHANGE_NICKNAME: 1n << 26n,
  MANAGE_NICKNAMES: 1n << 27n,
  MANAGE_ROLES: 1n << 28n,
  MANAGE_WEBHOOKS: 1n << 29n,
  MANAGE_GUILD_EXPRESSIONS: 1n << 30n,
  USE_APPLICATION_COMMANDS: 1n << 31n,
  REQUEST_TO_SPEAK: 1n << 32n,
  MANAGE_EVENTS: 1n << 33n,
  MANAGE_THREADS: 1n << 34n,
  CREATE_PUBLIC_THREADS: 1n << 35n,
  CREATE_PRIVATE_THREADS: 1n << 36n,
  USE_EXTERNAL_STICKERS: 1n << 37n,
  SEND_MESSAGES_IN_THREADS: 1n << 38n,
  USE_EMBEDDED_ACTIVITIES: 1n << 39n,
  MODERATE_MEMBERS: 1n << 40n,
  VIEW_CREATOR_MONETIZATION_ANALYTICS: 1n << 41n,
  USE_SOUNDBOARD: 1n << 42n,
  /** Split from MANAGE_GUILD_EXPRESSIONS; see {@link PERMISSION_ENFORCEMENT_DATES}. */
  CREATE_GUILD_EXPRESSIONS: 1n << 43n,
  /** Split from MANAGE_EVENTS; see {@link PERMISSION_ENFORCEMENT_DATES}. */
  CREATE_EVENTS: 1n << 44n,
  USE_EXTERNAL_SOUNDS: 1n << 45n,
  SEND_VOICE_MESSAGES: 1n << 46n,
  /** Required to set a voice channel status (PUT /channels/{channel.id}/voice-status). */
  SET_VOICE_CHANNEL_STATUS: 1n << 48n,
  SEND_POLLS: 1n << 49n,
  USE_EXTERNAL_APPS: 1n << 50n,
  /** Split from MANAGE_MESSAGES; see {@link PERMISSION_ENFORCEMENT_DATES}. */
  PIN_MESSAGES: 1n << 51n,
  /** Split from MANAGE_MESSAGES, MANAGE_CHANNELS and MANAGE_THREADS; bots are never slowed. */
  BYPASS_SLOWMODE: 1n << 52n,
} as const;

/** The name of a permission: a key of {@link PermissionFlags}. */
export type PermissionName = keyof typeof PermissionFlags;

const PERMISSION_NAMES = Object.keys(PermissionFlags) as PermissionName[];

/**
 * Every permission by the name people see in the platform's settings and consent screens
 * ("Manage Server" for MANAGE_GUILD, "Timeout Members" for MODERATE_MEMBERS): the OAuth2 consent
 * page, the portal's permission pickers and the client's role and channel settings show these.
 */
export const PERMISSION_LABELS: Readonly<Record<PermissionName, string>> = {
  CREATE_INSTANT_INVITE: 'Create Invite',
  KICK_MEMBERS: 'Kick Members',
  BAN_MEMBERS: 'Ban Members',
  ADMINISTRATOR: 'Administrator',
  MANAGE_CHANNELS: 'Manage Channels',
  MANAGE_GUILD: 'Manage Server',
  ADD_REACTIONS: 'Add Reactions',
  VIEW_AUDIT_LOG: 'View Audit Log',
  PRIORITY_SPEAKER: 'Priority Speaker',
  STREAM: 'Video',
  VIEW_CHANNEL: 'View Channels',
  SEND_MESSAGES: 'Send Messages',
  SEND_TTS_MESSAGES: 'Send Text-to-Speech Messages',
  MANAGE_MESSAGES: 'Manage Messages',
  EMBED_LINKS: 'Embed Links',
  ATTACH_FILES: 'Attach Files',
  READ_MESSAGE_HISTORY: 'Read Message History',
  MENTION_EVERYONE: 'Mention @everyone, @here and All Roles',
  USE_EXTERNAL_EMOJIS: 'Use External Emoji',
  VIEW_GUILD_INSIGHTS: 'View Server Insights',
  CONNECT: 'Connect',
  SPEAK: 'Speak',
  MUTE_MEMBERS: 'Mute Members',
  DEAFEN_MEMBERS: 'Deafen Members',
  MOVE_MEMBERS: 'Move Members',
  USE_VAD: 'Use Voice Activity',
  CHANGE_NICKNAME: 'Change Nickname',
  MANAGE_NICKNAMES: 'Manage Nicknames',
  MANAGE_ROLES: 'Manage Roles',
  MANAGE_WEBHOOKS: 'Manage Webhooks',
  MANAGE_GUILD_EXPRESSIONS: 'Manage Expressions',
  USE_APPLICATION_COMMANDS: 'Use Application Commands',
  REQUEST_TO_SPEAK: 'Request to Speak',
  MANAGE_EVENTS: 'Manage Events',
  MANAGE_THREADS: 'Manage Threads',
  CREATE_PUBLIC_THREADS: 'Create Public Threads',
  CREATE_PRIVATE_THREADS: 'Create Private Threads',
  USE_EXTERNAL_STICKERS: 'Use External Stickers',
  SEND_MESSAGES_IN_THREADS: 'Send Messages in Threads',
  USE_EMBEDDED_ACTIVITIES: 'Use Activities',
  MODERATE_MEMBERS: 'Timeout Members',
  VIEW_CREATOR_MONETIZATION_ANALYTICS: 'View Creator Monetization Analytics',
  USE_SOUNDBOARD: 'Use Soundboard',
  CREATE_GUILD_EXPRESSIONS: 'Create Expressions',
  CREATE_EVENTS: 'Create Events',
  USE_EXTERNAL_SOUNDS: 'Use External Sounds',
  SEND_VOICE_MESSAGES: 'Send Voice Messages',
  SET_VOICE_CHANNEL_STATUS: 'Set Voice Channel Status',
  SEND_POLLS: 'Create Polls',
  USE_EXTERNAL_APPS: 'Use External Apps',
  PIN_MESSAGES: 'Pin Messages',
  BYPASS_SLOWMODE: 'Bypass Slowmode',
};

/** Every known permission bit set: the OR of all {@link PermissionFlags}. */
export const ALL_PERMISSIONS: bigint = PERMISSION_NAMES.reduce(
  (all, name) => all | PermissionFlags[name],
  0n,
);

/** The longest decimal string {@link parsePermissions} accepts. */
const MAX_PERMISSION_DIGITS = 64;

/**
 * Parses a permission set from its wire form, a decimal string such as `"2048"`.
 *
 * Only unsigned decimal digits are accepted (leading zeros included), at most 64 of them. Bits
 * that name no known permission are dropped silently, so a client sending a newer or made-up bit
 * cannot store it; the result is always a subset of {@link ALL_PERMISSIONS}.
 *
 * @param value - The decimal string from the request.
 * @returns The known permission bits of `value`.
 * @throws TypeError when `value` is empty, too long, or has anything but the digits 0–9 (signs,
 *   spaces, hex, exponents, decimals).
 * @example
 * ```ts
 * parsePermissions('2048'); // PermissionFlags.SEND_MESSAGES
 * ```
 */
export function parsePermissions(value: string): bigint {
  if (value.length === 0 || value.length > MAX_PERMISSION_DIGITS || !/^[0-9]+$/.test(value)) {
    throw new TypeError(`Invalid permission string: ${JSON.stringify(value.slice(0, 80))}`);
  }
  return BigInt(value) & ALL_PERMISSIONS;
}

/**
 * Serialises a permission set to its wire form, a decimal string. Bits are written as given, with
 * no masking.
 *
 * @param bits - A non-negative permission set.
 * @returns The decimal string, `"0"` for no permissions.
 * @throws TypeError when `bits` is negative.
 */
export function serializePermissions(bits: bigint): string {
  if (bits < 0n) throw new TypeError('A permission set cannot be negative');
  return bits.toString();
}

/**
 * Tells whether `bits` holds every bit of `flag`. This is a pure bit test: ADMINISTRATOR does not
 * imply the other bits here (permission computation does that).
 *
 * @param bits - The permission set to test.
 * @param flag - One flag or an OR of several; `0n` is always held.
 * @returns `true` when all bits of `flag` are set in `bits`.
 */
export function hasPermission(bits: bigint, flag: bigint): boolean {
  return (bits & flag) === flag;
}

/**
 * Lists the names of the known permissions set in `bits`, in bit order. Unknown bits are ignored.
 *
 * @param bits - A permission set.
 * @returns The names, lowest bit first.
 */
export function permissionNames(bits: bigint): PermissionName[] {
  return PERMISSION_NAMES.filter((name) => (bits & PermissionFlags[name]) !== 0n);
}

/**
 * The instants (Unix epoch milliseconds, UTC) from which the split permissions are enforced:
 * before it, the old broader permission still suffices (MANAGE_MESSAGES for pins and for slowmode
 * exemption, MANAGE_GUILD_EXPRESSIONS for bots creating emoji and stickers, MANAGE_EVENTS for bots
 * creating scheduled events). All four date from 2026-02-23T00:00:00Z.
 *
 * @see docs/platform-notes.md#dated-behaviour
 */
export const PERMISSION_ENFORCEMENT_DATES = {
  /** Pin and unpin need PIN_MESSAGES; MANAGE_MESSAGES alone no longer suffices. */
  PIN_MESSAGES: 1_771_804_800_000,
  /** Users need BYPASS_SLOWMODE to be exempt from slowmode. */
  BYPASS_SLOWMODE: 1_771_804_800_000,
  /** Bots need CREATE_GUILD_EXPRESSIONS for custom emoji and stickers. */
  CREATE_GUILD_EXPRESSIONS: 1_771_804_800_000,
  /** Bots need CREATE_EVENTS for scheduled events. */
  CREATE_EVENTS: 1_771_804_800_000,
} as const satisfies Partial<Record<PermissionName, number>>;
