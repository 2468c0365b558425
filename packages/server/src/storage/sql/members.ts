import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { MemberPatch, MemberRecord, MemberRepository } from '../types/members.js';
import { conflictsAsStorageErrors } from './conflicts.js';
import { bool, flag, id, int, intOrNull } from './rows.js';
import type { Database, MembersTable } from './schema.js';

export function toMember(row: Selectable<MembersTable>, roleIds: string[]): MemberRecord {
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

function toRow(patch: MemberPatch): Updateable<MembersTable> {
  const row: Updateable<MembersTable> = {};
  if (patch.nick !== undefined) row.nick = patch.nick;
  if (patch.deaf !== undefined) row.deaf = flag(patch.deaf);
  if (patch.mute !== undefined) row.mute = flag(patch.mute);
  if (patch.flags !== undefined) row.flags = patch.flags;
  if (patch.avatar !== undefined) row.avatar = patch.avatar;
  if (patch.banner !== undefined) row.banner = patch.banner;
  if (patch.bio !== undefined) row.bio = patch.bio;
  if (patch.communicationDisabledUntil !== undefined) {
    row.communication_disabled_until = patch.communicationDisabledUntil;
  }
  if (patch.pending !== undefined) row.pending = flag(patch.pending);
  return row;
}

/** A LIKE pattern matching values that start with `text`, with its wildcards escaped. */
function prefixPattern(text: string): string {
  return `${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
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
  const withRoles = async (guildId: string, rows: Selectable<MembersTable>[]) => {
    const roles = await rolesOf(
      guildId,
      rows.map((r) => id(r.user_id)),
    );
    return rows.map((r) => toMember(r, roles.get(id(r.user_id)) ?? []));
  };
  const find = async (guildId: string, userId: string) => {
    const row = await db
      .selectFrom('members')
      .selectAll()
      .where('guild_id', '=', guildId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) return null;
    const roles = await rolesOf(guildId, [userId]);
    return toMember(row, roles.get(userId) ?? []);
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
    find,
    async findForUser(userId, guildIds) {
      if (guildIds.length === 0) return [];
      const guilds = [...guildIds];
      const [rows, roleRows] = await Promise.all([
        db
          .selectFrom('members')
          .selectAll()
          .where('user_id', '=', userId)
          .where('guild_id', 'in', guilds)
          .orderBy('guild_id')
          .execute(),
        db
          .selectFrom('member_roles')
          .select(['guild_id', 'role_id'])
          .where('user_id', '=', userId)
          .where('guild_id', 'in', guilds)
          .orderBy('role_id')
          .execute(),
      ]);
      const byGuild = new Map<string, string[]>();
      for (const row of roleRows) {
        const list = byGuild.get(id(row.guild_id)) ?? [];
        list.push(id(row.role_id));
        byGuild.set(id(row.guild_id), list);
      }
      return rows.map((r) => toMember(r, byGuild.get(id(r.guild_id)) ?? []));
    },
    async listByGuild(guildId, { limit, after }) {
      let query = db.selectFrom('members').selectAll().where('guild_id', '=', guildId);
      if (after !== undefined) query = query.where('user_id', '>', after);
      return withRoles(guildId, await query.orderBy('user_id').limit(limit).execute());
    },
    async update(guildId, userId, patch) {
      const row = toRow(patch);
      if (Object.keys(row).length > 0) {
        await db
          .updateTable('members')
          .set(row)
          .where('guild_id', '=', guildId)
          .where('user_id', '=', userId)
          .execute();
      }
      return find(guildId, userId);
    },
    async remove(guildId, userIds) {
      if (userIds.length === 0) return 0;
      // member_roles rows go with the member (ON DELETE CASCADE in 0001).
      const result = await db
        .deleteFrom('members')
        .where('guild_id', '=', guildId)
        .where('user_id', 'in', [...userIds])
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async addRole(guildId, userId, roleId) {
      const result = await db
        .insertInto('member_roles')
        .values({ guild_id: guildId, user_id: userId, role_id: roleId })
        .onConflict((oc) => oc.columns(['guild_id', 'user_id', 'role_id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    async removeRole(guildId, userId, roleId) {
      const result = await db
        .deleteFrom('member_roles')
        .where('guild_id', '=', guildId)
        .where('user_id', '=', userId)
        .where('role_id', '=', roleId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async search(guildId, { query, limit }) {
      // lower() on both sides and an explicit ESCAPE behave alike on SQLite and PostgreSQL
      // (SQLite's lower() folds ASCII letters only).
      const pattern = prefixPattern(query);
      const starts = (column: 'users.username' | 'users.global_name' | 'members.nick') =>
        sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
      const rows = await db
        .selectFrom('members')
        .innerJoin('users', 'users.id', 'members.user_id')
        .selectAll('members')
        .where('members.guild_id', '=', guildId)
        .where((eb) =>
          eb.or([starts('users.username'), starts('users.global_name'), starts('members.nick')]),
        )
        .orderBy('members.user_id')
        .limit(limit)
        .execute();
      return withRoles(guildId, rows);
    },
    async listPrunable(guildId, { joinedBefore, includeRoleIds }) {
      const rows = await db
        .selectFrom('members')
        .select('user_id')
        .where('guild_id', '=', guildId)
        .where('joined_at', '<', joinedBefore)
        // Bots are never pruned.
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('users')
                .select('users.id')
                .whereRef('users.id', '=', 'members.user_id')
                .where('users.bot', '=', 1),
            ),
          ),
        )
        .where((eb) => {
          let held = eb
            .selectFrom('member_roles')
            .select('role_id')
            .whereRef('member_roles.guild_id', '=', 'members.guild_id')
            .whereRef('member_roles.user_id', '=', 'members.user_id');
          if (includeRoleIds.length > 0)
            held = held.where('role_id', 'not in', [...includeRoleIds]);
          return eb.not(eb.exists(held));
        })
        .orderBy('user_id')
        .execute();
      return rows.map((row) => id(row.user_id));
    },
  };
}
