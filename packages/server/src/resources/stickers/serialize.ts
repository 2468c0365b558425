import type { APISticker } from 'discord-api-types/v10';
import type { WireShape } from '../wireShape.js';
import type { StickerRecord, UserRecord } from '../../storage/index.js';
import { serializeUser } from '../users/index.js';

/** Sticker type GUILD (StickerTypes). */
const GUILD_STICKER = 2;

/** The guild sticker object (GuildStickerResponse); `user` only for who may see the creator. */
export function serializeSticker(sticker: StickerRecord, creator: UserRecord | null) {
  return {
    id: sticker.id,
    name: sticker.name,
    tags: sticker.tags,
    type: GUILD_STICKER,
    format_type: sticker.formatType,
    description: sticker.description,
    available: sticker.available,
    guild_id: sticker.guildId,
    ...(creator === null ? {} : { user: serializeUser(creator) }),
  } satisfies WireShape<APISticker>;
}

export type StickerWire = ReturnType<typeof serializeSticker>;

/** The fields an audit entry tracks. */
export function auditedSticker(sticker: StickerRecord) {
  return {
    name: sticker.name,
    tags: sticker.tags,
    description: sticker.description,
    format_type: sticker.formatType,
  };
}
