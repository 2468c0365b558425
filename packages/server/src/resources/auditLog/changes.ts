/** An audit log change: a key with its old and/or new value (wire names, wire values). */
export interface AuditChange {
  key: string;
  old_value?: unknown;
  new_value?: unknown;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The changes between two wire views of an object, keys in `after`'s order. Values absent or
 * null on one side are left out of that side, as the platform's audit log does.
 */
export function diffChanges(
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): AuditChange[] {
  const changes: AuditChange[] = [];
  for (const key of new Set([...Object.keys(after), ...Object.keys(before)])) {
    const oldValue = before[key];
    const newValue = after[key];
    if (same(oldValue, newValue)) continue;
    changes.push({
      key,
      ...(oldValue === undefined || oldValue === null ? {} : { old_value: oldValue }),
      ...(newValue === undefined || newValue === null ? {} : { new_value: newValue }),
    });
  }
  return changes;
}

/** The changes of a created object (new values only) or a deleted one (`side: 'old'`). */
export function snapshotChanges(
  view: Readonly<Record<string, unknown>>,
  side: 'new' | 'old' = 'new',
): AuditChange[] {
  return side === 'new' ? diffChanges({}, view) : diffChanges(view, {});
}
