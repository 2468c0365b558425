/** Normalisers from driver values to domain values (see schema.ts for why they vary). */

export function id(value: string | bigint): string {
  return String(value);
}

export function idOrNull(value: string | bigint | null): string | null {
  return value === null ? null : String(value);
}

export function int(value: number | bigint | string): number {
  return Number(value);
}

export function intOrNull(value: number | bigint | string | null): number | null {
  return value === null ? null : Number(value);
}

export function bool(value: number | bigint | string): boolean {
  return Number(value) !== 0;
}

export function flag(value: boolean): number {
  return value ? 1 : 0;
}

export function jsonArray(value: string): string[] {
  const parsed: unknown = JSON.parse(value);
  return Array.isArray(parsed) ? parsed.map(String) : [];
}

/** A stored list of scopes, space-separated; '' is none. */
export function splitScopes(scopes: string): string[] {
  return scopes === '' ? [] : scopes.split(' ');
}
