/**
 * @module resources/members/dispatch: GUILD_MEMBER_ADD, UPDATE and REMOVE. Each builder returns the exact wire payload (`d`),
 * checked against discord-api-types' dispatch data (`satisfies WireShape<…>`).
 */
import type {
  GatewayGuildMemberAddDispatchData,
  GatewayGuildMemberRemoveDispatchData,
  GatewayGuildMemberUpdateDispatchData,
} from 'discord-api-types/v10';
import { guildEvent } from '../dispatches.js';
import type { WireShape } from '../wireShape.js';
import type { UserWire } from '../users/index.js';
import type { MemberWire } from './serialize.js';

/** The gateway dispatches of members, built from the serializer's wire objects. */
export const memberDispatches = {
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
};

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    GUILD_MEMBER_ADD: ReturnType<typeof memberDispatches.memberAdd>['data'];
    GUILD_MEMBER_UPDATE: ReturnType<typeof memberDispatches.memberUpdate>['data'];
    GUILD_MEMBER_REMOVE: ReturnType<typeof memberDispatches.memberRemove>['data'];
  }
}
