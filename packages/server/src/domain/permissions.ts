import {
  ALL_PERMISSIONS,
  PERMISSION_ENFORCEMENT_DATES,
  PermissionFlags as P,
  isVoiceChannelType,
} from '@guildhall/protocol';

/**
 * The platform's permission computation, pure: owner, ADMINISTRATOR, @everyone, roles, then the
 * channel's overwrites (@everyone, roles together, the member), then the implicit denials and the
 * timeout. New channels copy their category's overwrites when they are made (as on the platform),
 * so a channel's own overwrites are the whole story at computation time.
 */

export interface PermissionRole {
  id: string;
  permissions: bigint;
  position: number;
}

/** type 0 targets a role, 1 a member. */
export interface PermissionOverwrite {
  id: string;
  type: 0 | 1;
  allow: bigint;
  deny: bigint;
}

export interface PermissionSubject {
  guildId: string;
  ownerId: string;
  /** Every role of the guild, @everyone (whose id is the guild's) included. */
  roles: ReadonlyMap<string, PermissionRole>;
  member: {
    userId: string;
    roleIds: readonly string[];
    /** Epoch ms until which the member is timed out, or null. */
    communicationDisabledUntil: number | null;
  };
  nowMs: number;
}

/** What a timed-out member keeps (the platform's timeout rule). */
const TIMEOUT_ALLOWED = P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY;

const SEND_DEPENDENT = P.SEND_TTS_MESSAGES | P.MENTION_EVERYONE | P.ATTACH_FILES | P.EMBED_LINKS;
const CONNECT_DEPENDENT =
  P.SPEAK |
  P.MUTE_MEMBERS |
  P.DEAFEN_MEMBERS |
  P.MOVE_MEMBERS |
  P.USE_VAD |
  P.PRIORITY_SPEAKER |
  P.STREAM;

function isOwner(subject: PermissionSubject): boolean {
  return subject.member.userId === subject.ownerId;
}

function isTimedOut(subject: PermissionSubject): boolean {
  const until = subject.member.communicationDisabledUntil;
  return until !== null && until > subject.nowMs;
}

/** Guild-level permissions: @everyone and the member's roles. */
export function basePermissions(subject: PermissionSubject): bigint {
  if (isOwner(subject)) return ALL_PERMISSIONS;
  let bits = subject.roles.get(subject.guildId)?.permissions ?? 0n;
  for (const roleId of subject.member.roleIds) bits |= subject.roles.get(roleId)?.permissions ?? 0n;
  if ((bits & P.ADMINISTRATOR) !== 0n) return ALL_PERMISSIONS;
  return isTimedOut(subject) ? bits & TIMEOUT_ALLOWED : bits;
}

/**
 * What makes a thread's permissions differ from its parent's (docs/threads.md#permissions): a
 * private thread is seen only by its members and those who may MANAGE_THREADS, and sending in any
 * thread takes SEND_MESSAGES_IN_THREADS instead of SEND_MESSAGES.
 */
export interface ThreadPermissionContext {
  private: boolean;
  /** Whether the subject is a member of the thread. */
  member: boolean;
}

/**
 * Permissions in one channel, given its overwrites and type. For a thread (`thread` set) pass its
 * parent's type and overwrites: the result's SEND_MESSAGES then means "may send in the thread".
 */
export function channelPermissions(
  subject: PermissionSubject,
  channel: {
    type: number;
    overwrites: readonly PermissionOverwrite[];
    thread?: ThreadPermissionContext;
  },
): bigint {
  const bits = parentChannelPermissions(subject, channel);
  const thread = channel.thread;
  if (thread === undefined) return bits;
  if ((bits & P.VIEW_CHANNEL) === 0n) return 0n;
  if (thread.private && !thread.member && (bits & P.MANAGE_THREADS) === 0n) return 0n;
  let inThread = bits & ~P.SEND_MESSAGES;
  if ((bits & P.SEND_MESSAGES_IN_THREADS) !== 0n) inThread |= P.SEND_MESSAGES;
  else inThread &= ~SEND_DEPENDENT;
  return inThread;
}

