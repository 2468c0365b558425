import type { Kysely, Selectable, Updateable } from 'kysely';
import type { RolePatch, RoleRecord, RoleRepository } from '../types/members.js';
import { conflictsAsStorageErrors } from './conflicts.js';
import { bool, flag, id, idOrNull, int, intOrNull } from './rows.js';
import type { Database, RolesTable } from './schema.js';

export function toRole(row: Selectable<RolesTable>): RoleRecord {
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
    secondaryColor: intOrNull(row.secondary_color),
    tertiaryColor: intOrNull(row.tertiary_color),
    icon: row.icon,
    unicodeEmoji: row.unicode_emoji,
  };
}

function toRow(patch: RolePatch): Updateable<RolesTable> {
  const row: Updateable<RolesTable> = {};
  if (patch.name !== undefined) row.name = patch.name;
  if (patch.permissions !== undefined) row.permissions = patch.permissions.toString();
  if (patch.position !== undefined) row.position = patch.position;
  if (patch.color !== undefined) row.color = patch.color;
  if (patch.secondaryColor !== undefined) row.secondary_color = patch.secondaryColor;
  if (patch.tertiaryColor !== undefined) row.tertiary_color = patch.tertiaryColor;
  if (patch.hoist !== undefined) row.hoist = flag(patch.hoist);
  if (patch.mentionable !== undefined) row.mentionable = flag(patch.mentionable);
  if (patch.icon !== undefined) row.icon = patch.icon;
  if (patch.unicodeEmoji !== undefined) row.unicode_emoji = patch.unicodeEmoji;
  return row;
}

export function createRoleRepository(db: Kysely<Database>): RoleRepository {
  const findById = async (guildId: string, roleId: string) => {
    const row = await db
      .selectFrom('roles')
      .selectAll()
      .where('guild_id', '=', guildId)
      .where('id', '=', roleId)
      .executeTakeFirst();
    return row ? toRole(row) : null;
  };
  return {
    async create(input) {
      const role: RoleRecord = {
        secondaryColor: null,
        tertiaryColor: null,
        icon: null,
        unicodeEmoji: null,
        ...input,
      };
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
            secondary_color: role.secondaryColor,
            tertiary_color: role.tertiaryColor,
            icon: role.icon,
            unicode_emoji: role.unicodeEmoji,
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
    async listByGuilds(guildIds) {
      if (guildIds.length === 0) return [];
      const rows = await db
        .selectFrom('roles')
        .selectAll()
        .where('guild_id', 'in', [...guildIds])
        .orderBy('guild_id')
        .orderBy('position')
        .orderBy('id')
        .execute();
      return rows.map(toRole);
    },
    findById,
    async update(guildId, roleId, patch) {
      const row = toRow(patch);
      if (Object.keys(row).length > 0) {
        await db
          .updateTable('roles')
          .set(row)
          .where('guild_id', '=', guildId)
          .where('id', '=', roleId)
          .execute();
      }
      return findById(guildId, roleId);
    },
    async delete(guildId, roleId) {
      // member_roles rows go with the role (ON DELETE CASCADE in 0001); its channel overwrites
      // have no foreign key (a target is a role or a member), so they go here.
      await db
        .deleteFrom('permission_overwrites')
        .where('target_id', '=', roleId)
        .where('type', '=', 0)
        .execute();
      const result = await db
        .deleteFrom('roles')
        .where('guild_id', '=', guildId)
        .where('id', '=', roleId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async setPositions(guildId, positions) {
      for (const { id: roleId, position } of positions) {
        await db
          .updateTable('roles')
          .set({ position })
          .where('guild_id', '=', guildId)
          .where('id', '=', roleId)
          .execute();
      }
    },
    async memberCounts(guildId) {
      const rows = await db
        .selectFrom('member_roles')
        .select(['role_id', db.fn.countAll().as('count')])
        .where('guild_id', '=', guildId)
        .groupBy('role_id')
        .execute();
      return new Map(rows.map((row) => [id(row.role_id), int(row.count)]));
    },
  };
}
