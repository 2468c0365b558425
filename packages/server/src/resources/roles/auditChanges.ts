import type { RoleRecord } from '../../storage/index.js';
import { diffChanges, type AuditChange } from '../auditLog/index.js';

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
export function roleChanges(before: RoleRecord | null, after: RoleRecord | null): AuditChange[] {
  return diffChanges(
    before === null ? {} : auditedFields(before),
    after === null ? {} : auditedFields(after),
  );
}
