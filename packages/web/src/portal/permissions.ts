import { PERMISSION_LABELS, PermissionFlags, type PermissionName } from '@guildhall/protocol';

/** A bot permission the URL generator and the install settings offer. */
export interface PermissionOption {
  name: string;
  label: string;
  bit: bigint;
}

/** Every permission bit, lowest first, by the name the platform shows. */
export const PERMISSIONS: readonly PermissionOption[] = (
  Object.entries(PermissionFlags) as [PermissionName, bigint][]
)
  .map(([name, bit]) => ({ name, label: PERMISSION_LABELS[name], bit }))
  .sort((a, b) => (a.bit < b.bit ? -1 : a.bit > b.bit ? 1 : 0));

/** The decimal string of a set of permission names (the wire form). */
export function permissionsValue(names: Iterable<string>): string {
  let value = 0n;
  for (const name of names) {
    const option = PERMISSIONS.find((p) => p.name === name);
    if (option !== undefined) value |= option.bit;
  }
  return value.toString();
}

/** The names set in a decimal permission string. */
export function permissionNames(value: string): Set<string> {
  const bits = /^\d+$/.test(value) ? BigInt(value) : 0n;
  return new Set(PERMISSIONS.filter((p) => (bits & p.bit) === p.bit).map((p) => p.name));
}
