import type { GatewayGuildEmojisUpdateDispatchData } from 'discord-api-types/v10';
import { afterCommit } from '../../events/afterCommit.js';
import type { Repositories } from '../../storage/index.js';
import { guildEvent } from '../dispatches.js';
import type { WireShape } from '../wireShape.js';
import { serializeEmoji, type EmojiWire } from './serialize.js';

/** The gateway dispatches of emojis. */
export const emojiDispatches = {
  /** The guild's whole emoji list after the change. */
  emojisUpdate: (guildId: string, emojis: readonly EmojiWire[]) =>
    guildEvent('GUILD_EMOJIS_UPDATE', guildId, {
      guild_id: guildId,
      emojis,
    } satisfies WireShape<GatewayGuildEmojisUpdateDispatchData>),
};

/**
 * Announces GUILD_EMOJIS_UPDATE with the guild's whole emoji list as it stands in `tx` (the
 * platform sends the full list, never a delta). Creators are not part of the gateway's emoji.
 */
export async function announceEmojiList(tx: Repositories, guildId: string): Promise<void> {
  const emojis = await tx.emojis.listByGuild(guildId);
  afterCommit(
    tx,
    emojiDispatches.emojisUpdate(
      guildId,
      emojis.map((emoji) => serializeEmoji(emoji, null)),
    ),
  );
}

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    GUILD_EMOJIS_UPDATE: ReturnType<typeof emojiDispatches.emojisUpdate>['data'];
  }
}
