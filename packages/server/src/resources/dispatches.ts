/**
 * The gateway dispatches the REST services announce, one builder per event, each returning the
 * exact wire payload (`d`) the platform sends, checked against discord-api-types' dispatch data
 * (`satisfies WireShape<…>`) so a drift from the wire shape fails the typecheck. Services hand them to `afterCommit` inside their
 * transaction; the gateway filters them per session. The builders take wire objects from the
 * resources' serializers, so a dispatch and the REST response of the same change agree.
 *
 * @module
 */
import type {
  GatewayGuildAuditLogEntryCreateDispatchData,
  GatewayGuildBanModifyDispatchData,
  GatewayGuildDeleteDispatchData,
  GatewayGuildEmojisUpdateDispatchData,
  GatewayGuildIntegrationsUpdateDispatchData,
  GatewayGuildMemberAddDispatchData,
  GatewayGuildMemberRemoveDispatchData,
  GatewayGuildMemberUpdateDispatchData,
  GatewayGuildModifyDispatchData,
  GatewayGuildRoleDeleteDispatchData,
  GatewayGuildRoleModifyDispatchData,
  GatewayGuildStickersUpdateDispatchData,
  GatewayIntegrationCreateDispatchData,
  GatewayIntegrationDeleteDispatchData,
  GatewayIntegrationUpdateDispatchData,
  GatewayUserUpdateDispatchData,
  GatewayVoiceChannelStatusUpdateDispatchData,
} from 'discord-api-types/v10';
import type { Dispatch } from '../events/dispatcher.js';
import type { ChannelWire } from './channels/index.js';
import type { EmojiWire } from './emojis/index.js';
import type { GuildWire } from './guilds/index.js';
import type { IntegrationWire } from './integrations/index.js';
import type { MemberWire } from './members/index.js';
import type { RoleWire } from './roles/index.js';
import type { ScheduledEventWire } from './scheduledEvents/index.js';
import type { StickerWire } from './stickers/index.js';
import type { CurrentUserWire, UserWire } from './users/index.js';
import type { WireShape } from './wireShape.js';

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
  changes?: readonly { key: string; old_value?: unknown; new_value?: unknown }[];
  options?: Readonly<Record<string, string>>;
  reason?: string;
}

/**
 * GUILD_AUDIT_LOG_ENTRY_CREATE against discord-api-types, except `changes` and `options`: the
 * library ties each change's values to its key and the options to the action type, while an
 * entry carries them as they were recorded.
 */
type AuditLogEntryDispatchShape = Omit<
  WireShape<GatewayGuildAuditLogEntryCreateDispatchData>,
  'changes' | 'options'
> &
  Pick<AuditLogEntryWire, 'changes' | 'options'>;

