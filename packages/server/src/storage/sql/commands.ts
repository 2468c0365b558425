import type { Kysely, Selectable } from 'kysely';
import type {
  ApplicationCommandRecord,
  CommandPermissionRecord,
  CommandRepository,
  GuildCommandPermissionsRecord,
  Localizations,
} from '../types/commands.js';
import type { StorageDialect } from '../types/storage.js';
import type {
  ApplicationCommandPermissionsTable,
  ApplicationCommandsTable,
} from './commandsSchema.js';
import { bool, flag, id, idOrNull, int, intOrNull } from './rows.js';
import type { Database } from './schema.js';

function parsed(text: string): unknown {
  return JSON.parse(text) as unknown;
}

function localizationsOf(text: string | null): Localizations | null {
  if (text === null) return null;
  const value = parsed(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
  );
}

function numbersOf(text: string): number[] {
  const value = parsed(text);
  return Array.isArray(value) ? value.map(Number) : [];
}

function objectsOf(text: string): Record<string, unknown>[] {
  const value = parsed(text);
  return Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
}

const json = (value: unknown) => (value === null ? null : JSON.stringify(value));

function toCommand(row: Selectable<ApplicationCommandsTable>): ApplicationCommandRecord {
  return {
    id: id(row.id),
    applicationId: id(row.application_id),
    guildId: idOrNull(row.guild_id),
    type: int(row.type),
    name: row.name,
    nameLocalizations: localizationsOf(row.name_localizations),
    description: row.description,
    descriptionLocalizations: localizationsOf(row.description_localizations),
    options: objectsOf(row.options),
    defaultMemberPermissions: row.default_member_permissions,
    dmPermission: bool(row.dm_permission),
    contexts: row.contexts === null ? null : numbersOf(row.contexts),
    integrationTypes: numbersOf(row.integration_types),
    nsfw: bool(row.nsfw),
    handler: intOrNull(row.handler),
    version: id(row.version),
    createdAt: int(row.created_at),
  };
}

function toPermissions(
  row: Selectable<ApplicationCommandPermissionsTable>,
): GuildCommandPermissionsRecord {
  return {
    applicationId: id(row.application_id),
    guildId: id(row.guild_id),
    commandId: id(row.command_id),
    permissions: objectsOf(row.permissions).map((p): CommandPermissionRecord => ({
      id: String(p['id']),
      type: Number(p['type']),
      permission: p['permission'] === true,
    })),
  };
}

/** The columns a replace writes: everything but the identity and the creation time. */
function contentColumns(command: ApplicationCommandRecord) {
  return {
    type: command.type,
    name: command.name,
    name_localizations: json(command.nameLocalizations),
    description: command.description,
    description_localizations: json(command.descriptionLocalizations),
    options: JSON.stringify(command.options),
    default_member_permissions: command.defaultMemberPermissions,
    dm_permission: flag(command.dmPermission),
    contexts: json(command.contexts),
    integration_types: JSON.stringify(command.integrationTypes),
    nsfw: flag(command.nsfw),
    handler: command.handler,
    version: command.version,
  };
}

export function createCommandRepository(
  db: Kysely<Database>,
  dialect: StorageDialect,
): CommandRepository {
  const clearPermissions = async (applicationId: string, commandId: string) => {
    await db
      .deleteFrom('application_command_permissions')
      .where('application_id', '=', applicationId)
      .where('command_id', '=', commandId)
      .execute();
  };
  return {
    clearPermissions,
    async lock(applicationId) {
      if (dialect !== 'postgres') return;
      await db
        .selectFrom('applications')
        .select('id')
        .where('id', '=', applicationId)
        .forUpdate()
        .execute();
    },
    async listByScope(applicationId, guildId) {
      let query = db
        .selectFrom('application_commands')
        .selectAll()
        .where('application_id', '=', applicationId);
      query =
        guildId === null
          ? query.where('guild_id', 'is', null)
          : query.where('guild_id', '=', guildId);
      const rows = await query.orderBy('id').execute();
      return rows.map(toCommand);
    },
    async findById(applicationId, commandId) {
      const row = await db
        .selectFrom('application_commands')
        .selectAll()
        .where('application_id', '=', applicationId)
        .where('id', '=', commandId)
        .executeTakeFirst();
      return row ? toCommand(row) : null;
    },
    async create(command) {
      await db
        .insertInto('application_commands')
        .values({
          ...contentColumns(command),
          id: command.id,
          application_id: command.applicationId,
          guild_id: command.guildId,
          created_at: command.createdAt,
        })
        .execute();
    },
    async replace(command) {
      await db
        .updateTable('application_commands')
        .set(contentColumns(command))
        .where('application_id', '=', command.applicationId)
        .where('id', '=', command.id)
        .execute();
    },
    async delete(applicationId, commandId) {
      await clearPermissions(applicationId, commandId);
      const result = await db
        .deleteFrom('application_commands')
        .where('application_id', '=', applicationId)
        .where('id', '=', commandId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async listPermissions(applicationId, guildId) {
      const rows = await db
        .selectFrom('application_command_permissions')
        .selectAll()
        .where('application_id', '=', applicationId)
        .where('guild_id', '=', guildId)
        .orderBy('command_id')
        .execute();
      return rows.map(toPermissions);
    },
    async findPermissions(applicationId, guildId, commandId) {
      const row = await db
        .selectFrom('application_command_permissions')
        .selectAll()
        .where('application_id', '=', applicationId)
        .where('guild_id', '=', guildId)
        .where('command_id', '=', commandId)
        .executeTakeFirst();
      return row ? toPermissions(row) : null;
    },
    async putPermissions(record) {
      const key = {
        application_id: record.applicationId,
        guild_id: record.guildId,
        command_id: record.commandId,
      };
      if (record.permissions.length === 0) {
        await db
          .deleteFrom('application_command_permissions')
          .where('application_id', '=', key.application_id)
          .where('guild_id', '=', key.guild_id)
          .where('command_id', '=', key.command_id)
          .execute();
        return;
      }
      const permissions = JSON.stringify(
        record.permissions.map((p) => ({ id: p.id, type: p.type, permission: p.permission })),
      );
      await db
        .insertInto('application_command_permissions')
        .values({ ...key, permissions })
        .onConflict((oc) =>
          oc.columns(['application_id', 'guild_id', 'command_id']).doUpdateSet({ permissions }),
        )
        .execute();
    },
  };
}
