import { PermissionFlags } from '@guildhall/protocol';
import type { IdGenerator } from '../../domain/snowflakes.js';
import type { Principal } from '../../http/authenticator.js';
import type { AuditLogEntryRecord, AuditLogQuery, Repositories } from '../../storage/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { ServiceDeps } from '../deps.js';
import { auditLogDispatches } from './dispatch.js';
import { loadGuildAccess } from '../access/index.js';
import { serializeUser } from '../users/index.js';

export type NewAuditLogEntry = Omit<AuditLogEntryRecord, 'id' | 'changes' | 'options'> &
  Partial<Pick<AuditLogEntryRecord, 'changes' | 'options'>>;

/**
 * Writes one audit log entry inside the caller's transaction, so the entry exists exactly when
 * the change it records does, and announces its GUILD_AUDIT_LOG_ENTRY_CREATE for after the
 * commit: every entry is dispatched, from this one place.
 */
export async function recordAudit(
  tx: Repositories,
  ids: IdGenerator,
  entry: NewAuditLogEntry,
): Promise<void> {
  const record: AuditLogEntryRecord = { changes: null, options: null, ...entry, id: ids() };
  await tx.auditLog.append(record);
  afterCommit(
    tx,
    auditLogDispatches.auditLogEntryCreate(record.guildId, serializeAuditLogEntry(record)),
  );
}

/**
 * Writes an UPDATE entry only when something changed: an edit that changes nothing is not
 * audited, in every area alike.
 */
export async function recordChanges(
  tx: Repositories,
  ids: IdGenerator,
  entry: NewAuditLogEntry & { changes: NonNullable<AuditLogEntryRecord['changes']> },
): Promise<void> {
  if (entry.changes.length > 0) await recordAudit(tx, ids, entry);
}

/** One entry on the wire: null parts are left out, as the platform does. */
export function serializeAuditLogEntry(entry: AuditLogEntryRecord) {
  return {
    id: entry.id,
    action_type: entry.actionType,
    user_id: entry.userId,
    target_id: entry.targetId,
    ...(entry.changes === null ? {} : { changes: entry.changes }),
    ...(entry.options === null ? {} : { options: entry.options }),
    ...(entry.reason === null ? {} : { reason: entry.reason }),
  };
}

/** GET /guilds/{id}/audit-logs: needs VIEW_AUDIT_LOG. */
export function createAuditLogService(deps: ServiceDeps) {
  const { storage, clock } = deps;
  return {
    async list(principal: Principal, guildId: string, query: AuditLogQuery) {
      const access = await loadGuildAccess(storage, {
        guildId,
        userId: principal.user.id,
        nowMs: clock.now(),
      });
      access.require(PermissionFlags.VIEW_AUDIT_LOG);
      const entries = await storage.auditLog.list(access.guild.id, query);
      const userIds = new Set<string>();
      for (const entry of entries) if (entry.userId !== null) userIds.add(entry.userId);
      const users = await Promise.all([...userIds].map((userId) => storage.users.findById(userId)));
      return {
        audit_log_entries: entries.map(serializeAuditLogEntry),
        users: users.flatMap((user) => (user === null ? [] : [serializeUser(user)])),
        integrations: [],
        webhooks: [],
        guild_scheduled_events: [],
        threads: [],
        application_commands: [],
        auto_moderation_rules: [],
      };
    },
  };
}

export type AuditLogService = ReturnType<typeof createAuditLogService>;
