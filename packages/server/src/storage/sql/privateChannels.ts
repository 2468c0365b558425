import type { Kysely, Selectable } from 'kysely';
import type {
  ChannelRecipientRecord,
  PrivateChannelRecord,
  PrivateChannelRepository,
} from '../types/privateChannels.js';
import { selectChannelsWithLatest, toChannel } from './channels.js';
import { bool, flag, id, idOrNull, int } from './rows.js';
import type { ChannelRecipientsTable, Database } from './schema.js';

/** Channel types that are private (DM 1, GROUP_DM 3). */
const PRIVATE_TYPES = [1, 3];
const DM_TYPE = 1;
const GROUP_DM_TYPE = 3;

function toRecipient(row: Selectable<ChannelRecipientsTable>): ChannelRecipientRecord {
  return { userId: id(row.user_id), nick: row.nick, open: bool(row.open) };
}

/** DMs and group DMs over Kysely, for both drivers. */
export function createPrivateChannelRepository(db: Kysely<Database>): PrivateChannelRepository {
  const selectChannels = () =>
    selectChannelsWithLatest(db)
      .where('channels.guild_id', 'is', null)
      .where('channels.type', 'in', PRIVATE_TYPES);

  /** The channels of the rows with their recipients, in the rows' order. */
  const withRecipients = async (
    rows: Awaited<ReturnType<ReturnType<typeof selectChannels>['execute']>>,
  ): Promise<PrivateChannelRecord[]> => {
    if (rows.length === 0) return [];
    const recipients = await db
      .selectFrom('channel_recipients')
      .selectAll()
      .where(
        'channel_id',
        'in',
        rows.map((row) => id(row.id)),
      )
      .orderBy('channel_id')
      .orderBy('user_id')
      .execute();
    const byChannel = new Map<string, ChannelRecipientRecord[]>();
    for (const row of recipients) {
      const list = byChannel.get(id(row.channel_id)) ?? [];
      list.push(toRecipient(row));
      byChannel.set(id(row.channel_id), list);
    }
    return rows.map((row) => ({
      channel: toChannel(row),
      ownerId: idOrNull(row.owner_id),
      icon: row.icon,
      recipients: byChannel.get(id(row.id)) ?? [],
    }));
  };

  const one = async (rows: Awaited<ReturnType<ReturnType<typeof selectChannels>['execute']>>) =>
    (await withRecipients(rows))[0] ?? null;

  return {
    async create({ channel, ownerId, icon, dmKey, recipients }) {
      const inserted = await db
        .insertInto('channels')
        .values({
          id: channel.id,
          guild_id: null,
          type: channel.type,
          name: channel.name,
          position: 0,
          parent_id: null,
          topic: null,
          nsfw: 0,
          rate_limit_per_user: 0,
          bitrate: null,
          user_limit: null,
          flags: channel.flags,
          last_message_id: null,
          created_at: channel.createdAt,
          application_id: channel.applicationId,
          owner_id: ownerId,
          icon,
          dm_key: dmKey,
        })
        .onConflict((oc) => oc.column('dm_key').doNothing())
        .executeTakeFirst();
      if ((inserted.numInsertedOrUpdatedRows ?? 0n) === 0n) return false;
      if (recipients.length > 0) {
        await db
          .insertInto('channel_recipients')
          .values(
            recipients.map((r) => ({
              channel_id: channel.id,
              user_id: r.userId,
              nick: r.nick,
              open: flag(r.open),
            })),
          )
          .execute();
      }
      return true;
    },

    async findByDmKey(key) {
      return one(await selectChannels().where('channels.dm_key', '=', key).execute());
    },

    async find(channelId) {
      return one(await selectChannels().where('channels.id', '=', channelId).execute());
    },

    async listOpenFor(userId) {
      const rows = await selectChannels()
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('channel_recipients')
              .select('channel_recipients.user_id')
              .whereRef('channel_recipients.channel_id', '=', 'channels.id')
              .where('channel_recipients.user_id', '=', userId)
              .where('channel_recipients.open', '=', 1),
          ),
        )
        .orderBy('channels.id', 'desc')
        .execute();
      const channels = await withRecipients(rows);
      // Newest activity first: the last message, or the channel's creation.
      const activity = (c: PrivateChannelRecord) => BigInt(c.channel.lastMessageId ?? c.channel.id);
      return channels.sort((a, b) => (activity(b) > activity(a) ? 1 : -1));
    },

    async setOpen(channelId, userIds, open) {
      if (userIds.length === 0) return;
      await db
        .updateTable('channel_recipients')
        .set({ open: flag(open) })
        .where('channel_id', '=', channelId)
        .where('user_id', 'in', [...userIds])
        .where('open', '=', flag(!open))
        .execute();
    },

    async addRecipient(channelId, recipient) {
      const result = await db
        .insertInto('channel_recipients')
        .values({
          channel_id: channelId,
          user_id: recipient.userId,
          nick: recipient.nick,
          open: flag(recipient.open),
        })
        .onConflict((oc) => oc.columns(['channel_id', 'user_id']).doNothing())
        .executeTakeFirst();
      return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
    },

    async setOwner(channelId, ownerId) {
      await db
        .updateTable('channels')
        .set({ owner_id: ownerId })
        .where('id', '=', channelId)
        .execute();
    },

    async removeRecipient(channelId, userId) {
      const result = await db
        .deleteFrom('channel_recipients')
        .where('channel_id', '=', channelId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async deleteDmsOf(userId) {
      const rows = await db
        .selectFrom('channels')
        .innerJoin('channel_recipients', 'channel_recipients.channel_id', 'channels.id')
        .select('channels.id')
        .where('channel_recipients.user_id', '=', userId)
        .where('channels.type', '=', DM_TYPE)
        .where('channels.guild_id', 'is', null)
        .execute();
      const ids = rows.map((row) => id(row.id));
      if (ids.length > 0) {
        await db.deleteFrom('messages').where('channel_id', 'in', ids).execute();
        await db.deleteFrom('channels').where('id', 'in', ids).execute();
      }
      // Its group DMs pass to the next recipient (the row goes with the user).
      const owned = await db
        .selectFrom('channels')
        .select('id')
        .where('owner_id', '=', userId)
        .where('type', '=', GROUP_DM_TYPE)
        .execute();
      for (const row of owned) {
        const next = await db
          .selectFrom('channel_recipients')
          .select('user_id')
          .where('channel_id', '=', row.id)
          .where('user_id', '!=', userId)
          .orderBy('user_id')
          .limit(1)
          .executeTakeFirst();
        if (next === undefined) {
          await db.deleteFrom('channels').where('id', '=', row.id).execute();
        } else {
          await db
            .updateTable('channels')
            .set({ owner_id: id(next.user_id) })
            .where('id', '=', row.id)
            .execute();
        }
      }
      return ids;
    },

    async putModerationMetadata({ messageId, applicationId, metadata, updatedAt }) {
      const json = JSON.stringify(metadata);
      await db
        .insertInto('dm_moderation_metadata')
        .values({
          message_id: messageId,
          application_id: applicationId,
          metadata: json,
          updated_at: updatedAt,
        })
        .onConflict((oc) =>
          oc
            .columns(['message_id', 'application_id'])
            .doUpdateSet({ metadata: json, updated_at: updatedAt }),
        )
        .execute();
    },

    async findModerationMetadata(messageId, applicationId) {
      const row = await db
        .selectFrom('dm_moderation_metadata')
        .selectAll()
        .where('message_id', '=', messageId)
        .where('application_id', '=', applicationId)
        .executeTakeFirst();
      if (row === undefined) return null;
      return {
        messageId: id(row.message_id),
        applicationId: id(row.application_id),
        metadata: JSON.parse(row.metadata) as Record<string, string>,
        updatedAt: int(row.updated_at),
      };
    },

    async clearModerationMetadata(messageId) {
      await db.deleteFrom('dm_moderation_metadata').where('message_id', '=', messageId).execute();
    },
  };
}
