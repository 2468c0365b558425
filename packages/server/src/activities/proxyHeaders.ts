/**
 * @module activities/proxyHeaders: the headers the proxy host forwards and adds. Towards the
 * target: hop-by-hop headers dropped, Host rewritten to the target's, X-Forwarded-For/-Host/
 * -Proto and Via set, the platform's own cookies (`guildhall_*`) removed, proxy authentication's
 * headers set from a checked ticket only. Towards the browser:
 * hop-by-hop headers and the target's framing, CSP and transport policies dropped, cookies kept
 * to the activity's own host (no Domain attribute), and the platform's security headers and CSP
 * for activity frames added. Docs: docs/activities.md#the-proxy-host.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { PROXY_AUTH_HEADERS } from './proxyTicket.js';

/** Headers that belong to one connection (RFC 9110 7.6.1) and the client's own forwarding ones. */
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'http2-settings',
  // The proxy answered the browser's 100-continue itself (Node does, with no listener).
  'expect',
  'host',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-real-ip',
  // Proxy authentication (proxyAuth.ts): only the proxy host sets them, from a checked ticket.
  ...PROXY_AUTH_HEADERS,
]);

/**
 * What the target may not set on the activity origin: hop-by-hop headers, and policies the
 * platform decides for activity frames (framing, CSP and its reports, HSTS, alternative services).
 */
const NOT_RETURNED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-security-policy',
  'content-security-policy-report-only',
  'x-frame-options',
  'x-content-type-options',
  'referrer-policy',
  'strict-transport-security',
  'alt-svc',
  'report-to',
  'reporting-endpoints',
  'nel',
]);

/** The token this proxy adds to Via, to refuse a request that went round through it. */
export const VIA_TOKEN = 'guildhall-activities';

/**
 * Cookie names the platform uses for itself (http/pageCookies.ts), with or without the
 * `__Host-` or `__Secure-` prefix: never forwarded.
 */
const PLATFORM_COOKIE = /^\s*(?:__Host-|__Secure-)?guildhall_/i;

const NO_TOKENS: ReadonlySet<string> = new Set();
/** Connection header values seen, with their tokens: a handful of spellings come again and again. */
const tokenMemo = new Map<string, ReadonlySet<string>>();
const MAX_TOKEN_MEMO = 64;

/** The header names a Connection header lists (also connection-specific). */
function connectionTokens(headers: IncomingHttpHeaders): ReadonlySet<string> {
  const value = headers.connection;
  if (value === undefined || value === '') return NO_TOKENS;
  const held = tokenMemo.get(value);
  if (held !== undefined) return held;
  const tokens = new Set(
    value
      .split(',')
      .map((token) => token.trim().toLowerCase())
      .filter((token) => token !== ''),
  );
  if (tokenMemo.size >= MAX_TOKEN_MEMO) tokenMemo.clear();
  tokenMemo.set(value, tokens);
  return tokens;
}

/** The Cookie header without the platform's cookies; undefined when nothing is left. */
export function activityCookies(cookie: string | undefined): string | undefined {
  if (cookie === undefined) return undefined;
  const kept = cookie
    .split(';')
    .filter((pair) => pair.trim() !== '' && !PLATFORM_COOKIE.test(pair))
    .map((pair) => pair.trim());
  return kept.length === 0 ? undefined : kept.join('; ');
}

export interface ForwardContext {
  /** The target's Host header. */
  targetHost: string;
  /** The browser's address, under the server's trust-proxy rule. */
  clientAddress: string;
  /** The activity origin's scheme, without the colon. */
  proto: 'http' | 'https';
  /** A WebSocket upgrade: Connection and Upgrade are kept for it. */
  websocket: boolean;
  /** Proxy authentication's signed headers for the request's ticket (proxyAuth.ts), or null. */
  auth: Record<string, string> | null;
}

