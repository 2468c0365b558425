import type { Kysely, Selectable } from 'kysely';
import type {
  LobbyMemberRecord,
  LobbyMessageRecord,
  LobbyRecord,
  LobbyRepository,
  LobbyMetadata,
  LobbyVoiceStateRecord,
} from '../types/lobbies.js';
import type { StorageDialect } from '../types/storage.js';
import { bool, flag, id, idOrNull, int, intOrNull } from './rows.js';
import type {
  Database,
  LobbiesTable,
  LobbyMembersTable,
  LobbyMessagesTable,
  LobbyVoiceStatesTable,
} from './schema.js';

function metadataOf(text: string | null): LobbyMetadata | null {
  if (text === null) return null;
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  return Object.fromEntries(
    Object.entries(parsed as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
  );
}

const metadataText = (metadata: LobbyMetadata | null) =>
  metadata === null ? null : JSON.stringify(metadata);

function toLobby(row: Selectable<LobbiesTable>): LobbyRecord {
  return {
    id: id(row.id),
    applicationId: id(row.application_id),
    metadata: metadataOf(row.metadata),
    flags: int(row.flags),
    idleTimeoutSeconds: int(row.idle_timeout_seconds),
    linkedChannelId: idOrNull(row.linked_channel_id),
    overrideEventWebhooksUrl: row.override_event_webhooks_url,
    secretHash: row.secret_hash,
    secretExpiresAt: intOrNull(row.secret_expires_at),
    createdAt: int(row.created_at),
    emptiedAt: intOrNull(row.emptied_at),
  };
}

function toMember(row: Selectable<LobbyMembersTable>): LobbyMemberRecord {
  return {
    lobbyId: id(row.lobby_id),
    userId: id(row.user_id),
    metadata: metadataOf(row.metadata),
    flags: int(row.flags),
    additionalName: row.additional_name,
    joinedAt: int(row.joined_at),
  };
}

function toVoiceState(row: Selectable<LobbyVoiceStatesTable>): LobbyVoiceStateRecord {
  return {
    lobbyId: id(row.lobby_id),
    userId: id(row.user_id),
    applicationId: id(row.application_id),
    sessionId: row.session_id,
    selfMute: bool(row.self_mute),
    selfDeaf: bool(row.self_deaf),
    joinedAt: int(row.joined_at),
  };
}

function toMessage(row: Selectable<LobbyMessagesTable>): LobbyMessageRecord {
  return {
    id: id(row.id),
    lobbyId: id(row.lobby_id),
    authorId: id(row.author_id),
    applicationId: id(row.application_id),
    content: row.content,
    metadata: metadataOf(row.metadata),
    flags: int(row.flags),
    additionalName: row.additional_name,
    createdAt: int(row.created_at),
    editedAt: intOrNull(row.edited_at),
  };
}

export function createLobbyRepository(
  db: Kysely<Database>,
  dialect: StorageDialect,
): LobbyRepository {
  const memberValues = (m: LobbyMemberRecord) => ({
    metadata: metadataText(m.metadata),
    flags: m.flags,
    additional_name: m.additionalName,
  });
  return {
    async create(lobby) {
      const result = await db
        .insertInto('lobbies')
        .values({
          id: lobby.id,
          application_id: lobby.applicationId,
          metadata: metadataText(lobby.metadata),
          flags: lobby.flags,
          idle_timeout_seconds: lobby.idleTimeoutSeconds,
          linked_channel_id: lobby.linkedChannelId,
          override_event_webhooks_url: lobby.overrideEventWebhooksUrl,
          secret_hash: lobby.secretHash,
          secret_expires_at: lobby.secretExpiresAt,
          created_at: lobby.createdAt,
          emptied_at: lobby.emptiedAt,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    async findById(lobbyId) {
      const row = await db
        .selectFrom('lobbies')
        .selectAll()
        .where('id', '=', lobbyId)
        .executeTakeFirst();
      return row ? toLobby(row) : null;
    },
    async findBySecret(applicationId, secretHash) {
      const row = await db
        .selectFrom('lobbies')
        .selectAll()
        .where('application_id', '=', applicationId)
        .where('secret_hash', '=', secretHash)
        .executeTakeFirst();
      return row ? toLobby(row) : null;
    },
    async update(lobbyId, patch) {
      const values = {
        ...(patch.metadata === undefined ? {} : { metadata: metadataText(patch.metadata) }),
        ...(patch.flags === undefined ? {} : { flags: patch.flags }),
        ...(patch.idleTimeoutSeconds === undefined
          ? {}
          : { idle_timeout_seconds: patch.idleTimeoutSeconds }),
        ...(patch.linkedChannelId === undefined
          ? {}
          : { linked_channel_id: patch.linkedChannelId }),
        ...(patch.overrideEventWebhooksUrl === undefined
          ? {}
          : { override_event_webhooks_url: patch.overrideEventWebhooksUrl }),
        ...(patch.secretHash === undefined ? {} : { secret_hash: patch.secretHash }),
        ...(patch.secretExpiresAt === undefined
          ? {}
          : { secret_expires_at: patch.secretExpiresAt }),
        ...(patch.emptiedAt === undefined ? {} : { emptied_at: patch.emptiedAt }),
      };
      if (Object.keys(values).length === 0) return;
      await db.updateTable('lobbies').set(values).where('id', '=', lobbyId).execute();
    },
    async delete(lobbyId) {
      // The cascade would do it; explicit deletes keep SQLite without foreign keys correct too.
      await db
        .deleteFrom('lobby_message_moderation')
        .where('message_id', 'in', (eb) =>
          eb.selectFrom('lobby_messages').select('id').where('lobby_id', '=', lobbyId),
        )
        .execute();
      await db.deleteFrom('lobby_messages').where('lobby_id', '=', lobbyId).execute();
      await db.deleteFrom('lobby_voice_states').where('lobby_id', '=', lobbyId).execute();
      await db.deleteFrom('lobby_members').where('lobby_id', '=', lobbyId).execute();
      const result = await db.deleteFrom('lobbies').where('id', '=', lobbyId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async listExpiredEmpty(now, limit) {
      const rows = await db
        .selectFrom('lobbies')
        .selectAll()
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('lobby_members')
                .select('lobby_members.user_id')
                .whereRef('lobby_members.lobby_id', '=', 'lobbies.id'),
            ),
          ),
        )
        .where(
          (eb) =>
            eb(
              eb.fn.coalesce('emptied_at', 'created_at'),
              '+',
              eb('idle_timeout_seconds', '*', 1000),
            ),
          '<=',
          now,
        )
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(toLobby);
    },

    async lock(lobbyId) {
      if (dialect !== 'postgres') return;
      await db.selectFrom('lobbies').select('id').where('id', '=', lobbyId).forUpdate().execute();
    },
    async listMembers(lobbyId) {
      const rows = await db
        .selectFrom('lobby_members')
        .selectAll()
        .where('lobby_id', '=', lobbyId)
        .orderBy('joined_at')
        .orderBy('user_id')
        .execute();
      return rows.map(toMember);
    },
    async findMember(lobbyId, userId) {
      const row = await db
        .selectFrom('lobby_members')
        .selectAll()
        .where('lobby_id', '=', lobbyId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row ? toMember(row) : null;
    },
    async putMember(member) {
      await db
        .insertInto('lobby_members')
        .values({
          lobby_id: member.lobbyId,
          user_id: member.userId,
          joined_at: member.joinedAt,
          ...memberValues(member),
        })
        .onConflict((oc) => oc.columns(['lobby_id', 'user_id']).doUpdateSet(memberValues(member)))
        .execute();
    },
    async removeMember(lobbyId, userId) {
      await db
        .deleteFrom('lobby_voice_states')
        .where('lobby_id', '=', lobbyId)
        .where('user_id', '=', userId)
        .execute();
      const result = await db
        .deleteFrom('lobby_members')
        .where('lobby_id', '=', lobbyId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async countMembers(lobbyId) {
      const row = await db
        .selectFrom('lobby_members')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('lobby_id', '=', lobbyId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async countLobbiesOfUser(userId, applicationId) {
      const row = await db
        .selectFrom('lobby_members')
        .innerJoin('lobbies', 'lobbies.id', 'lobby_members.lobby_id')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('lobby_members.user_id', '=', userId)
        .where('lobbies.application_id', '=', applicationId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async listLobbiesOfUser(userId, applicationId) {
      const rows = await db
        .selectFrom('lobby_members')
        .innerJoin('lobbies', 'lobbies.id', 'lobby_members.lobby_id')
        .selectAll('lobbies')
        .where('lobby_members.user_id', '=', userId)
        .where('lobbies.application_id', '=', applicationId)
        .orderBy('lobbies.id')
        .execute();
      return rows.map(toLobby);
    },
    async listLinkedToChannels(applicationId, channelIds) {
      if (channelIds.length === 0) return [];
      const rows = await db
        .selectFrom('lobbies')
        .selectAll()
        .where('application_id', '=', applicationId)
        .where('linked_channel_id', 'in', [...channelIds])
        .orderBy('id')
        .execute();
      return rows.map(toLobby);
    },
    async isChannelLinkedElsewhere(channelId, lobbyId) {
      const row = await db
        .selectFrom('lobbies')
        .select('id')
        .where('linked_channel_id', '=', channelId)
        .where('id', '!=', lobbyId)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
    async moveMemberships(fromUserId, toUserId, applicationId) {
      let query = db
        .selectFrom('lobby_members')
        .innerJoin('lobbies', 'lobbies.id', 'lobby_members.lobby_id')
        .selectAll('lobby_members')
        .where('lobby_members.user_id', '=', fromUserId);
      if (applicationId !== undefined) {
        query = query.where('lobbies.application_id', '=', applicationId);
      }
      const rows = (await query.execute()).map(toMember);
      const moved: string[] = [];
      for (const member of rows) {
        // A call is the session's: it does not move to another account.
        await db
          .deleteFrom('lobby_voice_states')
          .where('lobby_id', '=', member.lobbyId)
          .where('user_id', '=', fromUserId)
          .execute();
        await db
          .deleteFrom('lobby_members')
          .where('lobby_id', '=', member.lobbyId)
          .where('user_id', '=', fromUserId)
          .execute();
        const existing = await db
          .selectFrom('lobby_members')
          .select('user_id')
          .where('lobby_id', '=', member.lobbyId)
          .where('user_id', '=', toUserId)
          .executeTakeFirst();
        if (existing !== undefined) continue;
        await db
          .insertInto('lobby_members')
          .values({
            lobby_id: member.lobbyId,
            user_id: toUserId,
            joined_at: member.joinedAt,
            ...memberValues(member),
          })
          .execute();
        moved.push(member.lobbyId);
      }
      return moved;
    },

    async listVoiceStates(lobbyId) {
      const rows = await db
        .selectFrom('lobby_voice_states')
        .selectAll()
        .where('lobby_id', '=', lobbyId)
        .orderBy('joined_at')
        .orderBy('user_id')
        .execute();
      return rows.map(toVoiceState);
    },
    async findVoiceState(lobbyId, userId) {
      const row = await db
        .selectFrom('lobby_voice_states')
        .selectAll()
        .where('lobby_id', '=', lobbyId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row ? toVoiceState(row) : null;
    },
    async findVoiceStateOfUser(userId, applicationId) {
      const row = await db
        .selectFrom('lobby_voice_states')
        .selectAll()
        .where('user_id', '=', userId)
        .where('application_id', '=', applicationId)
        .executeTakeFirst();
      return row ? toVoiceState(row) : null;
    },
    async listVoiceStatesOfSession(sessionId) {
      const rows = await db
        .selectFrom('lobby_voice_states')
        .selectAll()
        .where('session_id', '=', sessionId)
        .orderBy('lobby_id')
        .execute();
      return rows.map(toVoiceState);
    },
    async putVoiceState(state) {
      const values = {
        session_id: state.sessionId,
        self_mute: flag(state.selfMute),
        self_deaf: flag(state.selfDeaf),
        joined_at: state.joinedAt,
      };
      await db
        .insertInto('lobby_voice_states')
        .values({
          lobby_id: state.lobbyId,
          user_id: state.userId,
          application_id: state.applicationId,
          ...values,
        })
        .onConflict((oc) => oc.columns(['lobby_id', 'user_id']).doUpdateSet(values))
        .execute();
    },
    async deleteVoiceState(lobbyId, userId) {
      const result = await db
        .deleteFrom('lobby_voice_states')
        .where('lobby_id', '=', lobbyId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async createMessage(message) {
      await db
        .insertInto('lobby_messages')
        .values({
          id: message.id,
          lobby_id: message.lobbyId,
          author_id: message.authorId,
          application_id: message.applicationId,
          content: message.content,
          metadata: metadataText(message.metadata),
          flags: message.flags,
          additional_name: message.additionalName,
          created_at: message.createdAt,
          edited_at: message.editedAt,
        })
        .execute();
    },
    async findMessage(lobbyId, messageId) {
      const row = await db
        .selectFrom('lobby_messages')
        .selectAll()
        .where('lobby_id', '=', lobbyId)
        .where('id', '=', messageId)
        .executeTakeFirst();
      return row ? toMessage(row) : null;
    },
    async listMessages(lobbyId, { since, limit }) {
      const rows = await db
        .selectFrom('lobby_messages')
        .selectAll()
        .where('lobby_id', '=', lobbyId)
        .where('created_at', '>=', since)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toMessage);
    },
    async updateMessage(messageId, { content, metadata, editedAt }) {
      await db
        .updateTable('lobby_messages')
        .set({ content, metadata: metadataText(metadata), edited_at: editedAt })
        .where('id', '=', messageId)
        .execute();
    },
    async deleteMessage(lobbyId, messageId) {
      const found = await db
        .selectFrom('lobby_messages')
        .select('id')
        .where('lobby_id', '=', lobbyId)
        .where('id', '=', messageId)
        .executeTakeFirst();
      if (found === undefined) return false;
      await db.deleteFrom('lobby_message_moderation').where('message_id', '=', messageId).execute();
      await db.deleteFrom('lobby_messages').where('id', '=', messageId).execute();
      return true;
    },
    async clearModeration(messageId) {
      await db.deleteFrom('lobby_message_moderation').where('message_id', '=', messageId).execute();
    },

    async putModeration({ messageId, applicationId, metadata, updatedAt }) {
      if (Object.keys(metadata).length === 0) {
        await db
          .deleteFrom('lobby_message_moderation')
          .where('message_id', '=', messageId)
          .where('application_id', '=', applicationId)
          .execute();
        return;
      }
      const values = { metadata: JSON.stringify(metadata), updated_at: updatedAt };
      await db
        .insertInto('lobby_message_moderation')
        .values({ message_id: messageId, application_id: applicationId, ...values })
        .onConflict((oc) => oc.columns(['message_id', 'application_id']).doUpdateSet(values))
        .execute();
    },
    async listModeration(applicationId, messageIds) {
      const found = new Map<string, LobbyMetadata>();
      if (messageIds.length === 0) return found;
      const rows = await db
        .selectFrom('lobby_message_moderation')
        .select(['message_id', 'metadata'])
        .where('application_id', '=', applicationId)
        .where('message_id', 'in', [...messageIds])
        .execute();
      for (const row of rows) found.set(id(row.message_id), metadataOf(row.metadata) ?? {});
      return found;
    },
  };
}
