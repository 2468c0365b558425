import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type {
  GatewayRepository,
  IntentApprovalRecord,
  VoiceStateRecord,
} from '../types/gateway.js';
import { bool, flag, id, int, intOrNull } from './rows.js';
import type { Database, VoiceStatesTable } from './schema.js';

function toVoiceState(row: Selectable<VoiceStatesTable>): VoiceStateRecord {
  return {
    guildId: id(row.guild_id),
    userId: id(row.user_id),
    channelId: id(row.channel_id),
    sessionId: row.session_id,
    selfMute: bool(row.self_mute),
    selfDeaf: bool(row.self_deaf),
    selfVideo: bool(row.self_video),
    joinedAt: int(row.joined_at),
    suppress: bool(row.suppress),
    requestToSpeakAt: intOrNull(row.request_to_speak_at),
  };
}

const INTENT_NAMES = new Set(['GUILD_MEMBERS', 'GUILD_PRESENCES', 'MESSAGE_CONTENT']);

/** The gateway's tables: voice states, start times, intent approvals, settings, sessions. */
export function createGatewayRepository(db: Kysely<Database>): GatewayRepository {
  return {
    async listVoiceStates(guildIds) {
      if (guildIds.length === 0) return [];
      const rows = await db
        .selectFrom('voice_states')
        .selectAll()
        .where('guild_id', 'in', [...guildIds])
        .orderBy('joined_at')
        .execute();
      return rows.map(toVoiceState);
    },
    async findVoiceState(guildId, userId) {
      const row = await db
        .selectFrom('voice_states')
        .selectAll()
        .where('guild_id', '=', guildId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row === undefined ? null : toVoiceState(row);
    },
    async isInVoiceChannel(userId, channelId) {
      const row = await db
        .selectFrom('voice_states')
        .select('user_id')
        .where('channel_id', '=', channelId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },
    async listVoiceStatesOfSession(sessionId) {
      const rows = await db
        .selectFrom('voice_states')
        .selectAll()
        .where('session_id', '=', sessionId)
        .orderBy('guild_id')
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
        suppress: flag(state.suppress),
        request_to_speak_at: state.requestToSpeakAt,
      };
      await db
        .insertInto('voice_states')
        .values({ guild_id: state.guildId, user_id: state.userId, ...values })
        .onConflict((oc) => oc.columns(['guild_id', 'user_id']).doUpdateSet(values))
        .execute();
    },
    async deleteVoiceState(guildId, userId) {
      const result = await db
        .deleteFrom('voice_states')
        .where('guild_id', '=', guildId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    async countInVoiceChannel(channelId) {
      const row = await db
        .selectFrom('voice_states')
        .select((eb) => eb.fn.countAll<number | bigint | string>().as('n'))
        .where('channel_id', '=', channelId)
        .executeTakeFirstOrThrow();
      return int(row.n);
    },
    async voiceStartTimes(channelIds) {
      const out = new Map<string, number>();
      if (channelIds.length === 0) return out;
      const rows = await db
        .selectFrom('voice_channel_start_times')
        .selectAll()
        .where('channel_id', 'in', [...channelIds])
        .execute();
      for (const row of rows) out.set(id(row.channel_id), int(row.started_at));
      return out;
    },
    async setVoiceStartTime(channelId, startedAt) {
      if (startedAt === null) {
        await db
          .deleteFrom('voice_channel_start_times')
          .where('channel_id', '=', channelId)
          .execute();
        return;
      }
      await db
        .insertInto('voice_channel_start_times')
        .values({ channel_id: channelId, started_at: startedAt })
        .onConflict((oc) => oc.column('channel_id').doUpdateSet({ started_at: startedAt }))
        .execute();
    },
    async listIntentApprovals(applicationId) {
      const rows = await db
        .selectFrom('privileged_intent_approvals')
        .selectAll()
        .where('application_id', '=', applicationId)
        .execute();
      return rows
        .filter((row) => INTENT_NAMES.has(row.intent))
        .map((row): IntentApprovalRecord => ({
          applicationId: id(row.application_id),
          intent: row.intent as IntentApprovalRecord['intent'],
          status: row.status === 'pending' ? 'pending' : 'approved',
          approvedAt: intOrNull(row.approved_at),
          expiresAt: intOrNull(row.expires_at),
        }));
    },
    async putIntentApproval(approval) {
      const values = {
        status: approval.status,
        approved_at: approval.approvedAt,
        expires_at: approval.expiresAt,
      };
      await db
        .insertInto('privileged_intent_approvals')
        .values({ application_id: approval.applicationId, intent: approval.intent, ...values })
        .onConflict((oc) => oc.columns(['application_id', 'intent']).doUpdateSet(values))
        .execute();
    },
    async privateChannelObfuscation(applicationId) {
      const row = await db
        .selectFrom('application_gateway_settings')
        .select('private_channel_obfuscation')
        .where('application_id', '=', applicationId)
        .executeTakeFirst();
      return row !== undefined && bool(row.private_channel_obfuscation);
    },
    async setPrivateChannelObfuscation(applicationId, on) {
      await db
        .insertInto('application_gateway_settings')
        .values({ application_id: applicationId, private_channel_obfuscation: flag(on) })
        .onConflict((oc) =>
          oc.column('application_id').doUpdateSet({ private_channel_obfuscation: flag(on) }),
        )
        .execute();
    },
    async profilePrivacy(userId) {
      const row = await db
        .selectFrom('user_profile_privacy')
        .select('setting')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.setting === 'friends' || row?.setting === 'friends_and_small_servers'
        ? row.setting
        : 'everyone';
    },
    async setProfilePrivacy(userId, setting) {
      await db
        .insertInto('user_profile_privacy')
        .values({ user_id: userId, setting })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ setting }))
        .execute();
    },
    async saveSession(session) {
      const values = {
        state: session.state,
        seq: session.seq,
        updated_at: session.updatedAt,
        node: session.node,
      };
      await db
        .insertInto('gateway_sessions')
        .values({ id: session.id, user_id: session.userId, ...values })
        .onConflict((oc) => oc.column('id').doUpdateSet(values))
        .execute();
    },
    async findSession(sessionId) {
      const row = await db
        .selectFrom('gateway_sessions')
        .selectAll()
        .where('id', '=', sessionId)
        .executeTakeFirst();
      if (row === undefined) return null;
      return {
        id: row.id,
        userId: id(row.user_id),
        state: row.state,
        seq: int(row.seq),
        updatedAt: int(row.updated_at),
        node: row.node,
      };
    },
    async deleteSession(sessionId) {
      await db.deleteFrom('gateway_replay').where('session_id', '=', sessionId).execute();
      await db.deleteFrom('gateway_sessions').where('id', '=', sessionId).execute();
    },
    async appendReplay(entries, keep) {
      if (entries.length === 0) return;
      await db
        .insertInto('gateway_replay')
        .values(
          entries.map((e) => ({
            session_id: e.sessionId,
            seq: e.seq,
            type: e.type,
            data: e.data,
            source: e.source?.id ?? null,
            published_at: e.source?.publishedAt ?? null,
          })),
        )
        .onConflict((oc) => oc.columns(['session_id', 'seq']).doNothing())
        .execute();
      // Trim now and then (each session's every 64th entry), not on every write.
      for (const e of entries) {
        if (e.seq % 64 !== 0) continue;
        await db
          .deleteFrom('gateway_replay')
          .where('session_id', '=', e.sessionId)
          .where('seq', '<=', e.seq - keep)
          .execute();
      }
    },
    async replaySince(sessionId, seq) {
      const rows = await db
        .selectFrom('gateway_replay')
        .selectAll()
        .where('session_id', '=', sessionId)
        .where('seq', '>', seq)
        .orderBy('seq')
        .execute();
      return rows.map((row) => ({
        sessionId: row.session_id,
        seq: int(row.seq),
        type: row.type,
        data: row.data,
        source:
          row.source === null || row.published_at === null
            ? null
            : { id: row.source, publishedAt: int(row.published_at) },
      }));
    },
    async heartbeatNode(node, at) {
      await db
        .insertInto('gateway_nodes')
        .values({ id: node, seen_at: at })
        .onConflict((oc) => oc.column('id').doUpdateSet({ seen_at: at }))
        .execute();
    },
    sweepDeadNodes: (deadBefore, limit) => sweepDeadNodes(db, { deadBefore, limit }),
  };
}