/** The request headers sent to the target. */
export function forwardedRequestHeaders(
  headers: IncomingHttpHeaders,
  context: ForwardContext,
): OutgoingHttpHeaders {
  const listed = connectionTokens(headers);
  const out: OutgoingHttpHeaders = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || NOT_FORWARDED.has(name) || listed.has(name)) continue;
    out[name] = value;
  }
  if (headers.cookie !== undefined) {
    const cookie = activityCookies(headers.cookie);
    if (cookie === undefined) delete out.cookie;
    else out.cookie = cookie;
  }
  out.host = context.targetHost;
  out['x-forwarded-for'] = context.clientAddress;
  if (headers.host !== undefined) out['x-forwarded-host'] = headers.host;
  out['x-forwarded-proto'] = context.proto;
  out.via = `${headers.via === undefined ? '' : `${headers.via}, `}1.1 ${VIA_TOKEN}`;
  if (context.auth !== null) Object.assign(out, context.auth);
  if (context.websocket) {
    out.connection = 'Upgrade';
    out.upgrade = 'websocket';
  }
  return out;
}

/** Whether a request already passed through this proxy (a mapping that loops back). */
export function cameThroughProxy(headers: IncomingHttpHeaders): boolean {
  return (headers.via ?? '').toLowerCase().includes(VIA_TOKEN);
}

/**
 * A Set-Cookie value kept to the activity's own host: its Domain attribute removed (a target
 * may not set cookies for other activities or the platform); null for a platform cookie name.
 */
export function activitySetCookie(value: string): string | null {
  if (PLATFORM_COOKIE.test(value)) return null;
  return value
    .split(';')
    .filter((attribute, index) => index === 0 || !/^\s*domain\s*=/i.test(attribute))
    .join(';');
}

/** The target's response headers the browser receives (without the platform's own). */
export function returnedResponseHeaders(
  headers: IncomingHttpHeaders,
  options: { websocket: boolean },
): OutgoingHttpHeaders {
  const listed = connectionTokens(headers);
  const out: OutgoingHttpHeaders = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || NOT_RETURNED.has(name) || listed.has(name)) continue;
    if (name === 'set-cookie') {
      const cookies = (Array.isArray(value) ? value : [value]).flatMap((cookie) => {
        const kept = activitySetCookie(cookie);
        return kept === null ? [] : [kept];
      });
      if (cookies.length > 0) out[name] = cookies;
      continue;
    }
    out[name] = value;
  }
  if (options.websocket) {
    out.connection = 'Upgrade';
    out.upgrade = 'websocket';
  }
  return out;
}

export interface FramePolicyContext {
  /** The activity's own origin (`http://<id>.activities.localhost:8080`). */
  activityOrigin: string;
  /** The web client's origins, the only pages that may frame the activity. */
  clientOrigins: readonly string[];
  /** The platform's public origin: its API (`/api/`) and CDN images. */
  platformOrigin: string;
}

/**
 * The Content-Security-Policy of every answer on an activity origin. Everything is 'self' (the
 * activity origin: the app and its URL mappings), plus what the embedded app SDK and activities
 * need from the platform: its API under /api/ and its CDN images (avatars, icons, attachments).
 * Scripts may be eval'd and WebAssembly compiled (game engines) but none inline; styles may be
 * inline (frameworks inject them). Only the web client may frame it (through its relay).
 */
export function activityCsp(context: FramePolicyContext): string {
  const wsOrigin = context.activityOrigin.replace(/^http/, 'ws');
  const platform = context.platformOrigin;
  return [
    "default-src 'self'",
    "script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval' blob:",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${platform}`,
    `media-src 'self' data: blob: ${platform}`,
    "font-src 'self' data:",
    `connect-src 'self' ${wsOrigin} ${platform}/api/ data: blob:`,
    "worker-src 'self' blob:",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    // 'self': the web client's frame relay (frameRelay.ts) frames the activity on its origin.
    `frame-ancestors ${context.clientOrigins.join(' ')} 'self'`,
  ].join('; ');
}

/** The security headers every answer on an activity origin carries. */
export function frameSecurityHeaders(context: FramePolicyContext): Record<string, string> {
  return {
    'content-security-policy': activityCsp(context),
    'x-content-type-options': 'nosniff',
    // Same-origin requests keep their referrer (the app's own backend); nothing leaves for others.
    'referrer-policy': 'same-origin',
  };
}

/**
 * The headers of the proxy host's own pages (404, 502...): nothing runs; the client frames them,
 * through the frame relay on the activity origin ('self'), as it frames the activity.
 */
export function pageSecurityHeaders(context: FramePolicyContext): Record<string, string> {
  return {
    'content-security-policy': `default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors ${context.clientOrigins.join(' ')} 'self'`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}
