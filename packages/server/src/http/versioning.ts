/**
 * API versions (docs/platform-notes.md#versions-and-query-strings): v10 and v9 are served, as are
 * the deprecated v6–v8 and the unversioned /api, all with v10's behaviour; v3–v5 are discontinued
 * and any other version is unknown, both answered with 400.
 */
export const CURRENT_API_VERSION = 10;
export const API_PREFIX = `/api/v${CURRENT_API_VERSION}`;
/** Where requests for a version we do not serve are routed. */
export const INVALID_VERSION_PATH = '/__guildhall/invalid-api-version';

const SERVED_VERSIONS = new Set([6, 7, 8, 9, 10]);
const VERSIONED = /^\/api\/v(\d+)(?=\/|$)/;

/**
 * Decodes percent-encoded ASCII in the path (`/users/%40me` is `/users/@me`) so static segments
 * match; `/`, `?`, `#` and `%` stay encoded, as do multi-byte characters, which the router
 * decodes inside parameters.
 */
export function decodePathAscii(url: string): string {
  if (!url.includes('%')) return url;
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  const decoded = path.replace(/%([0-7][0-9A-Fa-f])/g, (match, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return char < ' ' || '/?#%'.includes(char) ? match : char;
  });
  return query === -1 ? decoded : decoded + url.slice(query);
}

/** Rewrites a request URL onto the v10 routes (or the invalid-version route). */
export function rewriteApiUrl(url: string): string {
  if (!url.startsWith('/api')) return url;
  const rest = url.slice(4);
  if (rest !== '' && !rest.startsWith('/') && !rest.startsWith('?')) return url;
  const match = VERSIONED.exec(url);
  if (match === null) return API_PREFIX + rest;
  const version = Number(match[1]);
  if (!SERVED_VERSIONS.has(version)) return INVALID_VERSION_PATH;
  return version === CURRENT_API_VERSION ? url : API_PREFIX + url.slice(match[0].length);
}
