/**
 * @module domain/corsOrigins: which origins may read the API's answers (docs/security.md#cors),
 * and the setting's parser: below both config.ts, which reads the setting, and http/cors.ts,
 * which applies it.
 */

/** `*` (any origin), the allowed origins (`https://game.example.com`), or null for no CORS. */
export type CorsOrigins = '*' | readonly string[] | null;

/**
 * A setting's value: `*`, `off`, or comma-separated origins (`scheme://host[:port]`, http or
 * https, nothing after the port). Undefined when it is none of these.
 */
export function parseCorsOrigins(raw: string): CorsOrigins | undefined {
  const value = raw.trim();
  if (value === '*') return '*';
  if (['off', 'none', 'false', 'no', '0'].includes(value.toLowerCase())) return null;
  const origins = value.split(',').map((part) => part.trim());
  for (const origin of origins) {
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      return undefined;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    if (parsed.origin !== origin) return undefined;
  }
  return [...new Set(origins)];
}