/**
 * The sessions no node can still resume: their node's heartbeat stopped before `deadBefore`, or
 * their node never had one and they were saved before it.
 */
function deadSession(deadBefore: number) {
  return (eb: ExpressionBuilder<Database, 'gateway_sessions'>) =>
    eb.or([
      eb(
        'gateway_sessions.node',
        'in',
        eb.selectFrom('gateway_nodes').select('id').where('seen_at', '<', deadBefore),
      ),
      eb.and([
        eb('gateway_sessions.updated_at', '<', deadBefore),
        eb.not(
          eb.exists(
            eb
              .selectFrom('gateway_nodes')
              .select('id')
              .whereRef('gateway_nodes.id', '=', 'gateway_sessions.node'),
          ),
        ),
      ]),
    ]);
}

async function sweepDeadNodes(
  db: Kysely<Database>,
  batch: { deadBefore: number; limit: number },
): Promise<number> {
  const dead = deadSession(batch.deadBefore);
  // The condition again on the rows themselves: one taken over meanwhile (its node changed) stays.
  // Replay entries go with their session (ON DELETE CASCADE).
  const deleted = await db
    .deleteFrom('gateway_sessions')
    .where('id', 'in', (eb) =>
      eb.selectFrom('gateway_sessions').select('id').where(dead).limit(batch.limit),
    )
    .where(dead)
    .executeTakeFirst();
  const count = Number(deleted.numDeletedRows);
  if (count < batch.limit) {
    await db
      .deleteFrom('gateway_nodes')
      .where('seen_at', '<', batch.deadBefore)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('gateway_sessions')
              .select('id')
              .whereRef('gateway_sessions.node', '=', 'gateway_nodes.id'),
          ),
        ),
      )
      .execute();
  }
  return count;
}
