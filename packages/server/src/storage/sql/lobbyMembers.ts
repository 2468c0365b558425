/**
 * Lobby members, and the lobbies a person is in: the part of the lobby repository over
 * lobby_members (leaving also ends the member's call, and a merge moves memberships).
 */
import type { Kysely } from 'kysely';
import type { LobbyMemberRecord, LobbyRepository } from '../types/lobbies.js';
import { metadataText, toLobby, toMember } from './lobbyRows.js';
import type { Database } from './schema.js';

type LobbyMemberRepository = Pick<
  LobbyRepository,
  | 'listMembers'
  | 'findMember'
  | 'putMember'
  | 'removeMember'
  | 'countMembers'
  | 'countLobbiesOfUser'
  | 'listLobbiesOfUser'
  | 'listLinkedToChannels'
  | 'isChannelLinkedElsewhere'
  | 'moveMemberships'
>;

const memberValues = (m: LobbyMemberRecord) => ({
  metadata: metadataText(m.metadata),
  flags: m.flags,
  additional_name: m.additionalName,
});

export function createLobbyMemberRepository(db: Kysely<Database>): LobbyMemberRepository {
  return {
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
  };
}
