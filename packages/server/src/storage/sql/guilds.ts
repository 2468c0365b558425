import type { Kysely, Selectable } from 'kysely';
import type {
  ChannelRecord,
  ChannelRepository,
  GuildRecord,
  GuildRepository,
  MemberRecord,
  MemberRepository,
  RoleRecord,
  RoleRepository,
} from '../types.js';
import { conflictsAsStorageErrors } from './conflicts.js';
import { bool, flag, id, idOrNull, int, intOrNull, jsonArray } from './rows.js';
import type { ChannelsTable, Database, GuildsTable, MembersTable, RolesTable } from './schema.js';

function toGuild(row: Selectable<GuildsTable>): GuildRecord {
  return {
    id: id(row.id),
    name: row.name,
    icon: row.icon,
    description: row.description,
    ownerId: id(row.owner_id),
    features: jsonArray(row.features),
    preferredLocale: row.preferred_locale,
    createdAt: int(row.created_at),
  };
}

function toRole(row: Selectable<RolesTable>): RoleRecord {
  return {
    id: id(row.id),
    guildId: id(row.guild_id),
    name: row.name,
    permissions: BigInt(row.permissions),
    position: int(row.position),
    color: int(row.color),
    hoist: bool(row.hoist),
    mentionable: bool(row.mentionable),
    managed: bool(row.managed),
    botUserId: idOrNull(row.bot_user_id),
    flags: int(row.flags),
  };
}

function toChannel(row: Selectable<ChannelsTable>): ChannelRecord {
  return {
    id: id(row.id),
    guildId: idOrNull(row.guild_id),
    type: int(row.type),
    name: row.name,
    position: int(row.position),
    parentId: idOrNull(row.parent_id),
    topic: row.topic,
    nsfw: bool(row.nsfw),
    rateLimitPerUser: int(row.rate_limit_per_user),
    bitrate: intOrNull(row.bitrate),
    userLimit: intOrNull(row.user_limit),
    flags: int(row.flags),
    lastMessageId: idOrNull(row.last_message_id),
    createdAt: int(row.created_at),
  };
}

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
  };
}

export function createGuildRepository(db: Kysely<Database>): GuildRepository {
  const findById = async (guildId: string) => {
    const row = await db
      .selectFrom('guilds')
      .selectAll()
      .where('id', '=', guildId)
      .executeTakeFirst();
    return row ? toGuild(row) : null;
  };
  return {
    async create(guild) {
      await conflictsAsStorageErrors(
        db
          .insertInto('guilds')
          .values({
            id: guild.id,
            name: guild.name,
            icon: guild.icon,
            description: guild.description,
            owner_id: guild.ownerId,
            features: JSON.stringify(guild.features),
            preferred_locale: guild.preferredLocale,
            created_at: guild.createdAt,
          })
          .execute(),
      );
      return guild;
    },
    findById,
    async listForUser(userId) {
      const rows = await db
        .selectFrom('guilds')
        .innerJoin('members', 'members.guild_id', 'guilds.id')
        .selectAll('guilds')
        .where('members.user_id', '=', userId)
        .orderBy('guilds.id')
        .execute();
      return rows.map(toGuild);
    },
    async countForUser(userId) {
      const row = await db
        .selectFrom('members')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export function createRoleRepository(db: Kysely<Database>): RoleRepository {
  return {
    async create(role) {
      await conflictsAsStorageErrors(
        db
          .insertInto('roles')
          .values({
            id: role.id,
            guild_id: role.guildId,
            name: role.name,
            permissions: role.permissions.toString(),
            position: role.position,
            color: role.color,
            hoist: flag(role.hoist),
            mentionable: flag(role.mentionable),
            managed: flag(role.managed),
            bot_user_id: role.botUserId,
            flags: role.flags,
          })
          .execute(),
      );
      return role;
    },
    async listByGuild(guildId) {
      const rows = await db
        .selectFrom('roles')
        .selectAll()
        .where('guild_id', '=', guildId)
        .orderBy('position')
        .orderBy('id')
        .execute();
      return rows.map(toRole);
    },
  };
}

export function createChannelRepository(db: Kysely<Database>): ChannelRepository {
  return {
    async create(channel) {
      await conflictsAsStorageErrors(
        db
          .insertInto('channels')
          .values({
            id: channel.id,
            guild_id: channel.guildId,
            type: channel.type,
            name: channel.name,
            position: channel.position,
            parent_id: channel.parentId,
            topic: channel.topic,
            nsfw: flag(channel.nsfw),
            rate_limit_per_user: channel.rateLimitPerUser,
            bitrate: channel.bitrate,
            user_limit: channel.userLimit,
            flags: channel.flags,
            last_message_id: channel.lastMessageId,
            created_at: channel.createdAt,
          })
          .execute(),
      );
      return channel;
    },
    async findById(channelId) {
      const row = await db
        .selectFrom('channels')
        .selectAll()
        .where('id', '=', channelId)
        .executeTakeFirst();
      return row ? toChannel(row) : null;
    },
    async listByGuild(guildId) {
      const rows = await db
        .selectFrom('channels')
        .selectAll()
        .where('guild_id', '=', guildId)
        .orderBy('position')
        .orderBy('id')
        .execute();
      return rows.map(toChannel);
    },
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
      return member;
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