export const dispatches = {
  /** The guild object; gateway guilds also say they are no student hub (`hub_type`). */
  guildUpdate: (guild: GuildWire) =>
    guildEvent('GUILD_UPDATE', guild.id, {
      ...guild,
      hub_type: null,
    } satisfies WireShape<GatewayGuildModifyDispatchData>),

  /** The guild is gone (deleted): `unavailable` is left out, as the platform does. */
  guildDelete: (guildId: string) =>
    guildEvent('GUILD_DELETE', guildId, {
      id: guildId,
    } satisfies WireShape<GatewayGuildDeleteDispatchData>),

  roleCreate: (guildId: string, role: RoleWire) =>
    guildEvent('GUILD_ROLE_CREATE', guildId, {
      guild_id: guildId,
      role,
    } satisfies WireShape<GatewayGuildRoleModifyDispatchData>),
  roleUpdate: (guildId: string, role: RoleWire) =>
    guildEvent('GUILD_ROLE_UPDATE', guildId, {
      guild_id: guildId,
      role,
    } satisfies WireShape<GatewayGuildRoleModifyDispatchData>),
  roleDelete: (guildId: string, roleId: string) =>
    guildEvent('GUILD_ROLE_DELETE', guildId, {
      guild_id: guildId,
      role_id: roleId,
    } satisfies WireShape<GatewayGuildRoleDeleteDispatchData>),

  /**
   * Channel events are gated by VIEW_CHANNEL on the channel itself. The payload is checked by its
   * serializer, per channel type (the library's APIChannel union ties fields to the type).
   */
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
    ...guildEvent('GUILD_MEMBER_ADD', guildId, {
      ...member,
      guild_id: guildId,
    } satisfies WireShape<GatewayGuildMemberAddDispatchData>),
    userIds: [member.user.id],
  }),
  memberUpdate: (guildId: string, member: MemberWire) =>
    guildEvent('GUILD_MEMBER_UPDATE', guildId, {
      guild_id: guildId,
      ...member,
    } satisfies WireShape<GatewayGuildMemberUpdateDispatchData>),
  memberRemove: (guildId: string, user: UserWire) =>
    guildEvent('GUILD_MEMBER_REMOVE', guildId, {
      guild_id: guildId,
      user,
    } satisfies WireShape<GatewayGuildMemberRemoveDispatchData>),

  banAdd: (guildId: string, user: UserWire) =>
    guildEvent('GUILD_BAN_ADD', guildId, {
      guild_id: guildId,
      user,
    } satisfies WireShape<GatewayGuildBanModifyDispatchData>),
  banRemove: (guildId: string, user: UserWire) =>
    guildEvent('GUILD_BAN_REMOVE', guildId, {
      guild_id: guildId,
      user,
    } satisfies WireShape<GatewayGuildBanModifyDispatchData>),

  auditLogEntryCreate: (guildId: string, entry: AuditLogEntryWire) =>
    guildEvent('GUILD_AUDIT_LOG_ENTRY_CREATE', guildId, {
      ...entry,
      guild_id: guildId,
    } satisfies AuditLogEntryDispatchShape),

  /** The guild's whole emoji list after the change. */
  emojisUpdate: (guildId: string, emojis: readonly EmojiWire[]) =>
    guildEvent('GUILD_EMOJIS_UPDATE', guildId, {
      guild_id: guildId,
      emojis,
    } satisfies WireShape<GatewayGuildEmojisUpdateDispatchData>),
  /** The guild's whole sticker list after the change. */
  stickersUpdate: (guildId: string, stickers: readonly StickerWire[]) =>
    guildEvent('GUILD_STICKERS_UPDATE', guildId, {
      guild_id: guildId,
      stickers,
    } satisfies WireShape<GatewayGuildStickersUpdateDispatchData>),

  /** A bot joined: the guild's integration of its application. */
  integrationCreate: (guildId: string, integration: IntegrationWire) =>
    guildEvent('INTEGRATION_CREATE', guildId, {
      ...integration,
      guild_id: guildId,
    } satisfies WireShape<GatewayIntegrationCreateDispatchData>),
  integrationUpdate: (guildId: string, integration: IntegrationWire) =>
    guildEvent('INTEGRATION_UPDATE', guildId, {
      ...integration,
      guild_id: guildId,
    } satisfies WireShape<GatewayIntegrationUpdateDispatchData>),
  /** A bot integration's id is its application's. */
  integrationDelete: (guildId: string, applicationId: string) =>
    guildEvent('INTEGRATION_DELETE', guildId, {
      id: applicationId,
      guild_id: guildId,
      application_id: applicationId,
    } satisfies WireShape<GatewayIntegrationDeleteDispatchData>),
  /** Follows every change of the guild's integrations. */
  guildIntegrationsUpdate: (guildId: string) =>
    guildEvent('GUILD_INTEGRATIONS_UPDATE', guildId, {
      guild_id: guildId,
    } satisfies WireShape<GatewayGuildIntegrationsUpdateDispatchData>),

  /**
   * An event in a channel is gated by that channel's VIEW_CHANNEL. The payload is checked by its
   * serializer against the library's base event (its union ties fields to the entity type).
   */
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

  /**
   * Sent to the user's own sessions only, with every private field: each session gets the email
   * and `premium_type` as GET /users/@me shows them to its token (gateway/tokenRouting.ts).
   */
  userUpdate: (user: CurrentUserWire): TypedDispatch<'USER_UPDATE', CurrentUserWire> => ({
    type: 'USER_UPDATE',
    guildId: null,
    userIds: [user.id],
    data: user satisfies WireShape<GatewayUserUpdateDispatchData>,
  }),

  voiceChannelStatusUpdate: (channel: { id: string; guildId: string; status: string | null }) => ({
    ...guildEvent('VOICE_CHANNEL_STATUS_UPDATE', channel.guildId, {
      id: channel.id,
      guild_id: channel.guildId,
      status: channel.status,
    } satisfies WireShape<GatewayVoiceChannelStatusUpdateDispatchData>),
    channelId: channel.id,
  }),
};
