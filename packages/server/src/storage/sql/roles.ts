import type { Kysely, Selectable } from 'kysely';
import type { RoleRecord, RoleRepository } from '../types.js';
import { conflictsAsStorageErrors } from './conflicts.js';
import { bool, flag, id, idOrNull, int } from './rows.js';
import type { Database, RolesTable } from './schema.js';

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
