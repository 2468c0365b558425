import { afterCommit } from '../../events/afterCommit.js';
import type { Repositories } from '../../storage/index.js';
import { dispatches } from '../dispatches.js';
import { serializeEmoji } from './serialize.js';

/**
 * Announces GUILD_EMOJIS_UPDATE with the guild's whole emoji list as it stands in `tx` (the
 * platform sends the full list, never a delta). Creators are not part of the gateway's emoji.
 */
export async function announceEmojiList(tx: Repositories, guildId: string): Promise<void> {
  const emojis = await tx.emojis.listByGuild(guildId);
  afterCommit(
    tx,
    dispatches.emojisUpdate(
      guildId,
      emojis.map((emoji) => serializeEmoji(emoji, null)),
    ),
  );
}