function parentChannelPermissions(
  subject: PermissionSubject,
  channel: {
    type: number;
    overwrites: readonly PermissionOverwrite[];
    thread?: ThreadPermissionContext;
  },
): bigint {
  const base = basePermissions(subject);
  if (base === ALL_PERMISSIONS) return ALL_PERMISSIONS;
  let bits = base;
  const everyone = channel.overwrites.find((o) => o.type === 0 && o.id === subject.guildId);
  if (everyone) bits = (bits & ~everyone.deny) | everyone.allow;
  let allow = 0n;
  let deny = 0n;
  const memberRoles = new Set(subject.member.roleIds);
  for (const overwrite of channel.overwrites) {
    if (overwrite.type === 0 && memberRoles.has(overwrite.id)) {
      allow |= overwrite.allow;
      deny |= overwrite.deny;
    }
  }
  bits = (bits & ~deny) | allow;
  const own = channel.overwrites.find((o) => o.type === 1 && o.id === subject.member.userId);
  if (own) bits = (bits & ~own.deny) | own.allow;
  if (isTimedOut(subject)) bits &= TIMEOUT_ALLOWED;
  // Implicit denials: nothing without VIEW_CHANNEL; nothing that needs sending or connecting
  // without SEND_MESSAGES or CONNECT.
  if ((bits & P.VIEW_CHANNEL) === 0n) return 0n;
  // In a thread, sending depends on SEND_MESSAGES_IN_THREADS (channelPermissions).
  if (channel.thread === undefined && (bits & P.SEND_MESSAGES) === 0n) bits &= ~SEND_DEPENDENT;
  if (isVoiceChannelType(channel.type) && (bits & P.CONNECT) === 0n) bits &= ~CONNECT_DEPENDENT;
  return bits;
}

/** The position of the member's highest role (0 for @everyone only); the owner outranks all. */
export function highestRolePosition(subject: PermissionSubject): number {
  if (isOwner(subject)) return Number.POSITIVE_INFINITY;
  let highest = 0;
  for (const roleId of subject.member.roleIds) {
    highest = Math.max(highest, subject.roles.get(roleId)?.position ?? 0);
  }
  return highest;
}

/** Whether the subject may edit, assign or remove a role: only those below their highest. */
export function outranksRole(subject: PermissionSubject, role: PermissionRole): boolean {
  return highestRolePosition(subject) > role.position;
}

/** Whether every bit of `required` is in `bits`. */
export function hasAll(bits: bigint, required: bigint): boolean {
  return (bits & required) === required;
}

/**
 * Whether a member may manage (see, revoke, be told about) a channel's invites: MANAGE_CHANNELS
 * in the channel, or MANAGE_GUILD (which lists the whole guild's invites). DELETE /invites/{code}
 * and the INVITE_CREATE/INVITE_DELETE dispatches use this one rule.
 */
export function canManageInvites(input: { channel: bigint; guild: bigint }): boolean {
  return hasAll(input.channel, P.MANAGE_CHANNELS) || hasAll(input.guild, P.MANAGE_GUILD);
}

/**
 * Dated behaviour (spec, Versioning): the permissions split on February 23, 2026. Each function
 * gives the bits an action needs at `nowMs`; before the date the older, broader permission.
 */
export const requiredPermissions = {
  pinMessages: (nowMs: number) =>
    nowMs >= PERMISSION_ENFORCEMENT_DATES.PIN_MESSAGES ? P.PIN_MESSAGES : P.MANAGE_MESSAGES,
  createExpressions: (nowMs: number) =>
    nowMs >= PERMISSION_ENFORCEMENT_DATES.CREATE_GUILD_EXPRESSIONS
      ? P.CREATE_GUILD_EXPRESSIONS
      : P.MANAGE_GUILD_EXPRESSIONS,
  createEvents: (nowMs: number) =>
    nowMs >= PERMISSION_ENFORCEMENT_DATES.CREATE_EVENTS ? P.CREATE_EVENTS : P.MANAGE_EVENTS,
  /** Any one of these exempts a user from slowmode. */
  bypassSlowmode: (nowMs: number): bigint[] =>
    nowMs >= PERMISSION_ENFORCEMENT_DATES.BYPASS_SLOWMODE
      ? [P.BYPASS_SLOWMODE]
      : [P.MANAGE_MESSAGES, P.MANAGE_CHANNELS, P.MANAGE_THREADS],
} as const;

/** From this date GET /guilds/{id}/channels omits channels the caller cannot view (spec). */
export const CHANNEL_LIST_VISIBILITY_FROM_MS = Date.UTC(2026, 10, 16);
