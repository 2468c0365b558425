/**
 * The lobby repository on SQLite and PostgreSQL: lobbies and their members here, their calls'
 * members in lobbyMembers.ts, voice states in lobbyVoice.ts, messages in lobbyMessages.ts.
 */
import type { Kysely } from 'kysely';
import type { LobbyRepository } from '../types/lobbies.js';
import type { StorageDialect } from '../types/storage.js';
import type { Database } from './schema.js';
import { createLobbyMemberRepository } from './lobbyMembers.js';
import { createLobbyMessageRepository } from './lobbyMessages.js';
import { metadataText, toLobby } from './lobbyRows.js';
import { createLobbyVoiceRepository } from './lobbyVoice.js';

export function createLobbyRepository(
  db: Kysely<Database>,
  dialect: StorageDialect,
): LobbyRepository {
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
    ...createLobbyMemberRepository(db),
    ...createLobbyVoiceRepository(db),
    ...createLobbyMessageRepository(db),
  };
}
