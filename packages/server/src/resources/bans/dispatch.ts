/**
 * @module resources/bans/dispatch: GUILD_BAN_ADD and GUILD_BAN_REMOVE. Each builder returns the exact wire payload (`d`),
 * checked against discord-api-types' dispatch data (`satisfies WireShape<…>`).
 */
import type { GatewayGuildBanModifyDispatchData } from 'discord-api-types/v10';
import { guildEvent } from '../dispatches.js';
import type { WireShape } from '../wireShape.js';
import type { UserWire } from '../users/index.js';

/** The gateway dispatches of bans, built from the serializer's wire objects. */
export const banDispatches = {
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
};

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    GUILD_BAN_ADD: ReturnType<typeof banDispatches.banAdd>['data'];
    GUILD_BAN_REMOVE: ReturnType<typeof banDispatches.banRemove>['data'];
  }
}
