import { ApiError } from '../../errors/index.js';
import type { IdGenerator } from '../../domain/snowflakes.js';
import type { ForumTagRecord, Repositories } from '../../storage/index.js';
import type { ForumTagInputValue } from './schemas.js';

/**
 * A forum or media channel's `available_tags` (docs/threads.md#forum-and-media-posts): a create
 * or modify body replaces the list; a tag that names an id the channel has keeps it (posts that
 * carry it keep carrying it), others get a new id. Names are unique (40061).
 */
export async function putTags(
  tx: Repositories,
  request: {
    channelId: string;
    input: readonly ForumTagInputValue[];
    ids: IdGenerator;
    current?: readonly ForumTagRecord[];
  },
): Promise<ForumTagRecord[]> {
  const known = new Set((request.current ?? []).map((t) => t.id));
  const names = new Set<string>();
  const tags = request.input.map((tag): ForumTagRecord => {
    const key = tag.name.toLowerCase();
    if (names.has(key)) throw new ApiError('TAG_NAMES_MUST_BE_UNIQUE');
    names.add(key);
    return {
      id: tag.id != null && known.has(tag.id) ? tag.id : request.ids(),
      channelId: request.channelId,
      name: tag.name,
      moderated: tag.moderated ?? false,
      emojiId: tag.emoji_id ?? null,
      emojiName: tag.emoji_name ?? null,
    };
  });
  await tx.threads.replaceTags(request.channelId, tags);
  return tags;
}

/** Tags by channel id. */
export function groupTags(tags: readonly ForumTagRecord[]): Map<string, ForumTagRecord[]> {
  const byChannel = new Map<string, ForumTagRecord[]>();
  for (const tag of tags) {
    const list = byChannel.get(tag.channelId) ?? [];
    list.push(tag);
    byChannel.set(tag.channelId, list);
  }
  return byChannel;
}
