import type { Kysely, Selectable } from 'kysely';
import type { MemberRecord, MemberRepository } from '../types.js';
import { conflictsAsStorageErrors } from './conflicts.js';
import { bool, flag, id, int, intOrNull } from './rows.js';
import type { Database, MembersTable } from './schema.js';

function toMember(row: Selectable<MembersTable>, roleIds: string[]): MemberRecord {
  return {
    guildId: id(row.guild_id),
    userId: id(row.user_id),
    nick: row.nick,
    joinedAt: int(row.joined_at),
    deaf: bool(row.deaf),
    mute: bool(row.mute),
    flags: int(row.flags),
    roleIds,
    avatar: row.avatar,
    banner: row.banner,
    bio: row.bio,
    communicationDisabledUntil: intOrNull(row.communication_disabled_until),
    pending: bool(row.pending),
  };
}

export function createMemberRepository(db: Kysely<Database>): MemberRepository {
  const rolesOf = async (guildId: string, userIds: string[]) => {
    const byUser = new Map<string, string[]>();
    if (userIds.length === 0) return byUser;
    const rows = await db
      .selectFrom('member_roles')
      .select(['user_id', 'role_id'])
      .where('guild_id', '=', guildId)
      .where('user_id', 'in', userIds)
      .orderBy('role_id')
      .execute();
    for (const row of rows) {
      const list = byUser.get(id(row.user_id)) ?? [];
      list.push(id(row.role_id));
      byUser.set(id(row.user_id), list);
    }
    return byUser;
  };
  return {
    async add(member) {
      await conflictsAsStorageErrors(
        db
          .insertInto('members')
          .values({
            guild_id: member.guildId,
            user_id: member.userId,
            nick: member.nick,
            joined_at: member.joinedAt,
            deaf: flag(member.deaf),
            mute: flag(member.mute),
            flags: member.flags,
            avatar: member.avatar ?? null,
            banner: member.banner ?? null,
            bio: member.bio ?? null,
            communication_disabled_until: member.communicationDisabledUntil ?? null,
            pending: flag(member.pending ?? false),
          })
          .execute(),
      );
      if (member.roleIds.length > 0) {
        await db
          .insertInto('member_roles')
          .values(
            member.roleIds.map((roleId) => ({
              guild_id: member.guildId,
              user_id: member.userId,
              role_id: roleId,
            })),
          )
          .execute();
      }
      return {
        avatar: null,
        banner: null,
        bio: null,
        communicationDisabledUntil: null,
        pending: false,
        ...member,
      };
    },
    async find(guildId, userId) {
      const row = await db
        .selectFrom('members')
        .selectAll()
        .where('guild_id', '=', guildId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row) return null;
      const roles = await rolesOf(guildId, [userId]);
      return toMember(row, roles.get(userId) ?? []);
    },
    async listByGuild(guildId, { limit, after }) {
      let query = db.selectFrom('members').selectAll().where('guild_id', '=', guildId);
      if (after !== undefined) query = query.where('user_id', '>', after);
      const rows = await query.orderBy('user_id').limit(limit).execute();
      const roles = await rolesOf(
        guildId,
        rows.map((r) => id(r.user_id)),
      );
      return rows.map((r) => toMember(r, roles.get(id(r.user_id)) ?? []));
    },
  };
}
