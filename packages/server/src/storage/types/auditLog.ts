/** The guild audit log. */

/** One audit log entry; `changes` and `options` follow the wire shapes. */
export interface AuditLogEntryRecord {
  id: string;
  guildId: string;
  userId: string | null;
  targetId: string | null;
  actionType: number;
  changes: { key: string; old_value?: unknown; new_value?: unknown }[] | null;
  options: Record<string, string> | null;
  reason: string | null;
}

export interface AuditLogQuery {
  userId?: string;
  actionType?: number;
  before?: string;
  after?: string;
  limit: number;
}

export interface AuditLogRepository {
  append(entry: AuditLogEntryRecord): Promise<void>;
  /** Newest first, or oldest first when `after` is given (as the platform pages). */
  list(guildId: string, query: AuditLogQuery): Promise<AuditLogEntryRecord[]>;
}
