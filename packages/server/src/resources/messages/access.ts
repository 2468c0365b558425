import { ChannelTypes, PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { channelPermissions, hasAll, type PermissionSubject } from '../../domain/permissions.js';
import { ApiError } from '../../errors/index.js';
import type {
  ChannelRecord,
  MemberRecord,
  OverwriteRecord,
  PrivateChannelRecord,
  Repositories,
  RoleRecord,
} from '../../storage/index.js';
import { serializePartialMember } from '../members/index.js';

/** Channel types that hold messages here. */
export const MESSAGE_CHANNEL_TYPES = new Set<number>([
  ChannelTypes.GUILD_TEXT,
  ChannelTypes.GUILD_ANNOUNCEMENT,
  ChannelTypes.GUILD_VOICE,
  ChannelTypes.GUILD_STAGE_VOICE,
  ChannelTypes.DM,
  ChannelTypes.GROUP_DM,
  ChannelTypes.ANNOUNCEMENT_THREAD,
  ChannelTypes.PUBLIC_THREAD,
  ChannelTypes.PRIVATE_THREAD,
]);

/** Threads: their permissions come from their parent (docs/threads.md#permissions). */
const THREAD_CHANNEL_TYPES = new Set<number>([
  ChannelTypes.ANNOUNCEMENT_THREAD,
  ChannelTypes.PUBLIC_THREAD,
  ChannelTypes.PRIVATE_THREAD,
]);

/**
 * What a recipient may do in a DM or group DM: no guild permissions apply; every recipient may
 * read, send, attach, embed, react and pin, and nobody manages the others' messages.
 */
export const PRIVATE_CHANNEL_PERMISSIONS =
  P.VIEW_CHANNEL |
  P.SEND_MESSAGES |
  P.READ_MESSAGE_HISTORY |
  P.EMBED_LINKS |
  P.ATTACH_FILES |
  P.ADD_REACTIONS |
  P.USE_EXTERNAL_EMOJIS |
  P.USE_EXTERNAL_STICKERS |
  P.SEND_TTS_MESSAGES |
  P.PIN_MESSAGES;

/** Where a channel's dispatches go: its guild's subject, or each recipient's. */
export interface DispatchTarget {
  guildId: string | null;
  channelId: string;
  userIds?: readonly string[];
  /** A game DM's application: its dispatches are scoped to the game (Dispatch.applicationId). */
  applicationId?: string;
}

/** A message channel with the caller's permissions in it, loaded once per request. */
export interface MessageChannelAccess {
  channel: ChannelRecord;
  /** The channel's guild id; null in a DM or group DM. */
  guildId: string | null;
  /** The DM or group DM with its recipients; null in a guild. */
  privateChannel: PrivateChannelRecord | null;
  /** The caller's membership; null in a private channel. */
  member: MemberRecord | null;
  /** The guild's roles by id (none in a private channel). */
  roles: ReadonlyMap<string, RoleRecord>;
  /** The caller as the guild's permission rules see it; null in a private channel. */
  subject: PermissionSubject | null;
  nowMs: number;
  permissions: bigint;
  /** Spread into a dispatch: the guild, or the recipients of a private channel. */
  dispatchTo: DispatchTarget;
  /**
   * Where what the caller sends (a message, its edit, a reaction, a vote, typing) is announced:
   * `dispatchTo`, less the recipients of a DM or group DM who block the caller (blocks hold in
   * private channels, docs/social-dms.md#blocks). A guild channel's is `dispatchTo`.
   */
  sendTarget(repos: Repositories): Promise<DispatchTarget>;
  /** Spread into a wire payload: `guild_id`, or nothing in a private channel. */
  guildWire: { guild_id?: string };
  /** Spread into a wire payload: the caller's `member`, or nothing in a private channel. */
  memberWire(): { member?: ReturnType<typeof serializePartialMember> };
  /** Whether the caller holds every bit. */
  has(bits: bigint): boolean;
  /** 50001 without VIEW_CHANNEL, then 50013 unless every bit is held. */
  require(bits: bigint): void;
}

/**
 * Loads a guild channel, its guild, the caller's membership, the guild's roles and the channel's
 * overwrites in one statement. Takes no lock: posting a message must not serialise a guild.
 * Unknown or malformed channel ids, and channels that hold no messages, are 10003; a guild the
 * caller is not in is 50001.
 */
export async function loadMessageChannel(
  repos: Repositories,
  request: { channelId: string; userId: string; nowMs: number },
): Promise<MessageChannelAccess> {
  const context = isSnowflake(request.channelId)
    ? await repos.channels.findAccessContext(request.channelId, request.userId)
    : null;
  if (context === null) {
    const found = isSnowflake(request.channelId)
      ? await repos.privateChannels.find(request.channelId)
      : null;
    if (found === null) throw new ApiError('UNKNOWN_CHANNEL');
    return privateAccess(found, request);
  }
  const { channel, guild, member, roles, overwrites } = context;
  if (member === null) throw new ApiError('MISSING_ACCESS');
  const roleMap = new Map(roles.map((role) => [role.id, role]));
  const subject: PermissionSubject = {
    guildId: guild.id,
    ownerId: guild.ownerId,
    roles: roleMap,
    member: {
      userId: member.userId,
      roleIds: member.roleIds,
      communicationDisabledUntil: member.communicationDisabledUntil,
    },
    nowMs: request.nowMs,
  };
  const rules = await permissionSource(repos, { channel, overwrites, userId: request.userId });
  const permissions = channelPermissions(subject, {
    ...rules,
    overwrites: rules.overwrites.map((o) => ({
      id: o.targetId,
      type: o.type,
      allow: o.allow,
      deny: o.deny,
    })),
  });
  return {
    channel,
    guildId: guild.id,
    privateChannel: null,
    member,
    roles: roleMap,
    subject,
    nowMs: request.nowMs,
    permissions,
    dispatchTo: { guildId: guild.id, channelId: channel.id },
    sendTarget: () => Promise.resolve({ guildId: guild.id, channelId: channel.id }),
    guildWire: { guild_id: guild.id },
    memberWire: () => ({ member: serializePartialMember(member) }),
    has: (bits) => hasAll(permissions, bits),
    require(bits) {
      if (!hasAll(permissions, P.VIEW_CHANNEL)) throw new ApiError('MISSING_ACCESS');
      if (!hasAll(permissions, bits)) throw new ApiError('MISSING_PERMISSIONS');
    },
  };
}

/**
 * What a channel's permissions are computed from: its own type and overwrites, or for a thread
 * its parent's, with the thread's privacy and the user's membership.
 */
async function permissionSource(
  repos: Repositories,
  input: { channel: ChannelRecord; overwrites: OverwriteRecord[]; userId: string },
): Promise<{
  type: number;
  overwrites: OverwriteRecord[];
  thread?: { private: boolean; member: boolean };
}> {
  const { channel } = input;
  if (!THREAD_CHANNEL_TYPES.has(channel.type) || channel.parentId === null) {
    return { type: channel.type, overwrites: input.overwrites };
  }
  const [parent, overwrites, membership] = await Promise.all([
    repos.channels.findById(channel.parentId),
    repos.overwrites.listByChannel(channel.parentId),
    repos.threads.findMember(channel.id, input.userId),
  ]);
  return {
    type: parent?.type ?? ChannelTypes.GUILD_TEXT,
    overwrites,
    thread: {
      private: channel.type === ChannelTypes.PRIVATE_THREAD,
      member: membership !== null,
    },
  };
}

/**
 * A recipient's access to a DM or group DM: PRIVATE_CHANNEL_PERMISSIONS, events to every
 * recipient (what the caller sends, to those who do not block them). Anyone else gets 50001, as
 * in a guild they are not in.
 */
function privateAccess(
  found: PrivateChannelRecord,
  request: { userId: string; nowMs: number },
): MessageChannelAccess {
  if (!found.recipients.some((r) => r.userId === request.userId)) {
    throw new ApiError('MISSING_ACCESS');
  }
  const permissions = PRIVATE_CHANNEL_PERMISSIONS;
  const userIds = found.recipients.map((r) => r.userId);
  const dispatchTo: DispatchTarget = {
    guildId: null,
    channelId: found.channel.id,
    userIds,
    ...(found.channel.applicationId === null ? {} : { applicationId: found.channel.applicationId }),
  };
  return {
    channel: found.channel,
    guildId: null,
    privateChannel: found,
    member: null,
    roles: new Map(),
    subject: null,
    nowMs: request.nowMs,
    permissions,
    dispatchTo,
    async sendTarget(repos) {
      const others = userIds.filter((id) => id !== request.userId);
      const blockers = new Set(await repos.relationships.blockersAmong(request.userId, others));
      if (blockers.size === 0) return dispatchTo;
      return { ...dispatchTo, userIds: userIds.filter((id) => !blockers.has(id)) };
    },
    guildWire: {},
    memberWire: () => ({}),
    has: (bits) => hasAll(permissions, bits),
    require(bits) {
      if (!hasAll(permissions, bits)) throw new ApiError('MISSING_PERMISSIONS');
    },
  };
}

/** Whether the member is timed out now (never in a private channel). */
export function isTimedOut(access: MessageChannelAccess): boolean {
  const until = access.member?.communicationDisabledUntil ?? null;
  return until !== null && until > access.nowMs;
}
