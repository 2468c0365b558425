import type { Kysely, Selectable } from 'kysely';
import type { CallRepository, DmCallRecord, DmVoiceStateRecord } from '../types/calls.js';
import type { StorageDialect } from '../types/storage.js';
import type { DmCallsTable, DmVoiceStatesTable } from './callsSchema.js';
import { bool, flag, id, int, jsonArray } from './rows.js';
import type { Database } from './schema.js';

function toCall(row: Selectable<DmCallsTable>): DmCallRecord {
  return {
    channelId: id(row.channel_id),
    messageId: id(row.message_id),
    region: row.region,
    ringing: jsonArray(row.ringing),
    participants: jsonArray(row.participants),
    startedAt: int(row.started_at),
    rangAt: int(row.rang_at),
  };
}

function toVoiceState(row: Selectable<DmVoiceStatesTable>): DmVoiceStateRecord {
  return {
    userId: id(row.user_id),
    channelId: id(row.channel_id),
    sessionId: row.session_id,
    selfMute: bool(row.self_mute),
    selfDeaf: bool(row.self_deaf),
    selfVideo: bool(row.self_video),
    joinedAt: int(row.joined_at),
  };
}

export function createCallRepository(
  db: Kysely<Database>,
  dialect: StorageDialect,
): CallRepository {
  return {
    async lock(channelId) {
      if (dialect !== 'postgres') return;
      await db
        .selectFrom('channels')
        .select('id')
        .where('id', '=', channelId)
        .forUpdate()
        .execute();
    },
    async findCall(channelId) {
      const row = await db
        .selectFrom('dm_calls')
        .selectAll()
        .where('channel_id', '=', channelId)
        .executeTakeFirst();
      return row ? toCall(row) : null;
    },
    async listCallsOfRecipient(userId) {
      const rows = await db
        .selectFrom('dm_calls')
        .innerJoin('channel_recipients', 'channel_recipients.channel_id', 'dm_calls.channel_id')
        .selectAll('dm_calls')
        .where('channel_recipients.user_id', '=', userId)
        .execute();
      return rows.map(toCall);
    },
    async listRingingSince(rangAtOrBefore, limit) {
      const rows = await db
        .selectFrom('dm_calls')
        .selectAll()
        .where('ringing', '!=', '[]')
        .where('rang_at', '<=', rangAtOrBefore)
        .orderBy('rang_at')
        .limit(limit)
        .execute();
      return rows.map(toCall);
    },
    async putCall(call) {
      const values = {
        ringing: JSON.stringify(call.ringing),
        participants: JSON.stringify(call.participants),
        region: call.region,
        rang_at: call.rangAt,
      };
      await db
        .insertInto('dm_calls')
        .values({
          channel_id: call.channelId,
          message_id: call.messageId,
          started_at: call.startedAt,
          ...values,
        })
        .onConflict((oc) => oc.column('channel_id').doUpdateSet(values))
        .execute();
    },
    async deleteCall(channelId) {
      await db.deleteFrom('dm_calls').where('channel_id', '=', channelId).execute();
    },
    async findVoiceState(userId) {
      const row = await db
        .selectFrom('dm_voice_states')
        .selectAll()
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row ? toVoiceState(row) : null;
    },
    async listVoiceStates(channelId) {
      const rows = await db
        .selectFrom('dm_voice_states')
        .selectAll()
        .where('channel_id', '=', channelId)
        .orderBy('joined_at')
        .orderBy('user_id')
        .execute();
      return rows.map(toVoiceState);
    },
    async listVoiceStatesOfSession(sessionId) {
      const rows = await db
        .selectFrom('dm_voice_states')
        .selectAll()
        .where('session_id', '=', sessionId)
        .orderBy('user_id')
        .execute();
      return rows.map(toVoiceState);
    },
    async putVoiceState(state) {
      const values = {
        channel_id: state.channelId,
        session_id: state.sessionId,
        self_mute: flag(state.selfMute),
        self_deaf: flag(state.selfDeaf),
        self_video: flag(state.selfVideo),
        joined_at: state.joinedAt,
      };
      await db
        .insertInto('dm_voice_states')
        .values({ user_id: state.userId, ...values })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
        .execute();
    },
    async deleteVoiceState(userId) {
      const result = await db
        .deleteFrom('dm_voice_states')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
