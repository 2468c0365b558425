import type { APIEmoji } from 'discord-api-types/v10';
import type { WireShape } from '../wireShape.js';
import type { EmojiRecord, UserRecord } from '../../storage/index.js';
import { serializeUser } from '../users/index.js';

/** The emoji object (EmojiResponse); `user` only when the caller may see who made it. */
export function serializeEmoji(emoji: EmojiRecord, creator: UserRecord | null) {
  return {
    id: emoji.id,
    name: emoji.name,
    roles: emoji.roleIds,
    require_colons: true,
    managed: false,
    animated: emoji.animated,
    available: emoji.available,
    ...(creator === null ? {} : { user: serializeUser(creator) }),
  } satisfies WireShape<APIEmoji>;
}

export type EmojiWire = ReturnType<typeof serializeEmoji>;
