/**
 * @module resources/roles/dispatch: GUILD_ROLE_CREATE, UPDATE and DELETE. Each builder returns the exact wire payload (`d`),
 * checked against discord-api-types' dispatch data (`satisfies WireShape<…>`).
 */
import type {
  GatewayGuildRoleDeleteDispatchData,
  GatewayGuildRoleModifyDispatchData,
} from 'discord-api-types/v10';
import { guildEvent } from '../dispatches.js';
import type { WireShape } from '../wireShape.js';
import type { RoleWire } from './serialize.js';

/** The gateway dispatches of roles, built from the serializer's wire objects. */
export const roleDispatches = {
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
};

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    GUILD_ROLE_CREATE: ReturnType<typeof roleDispatches.roleCreate>['data'];
    GUILD_ROLE_UPDATE: ReturnType<typeof roleDispatches.roleUpdate>['data'];
    GUILD_ROLE_DELETE: ReturnType<typeof roleDispatches.roleDelete>['data'];
  }
}
