import type { AuditLogEntryRecord, RoleRecord } from '../../storage/index.js';

type Change = NonNullable<AuditLogEntryRecord['changes']>[number];

/** The audited fields of a role, as the audit log names and shows them. */
function auditedFields(role: RoleRecord): Record<string, unknown> {
  return {
    name: role.name,
    permissions: role.permissions.toString(),
    color: role.color,
    colors: {
      primary_color: role.color,
      secondary_color: role.secondaryColor,
      tertiary_color: role.tertiaryColor,
    },
    hoist: role.hoist,
    mentionable: role.mentionable,
    icon_hash: role.icon,
    unicode_emoji: role.unicodeEmoji,
  };
}

/**
 * The `changes` of a ROLE_CREATE (only `before` null: new values), ROLE_DELETE (only `after`
 * null: old values) or ROLE_UPDATE (the fields that differ) entry.
 */
export function roleChanges(before: RoleRecord | null, after: RoleRecord | null): Change[] {
  const old = before === null ? {} : auditedFields(before);
  const next = after === null ? {} : auditedFields(after);
  const changes: Change[] = [];
  for (const key of Object.keys({ ...old, ...next })) {
    const oldValue = old[key];
    const newValue = next[key];
    if ((oldValue ?? null) === null && (newValue ?? null) === null) continue;
    if (JSON.stringify(oldValue) === JSON.stringify(newValue)) continue;
    changes.push({
      key,
      ...(before === null ? {} : { old_value: oldValue }),
      ...(after === null ? {} : { new_value: newValue }),
    });
  }
  return changes;
}
