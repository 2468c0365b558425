/**
 * @module resources/stickers/dispatch: GUILD_STICKERS_UPDATE. Each builder returns the exact wire payload (`d`),
 * checked against discord-api-types' dispatch data (`satisfies WireShape<…>`).
 */
import type { GatewayGuildStickersUpdateDispatchData } from 'discord-api-types/v10';
import { guildEvent } from '../dispatches.js';
import type { WireShape } from '../wireShape.js';
import type { StickerWire } from './serialize.js';

/** The gateway dispatches of stickers, built from the serializer's wire objects. */
export const stickerDispatches = {
  /** The guild's whole sticker list after the change. */
  stickersUpdate: (guildId: string, stickers: readonly StickerWire[]) =>
    guildEvent('GUILD_STICKERS_UPDATE', guildId, {
      guild_id: guildId,
      stickers,
    } satisfies WireShape<GatewayGuildStickersUpdateDispatchData>),
};

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    GUILD_STICKERS_UPDATE: ReturnType<typeof stickerDispatches.stickersUpdate>['data'];
  }
}
