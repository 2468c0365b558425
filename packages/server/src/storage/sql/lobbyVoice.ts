/** The voice states of lobby calls: the part of the lobby repository over lobby_voice_states. */
import type { Kysely } from 'kysely';
import type { LobbyRepository } from '../types/lobbies.js';
import { toVoiceState } from './lobbyRows.js';
import { flag } from './rows.js';
import type { Database } from './schema.js';

type LobbyVoiceRepository = Pick<
  LobbyRepository,
  | 'listVoiceStates'
  | 'findVoiceState'
  | 'findVoiceStateOfUser'
  | 'listVoiceStatesOfSession'
  | 'putVoiceState'
  | 'deleteVoiceState'
>;

export function createLobbyVoiceRepository(db: Kysely<Database>): LobbyVoiceRepository {
  return {
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
  };
}
