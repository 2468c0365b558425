import { invalidField } from '../errors/index.js';

const MAX_DEPTH = 32;

/** The path of the first string holding U+0000, or null. */
function findNul(
  value: unknown,
  path: (string | number)[],
  depth: number,
): (string | number)[] | null {
  if (typeof value === 'string') return value.includes('\0') ? path : null;
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return null;
  if (Buffer.isBuffer(value)) return null;
  const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
  for (const [key, item] of entries) {
    const found = findNul(item, [...path, key], depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Refuses NUL characters anywhere in a body or query with 50035. PostgreSQL text cannot store
 * them, and no name, nick or message needs one; refusing them at the edge keeps both drivers
 * answering alike.
 */
export function assertNoNul(input: { body: unknown; query: unknown }): void {
  const path = findNul(input.body, [], 0) ?? findNul(input.query, [], 0);
  if (path !== null) {
    throw invalidField(path, 'STRING_TYPE_INVALID', 'Text cannot contain NUL characters.');
  }
}
