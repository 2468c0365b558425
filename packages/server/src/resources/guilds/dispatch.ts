/**
 * @module resources/guilds/dispatch: GUILD_UPDATE and GUILD_DELETE, as the platform sends them (checked against discord-api-types). Each builder returns the exact wire payload (`d`),
 * checked against discord-api-types' dispatch data (`satisfies WireShape<…>`).
 */
import type {
  GatewayGuildDeleteDispatchData,
  GatewayGuildModifyDispatchData,
} from 'discord-api-types/v10';
import { afterCommit } from '../../events/afterCommit.js';
import type { GuildRecord, Repositories } from '../../storage/index.js';
import { guildEvent } from '../dispatches.js';
import type { WireShape } from '../wireShape.js';
import { viewGuild, type GuildWire } from './serialize.js';

/** The gateway dispatches of guilds, built from the serializer's wire objects. */
export const guildDispatches = {
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
};

/**
 * Announces GUILD_UPDATE with the guild as it stands in `tx`. Handed to the services below
 * `guilds/` (channels) that change a guild's fields, so they need not import it.
 */
export async function announceGuildUpdate(tx: Repositories, guild: GuildRecord): Promise<void> {
  afterCommit(tx, guildDispatches.guildUpdate(await viewGuild(tx, guild)));
}

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    GUILD_UPDATE: ReturnType<typeof guildDispatches.guildUpdate>['data'];
    GUILD_DELETE: ReturnType<typeof guildDispatches.guildDelete>['data'];
  }
}
