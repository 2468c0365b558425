/**
 * The gateway dispatches the REST services announce, one builder per event, each returning the
 * exact wire payload (`d`) the platform sends. Services hand them to `afterCommit` inside their
 * transaction; the gateway filters them per session. The builders take wire objects from the
 * resources' serializers, so a dispatch and the REST response of the same change agree.
 *
 * @module
 */
import type { Dispatch } from '../events/dispatcher.js';
import type { ChannelWire } from './channels/index.js';
import type { EmojiWire } from './emojis/index.js';
import type { GuildWire } from './guilds/index.js';
import type { MemberWire } from './members/index.js';
import type { RoleWire } from './roles/index.js';
import type { ScheduledEventWire } from './scheduledEvents/index.js';
import type { StickerWire } from './stickers/index.js';
import type { CurrentUserWire, UserWire } from './users/index.js';

/** A dispatch whose name and payload are known at compile time. */
export interface TypedDispatch<TType extends string, TData> extends Dispatch<TData> {
  type: TType;
}

const guildEvent = <TType extends string, TData>(
  type: TType,
  guildId: string,
  data: TData,
): TypedDispatch<TType, TData> => ({ type, guildId, data });

/** An audit log entry as `serializeAuditLogEntry` makes it. */
export interface AuditLogEntryWire {
  id: string;
  action_type: number;
  user_id: string | null;
  target_id: string | null;
  changes?: unknown;
  options?: unknown;
  reason?: string;
}

export const dispatches = {
  /** The guild object; gateway guilds also say they are no student hub (`hub_type`). */
  guildUpdate: (guild: GuildWire) =>
    guildEvent('GUILD_UPDATE', guild.id, { ...guild, hub_type: null }),

  /** The guild is gone (deleted): `unavailable` is left out, as the platform does. */
  guildDelete: (guildId: string) => guildEvent('GUILD_DELETE', guildId, { id: guildId }),

  roleCreate: (guildId: string, role: RoleWire) =>
    guildEvent('GUILD_ROLE_CREATE', guildId, { guild_id: guildId, role }),
  roleUpdate: (guildId: string, role: RoleWire) =>
    guildEvent('GUILD_ROLE_UPDATE', guildId, { guild_id: guildId, role }),
  roleDelete: (guildId: string, roleId: string) =>
    guildEvent('GUILD_ROLE_DELETE', guildId, { guild_id: guildId, role_id: roleId }),

  /** Channel events are gated by VIEW_CHANNEL on the channel itself. */
  channel: <TType extends 'CHANNEL_CREATE' | 'CHANNEL_UPDATE' | 'CHANNEL_DELETE'>(
    type: TType,
    channel: ChannelWire,
  ): TypedDispatch<TType, ChannelWire> => ({
    type,
    guildId: channel.guild_id,
    channelId: channel.id,
    data: channel,
  }),

  /** Also published to the new member's subject: a node serving its sessions joins them. */
  memberAdd: (guildId: string, member: MemberWire) => ({
    ...guildEvent('GUILD_MEMBER_ADD', guildId, { ...member, guild_id: guildId }),
    userIds: [member.user.id],
  }),
  memberUpdate: (guildId: string, member: MemberWire) =>
    guildEvent('GUILD_MEMBER_UPDATE', guildId, { guild_id: guildId, ...member }),
  memberRemove: (guildId: string, user: UserWire) =>
    guildEvent('GUILD_MEMBER_REMOVE', guildId, { guild_id: guildId, user }),

  banAdd: (guildId: string, user: UserWire) =>
    guildEvent('GUILD_BAN_ADD', guildId, { guild_id: guildId, user }),
  banRemove: (guildId: string, user: UserWire) =>
    guildEvent('GUILD_BAN_REMOVE', guildId, { guild_id: guildId, user }),

  auditLogEntryCreate: (guildId: string, entry: AuditLogEntryWire) =>
    guildEvent('GUILD_AUDIT_LOG_ENTRY_CREATE', guildId, { ...entry, guild_id: guildId }),

  /** The guild's whole emoji list after the change. */
  emojisUpdate: (guildId: string, emojis: readonly EmojiWire[]) =>
    guildEvent('GUILD_EMOJIS_UPDATE', guildId, { guild_id: guildId, emojis }),
  /** The guild's whole sticker list after the change. */
  stickersUpdate: (guildId: string, stickers: readonly StickerWire[]) =>
    guildEvent('GUILD_STICKERS_UPDATE', guildId, { guild_id: guildId, stickers }),

  /** An event in a channel is gated by that channel's VIEW_CHANNEL. */
  scheduledEvent: <
    TType extends
      | 'GUILD_SCHEDULED_EVENT_CREATE'
      | 'GUILD_SCHEDULED_EVENT_UPDATE'
      | 'GUILD_SCHEDULED_EVENT_DELETE',
  >(
    type: TType,
    event: ScheduledEventWire,
  ): TypedDispatch<TType, ScheduledEventWire> => ({
    type,
    guildId: event.guild_id,
    ...(event.channel_id === null ? {} : { channelId: event.channel_id }),
    data: event,
  }),

  /** Sent to the user's own sessions only. */
  userUpdate: (user: CurrentUserWire): TypedDispatch<'USER_UPDATE', CurrentUserWire> => ({
    type: 'USER_UPDATE',
    guildId: null,
    userIds: [user.id],
    data: user,
  }),

  voiceChannelStatusUpdate: (channel: { id: string; guildId: string; status: string | null }) => ({
    ...guildEvent('VOICE_CHANNEL_STATUS_UPDATE', channel.guildId, {
      id: channel.id,
      guild_id: channel.guildId,
      status: channel.status,
    }),
    channelId: channel.id,
  }),
};
