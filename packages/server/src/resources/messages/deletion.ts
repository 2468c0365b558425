import type { BlobStore } from '../../blobs/index.js';
import { freeBlobsAfterCommit } from '../../blobs/lifecycle.js';
import { afterCommit } from '../../events/afterCommit.js';
import { attachmentKey } from './attachments.js';
import type { Repositories } from '../../storage/index.js';
import { idAtOrAfter } from './shared.js';

/** Messages deleted from one channel. */
export interface DeletedMessages {
  channelId: string;
  ids: string[];
}

/**
 * Deletes an author's messages sent in a guild since `sinceMs` (a ban's delete_message_seconds),
 * inside the caller's transaction, their files once it commits; returns them by channel.
 */
export async function deleteRecentMessages(
  tx: Repositories,
  request: { guildId: string; authorId: string; sinceMs: number; blobs: BlobStore },
): Promise<DeletedMessages[]> {
  const channels = await tx.channels.listByGuild(request.guildId);
  const found = await tx.messages.listIdsByAuthor({
    channelIds: channels.map((channel) => channel.id),
    authorId: request.authorId,
    sinceId: idAtOrAfter(request.sinceMs),
  });
  const byChannel = new Map<string, string[]>();
  for (const { channelId, id } of found) {
    byChannel.set(channelId, [...(byChannel.get(channelId) ?? []), id]);
  }
  const deleted: DeletedMessages[] = [];
  for (const [channelId, ids] of byChannel) {
    const attachmentIds = await tx.blobRefs.attachmentIds({ channelId, messageIds: ids });
    deleted.push({ channelId, ids: await tx.messages.delete(channelId, ids) });
    freeBlobsAfterCommit(tx, request.blobs, attachmentIds.map(attachmentKey));
  }
  return deleted;
}

/** Announces deletions once `tx` commits: MESSAGE_DELETE_BULK per channel. */
export function announceDeletions(
  tx: Repositories,
  request: { guildId: string; deleted: readonly DeletedMessages[] },
): void {
  for (const { channelId, ids } of request.deleted) {
    if (ids.length === 0) continue;
    afterCommit(tx, {
      type: 'MESSAGE_DELETE_BULK',
      guildId: request.guildId,
      channelId,
      data: { ids, channel_id: channelId, guild_id: request.guildId },
    });
  }
}
