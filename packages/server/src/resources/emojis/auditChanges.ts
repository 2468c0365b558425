import type { AuditLogEntryRecord } from '../../storage/index.js';

type Changes = NonNullable<AuditLogEntryRecord['changes']>;
type Wire = Record<string, unknown>;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The audit log `changes` of an object's wire fields (the platform keys changes by wire name):
 * created (only `after`), deleted (only `before`) or modified (the keys whose value differs).
 * Null and absent values are left out of a create or delete, as the platform does.
 */
export function auditChanges(before: Wire | null, after: Wire | null): Changes {
  const changes: Changes = [];
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    const old = before?.[key];
    const now = after?.[key];
    if (before === null) {
      if (now !== undefined && now !== null) changes.push({ key, new_value: now });
    } else if (after === null) {
      if (old !== undefined && old !== null) changes.push({ key, old_value: old });
    } else if (!same(old, now)) {
      changes.push({
        key,
        ...(old === undefined ? {} : { old_value: old }),
        ...(now === undefined ? {} : { new_value: now }),
      });
    }
  }
  return changes;
}
