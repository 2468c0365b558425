/**
 * @module activities/proxyRoute: where a request on an activity origin goes. The request
 * target must be a plain path (no absolute form, no `.` or `..` segment in any spelling, no
 * encoded slash, backslash or control character); an optional `/.proxy` prefix is dropped; the
 * longest URL mapping prefix (on segment boundaries) names the target, and the target path is
 * the mapping target's path followed by the rest of the request path, the query kept. Nothing
 * the mappings do not name can be reached. Docs: docs/activities.md#the-proxy-host.
 */
import { isIP } from 'node:net';

/** One URL mapping as the activity config stores it (activities storage). */
export interface UrlMapping {
  /** Starts with '/'; '/' is the root mapping. */
  prefix: string;
  /** host[:port][/path], without a scheme. */
  target: string;
}

/** Where the proxy reads an application's URL mappings (`storage.activities`). */
export interface UrlMappingSource {
  /** null when the application has no activity. */
  urlMappings(applicationId: string): Promise<UrlMapping[] | null>;
}

/** A mapping target, parsed and checked. */
export interface ProxyTarget {
  protocol: 'http:' | 'https:';
  /** A host name or bare IP address (no brackets). */
  hostname: string;
  port: number;
  /** What the target is told it is called (its Host header). */
  hostHeader: string;
  /** The mapping target's path without a trailing slash ('' for none). */
  basePath: string;
}

/** A request the proxy host does not forward: the status and page it answers. */
export interface Refusal {
  status: 400 | 404 | 405 | 413 | 502 | 504 | 508;
  /** One sentence for the page (never an address or a secret). */
  reason: string;
}

/** What a request on an activity origin resolves to. */
export type Route =
  { ok: true; target: ProxyTarget; prefix: string; path: string } | ({ ok: false } & Refusal);

/** The path prefix the platform's clients have used; optional since 2025-07-30. */
export const PROXY_PREFIX = '/.proxy';

/** Characters an encoded form of which means the same (RFC 3986 unreserved): decoded. */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
/** What a path segment may hold besides percent escapes (RFC 3986 pchar, no backslash). */
const SEGMENT_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%]*$/;
/** Escapes that would change the path's structure or carry control bytes. */
const FORBIDDEN_ESCAPE = /%(?:2f|5c|[01][0-9a-f]|7f)/i;

function refuse(status: Refusal['status'], reason: string): { ok: false } & Refusal {
  return { ok: false, status, reason };
}

/** A segment with unreserved characters decoded; null when it may not be forwarded. */
function normalSegment(segment: string): string | null {
  if (!SEGMENT_CHARS.test(segment) || FORBIDDEN_ESCAPE.test(segment)) return null;
  if (/%(?![0-9a-f]{2})/i.test(segment)) return null;
  const normal = segment.replace(/%([0-9a-f]{2})/gi, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : escape.toUpperCase();
  });
  return normal === '.' || normal === '..' ? null : normal;
}

/** A path already normal: segment characters only (no escape), no `.` or `..` segment. */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9\-._~!$&'()*+,;=:@]*)+$/;
const DOT_SEGMENT = /\/\.\.?(?=\/|$)/;

/** A request path with every segment normalized (`normalSegment`); null when refused. */
function normalPath(rawPath: string): string | null {
  // Most paths have nothing to normalize: they are taken as they are, segment by segment alike.
  if (PLAIN_PATH.test(rawPath) && !DOT_SEGMENT.test(rawPath)) return rawPath;
  const segments = rawPath.split('/').slice(1).map(normalSegment);
  return segments.some((segment) => segment === null) ? null : `/${segments.join('/')}`;
}

/**
 * The request target's path (normalized, without `/.proxy`) and query, or why it is refused.
 */
export function requestPath(
  url: string,
): { ok: true; path: string; query: string } | ({ ok: false } & Refusal) {
  if (!url.startsWith('/')) {
    return refuse(400, 'Only paths can be requested on an activity origin.');
  }
  const queryAt = url.indexOf('?');
  const rawPath = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? '' : url.slice(queryAt);
  let path = normalPath(rawPath);
  if (path === null || /[\s\\]/.test(query)) {
    return refuse(
      400,
      'The path has a segment the proxy does not forward (dots, encoded slashes).',
    );
  }
  if (path === PROXY_PREFIX || path.startsWith(`${PROXY_PREFIX}/`)) {
    path = path.slice(PROXY_PREFIX.length) || '/';
  }
  return { ok: true, path, query };
}

/** A mapping prefix without its trailing slash ('' for the root mapping). */
function bare(prefix: string): string {
  return prefix.replace(/\/+$/, '');
}

/** Whether a prefix names this path on segment boundaries. */
function covers(prefix: string, path: string): boolean {
  return prefix === '' || path === prefix || path.startsWith(`${prefix}/`);
}

