import type { Kysely, Selectable } from 'kysely';
import type { AuditLogEntryRecord, AuditLogRepository } from '../types/auditLog.js';
import { id, idOrNull, int } from './rows.js';
import type { AuditLogEntriesTable, Database } from './schema.js';

function toEntry(row: Selectable<AuditLogEntriesTable>): AuditLogEntryRecord {
  return {
    id: id(row.id),
    guildId: id(row.guild_id),
    userId: idOrNull(row.user_id),
    targetId: row.target_id,
    actionType: int(row.action_type),
    changes:
      row.changes === null ? null : (JSON.parse(row.changes) as AuditLogEntryRecord['changes']),
    options: row.options === null ? null : (JSON.parse(row.options) as Record<string, string>),
    reason: row.reason,
  };
}

export function createAuditLogRepository(db: Kysely<Database>): AuditLogRepository {
  return {
    async append(entry) {
      await db
        .insertInto('audit_log_entries')
        .values({
          id: entry.id,
          guild_id: entry.guildId,
          user_id: entry.userId,
          target_id: entry.targetId,
          action_type: entry.actionType,
          changes: entry.changes === null ? null : JSON.stringify(entry.changes),
          options: entry.options === null ? null : JSON.stringify(entry.options),
          reason: entry.reason,
        })
        .execute();
    },
    async list(guildId, query) {
      let select = db.selectFrom('audit_log_entries').selectAll().where('guild_id', '=', guildId);
      if (query.userId !== undefined) select = select.where('user_id', '=', query.userId);
      if (query.actionType !== undefined)
        select = select.where('action_type', '=', query.actionType);
      if (query.before !== undefined) select = select.where('id', '<', query.before);
      if (query.after !== undefined) select = select.where('id', '>', query.after);
      const rows = await select
        .orderBy('id', query.after !== undefined && query.before === undefined ? 'asc' : 'desc')
        .limit(query.limit)
        .execute();
      return rows.map(toEntry);
    },
  };
}
