/**
 * @module resources/auditLog/dispatch: GUILD_AUDIT_LOG_ENTRY_CREATE, checked against
 * discord-api-types' dispatch data.
 */
import type { GatewayGuildAuditLogEntryCreateDispatchData } from 'discord-api-types/v10';
import { guildEvent } from '../dispatches.js';
import type { WireShape } from '../wireShape.js';

/** An audit log entry as `serializeAuditLogEntry` makes it. */
export interface AuditLogEntryWire {
  id: string;
  action_type: number;
  user_id: string | null;
  target_id: string | null;
  changes?: readonly { key: string; old_value?: unknown; new_value?: unknown }[];
  options?: Readonly<Record<string, string>>;
  reason?: string;
}

/**
 * GUILD_AUDIT_LOG_ENTRY_CREATE against discord-api-types, except `changes` and `options`: the
 * library ties each change's values to its key and the options to the action type, while an
 * entry carries them as they were recorded.
 */
type AuditLogEntryDispatchShape = Omit<
  WireShape<GatewayGuildAuditLogEntryCreateDispatchData>,
  'changes' | 'options'
> &
  Pick<AuditLogEntryWire, 'changes' | 'options'>;

/** The gateway dispatches of the audit log. */
export const auditLogDispatches = {
  auditLogEntryCreate: (guildId: string, entry: AuditLogEntryWire) =>
    guildEvent('GUILD_AUDIT_LOG_ENTRY_CREATE', guildId, {
      ...entry,
      guild_id: guildId,
    } satisfies AuditLogEntryDispatchShape),
};

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    GUILD_AUDIT_LOG_ENTRY_CREATE: ReturnType<typeof auditLogDispatches.auditLogEntryCreate>['data'];
  }
}