/** The item whose prefix (bare; null for none) is the longest covering the path, or null. */
function longest<T>(items: readonly T[], prefixOf: (item: T) => string | null, path: string) {
  let best: T | null = null;
  let bestLength = -1;
  for (const item of items) {
    const prefix = prefixOf(item);
    if (prefix === null || prefix.length <= bestLength || !covers(prefix, path)) continue;
    best = item;
    bestLength = prefix.length;
  }
  return best;
}

/** The mapping with the longest prefix covering the path, or null. */
export function longestMapping(mappings: readonly UrlMapping[], path: string): UrlMapping | null {
  return longest(mappings, (m) => (m.prefix.startsWith('/') ? bare(m.prefix) : null), path);
}

/** A mapping target: host name or [IPv6], an optional port, an optional path. */
const TARGET = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?(\/[^?#\s\\]*)?$/;
/** A host name or IPv4 address: dot-separated labels of letters, digits and inner hyphens. */
const HOST_NAME =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Whether a host name or address is a loopback one (a local development server). */
function isLoopbackName(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127\.\d+\.\d+\.\d+$/.test(hostname) ||
    hostname === '::1'
  );
}

/**
 * A mapping target parsed: over the scheme written (`http://`, `https://`), else https, or http
 * when it names a loopback host (a local development server; those are refused unless loopback
 * is allowed), as activities/config.ts saves them. Null for a target the proxy will not use:
 * credentials, another scheme, a query, a dot segment, or a host under the activity suffix (a
 * loop).
 */
export function parseTarget(target: string, activitySuffix: string): ProxyTarget | null {
  const scheme = /^(https?):\/\//i.exec(target);
  const match = TARGET.exec(scheme === null ? target : target.slice(scheme[0].length));
  if (match === null) return null;
  const [, host = '', portText, rawPath = ''] = match;
  const hostname = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host.startsWith('[') ? isIP(hostname) !== 6 : !HOST_NAME.test(hostname)) return null;
  if (hostname === activitySuffix || hostname.endsWith(`.${activitySuffix}`)) return null;
  const segments = rawPath.split('/').slice(1).map(normalSegment);
  if (segments.some((segment) => segment === null)) return null;
  const written = scheme?.[1]?.toLowerCase();
  const plain = written === undefined ? isLoopbackName(hostname) : written === 'http';
  const protocol = plain ? 'http:' : 'https:';
  const defaultPort = protocol === 'http:' ? 80 : 443;
  const port = portText === undefined ? defaultPort : Number(portText);
  if (port < 1 || port > 65535) return null;
  const hostPart = host.toLowerCase();
  return {
    protocol,
    hostname,
    port,
    hostHeader: port === defaultPort ? hostPart : `${hostPart}:${String(port)}`,
    basePath: rawPath === '' ? '' : `/${segments.join('/')}`.replace(/\/+$/, ''),
  };
}

/**
 * A URL mapping ready to route by: its prefix without the trailing slash ('' for the root
 * mapping), its target parsed (null for one the proxy will not use). Made once per mapping set
 * (the proxy keeps them with the mappings it holds in memory), not once per request.
 */
export interface RoutableMapping {
  prefix: string;
  target: ProxyTarget | null;
}

/** An application's URL mappings made ready to route by; mappings without a '/' prefix left out. */
export function routableMappings(
  mappings: readonly UrlMapping[],
  activitySuffix: string,
): RoutableMapping[] {
  return mappings
    .filter((mapping) => mapping.prefix.startsWith('/'))
    .map((mapping) => ({
      prefix: bare(mapping.prefix),
      target: parseTarget(mapping.target, activitySuffix),
    }));
}

/**
 * Where a request goes by routable mappings (`routableMappings`; null when the application has
 * no activity): the target and the path to ask it for, or the refusal (404 for no activity or
 * no mapping, 400 for a path the proxy does not forward, 502 for a mapping target it will not
 * use).
 */
export function routeByMappings(mappings: readonly RoutableMapping[] | null, url: string): Route {
  const request = requestPath(url);
  if (!request.ok) return request;
  if (mappings === null) return refuse(404, 'This application has no activity.');
  const mapping = longest(mappings, (m) => m.prefix, request.path);
  if (mapping === null) {
    return refuse(404, 'No URL mapping of this activity covers this path.');
  }
  const { target } = mapping;
  if (target === null) {
    return refuse(502, "This URL mapping's target is not one the proxy connects to.");
  }
  const rest = request.path.slice(mapping.prefix.length);
  const path = `${target.basePath}${rest}` || '/';
  return { ok: true, target, prefix: mapping.prefix, path: `${path}${request.query}` };
}

/** `routeByMappings` of an application's stored URL mappings (null: no activity). */
export function routeRequest(
  mappings: readonly UrlMapping[] | null,
  url: string,
  activitySuffix: string,
): Route {
  return routeByMappings(
    mappings === null ? null : routableMappings(mappings, activitySuffix),
    url,
  );
}
