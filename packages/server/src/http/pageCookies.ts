import type { FastifyRequest } from 'fastify';
import { DAY_SECONDS } from '../domain/time.js';

/**
 * @module http/pageCookies: the pages' cookies (docs/oauth.md#the-page). The session cookie is
 * the one sign-in of the browser pages: the consent and device pages read it, and the web
 * client's and portal's logins (`/auth/*`) set and clear it beside the token they keep. Over https
 * they carry the `__Host-` prefix, which a browser accepts only from this host, Secure, with
 * `Path=/` and no `Domain`: a page on a sibling host (an activity origin under the same parent
 * domain) cannot plant one. A request carrying one of them twice is refused (cookie tossing).
 */

/** The session cookie's name over plain http (development); `__Host-` is added over https. */
export const SESSION_COOKIE = 'guildhall_session';
/** The login form's double-submit CSRF cookie, likewise. */
export const LOGIN_CSRF_COOKIE = 'guildhall_csrf';
const HOST_PREFIX = '__Host-';
/** Over plain http the CSRF cookie goes only to the login form. */
const LOGIN_PATH = '/oauth2/login';

/** The session cookie lasts a week (its token may outlive it: sessionTtlDays). */
export const SESSION_COOKIE_MAX_AGE_SECONDS = 7 * DAY_SECONDS;

/** The names and attributes of the page cookies for one request. */
export interface PageCookies {
  /** Whether the cookies are Secure and `__Host-` prefixed. */
  secure: boolean;
  session: string;
  csrf: string;
  /** The CSRF cookie's Path: `/` when `__Host-` requires it. */
  csrfPath: string;
}

/** The page cookies over https (`secure`) or plain http. */
export function pageCookies(secure: boolean): PageCookies {
  return secure
    ? {
        secure,
        session: `${HOST_PREFIX}${SESSION_COOKIE}`,
        csrf: `${HOST_PREFIX}${LOGIN_CSRF_COOKIE}`,
        csrfPath: '/',
      }
    : { secure, session: SESSION_COOKIE, csrf: LOGIN_CSRF_COOKIE, csrfPath: LOGIN_PATH };
}

/** The page cookies of a request: `__Host-` and Secure when it or the public URL is https. */
export function pageCookiesOf(request: FastifyRequest, baseUrl: string): PageCookies {
  return pageCookies(request.protocol === 'https' || baseUrl.startsWith('https:'));
}

/** Every value of each cookie in a Cookie header, in the order sent (names are case-sensitive). */
export function cookieValues(header: string | undefined): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    const seen = out.get(name);
    if (seen === undefined) out.set(name, [value]);
    else seen.push(value);
  }
  return out;
}

/**
 * The first of the page cookies the header carries more than once, or null. Two values under one
 * name mean another host set one for a parent domain or a narrower path (cookie tossing), and
 * the server cannot tell which one it set itself.
 */
export function repeatedPageCookie(header: string | undefined, names: PageCookies): string | null {
  const values = cookieValues(header);
  for (const name of [names.session, names.csrf]) {
    if ((values.get(name)?.length ?? 0) > 1) return name;
  }
  return null;
}

/** A Set-Cookie value for one of the page cookies: HttpOnly, host-only, Secure over https. */
export function pageCookieHeader(
  name: string,
  value: string,
  options: { path: string; sameSite: 'Lax' | 'Strict'; secure: boolean; maxAgeSeconds?: number },
): string {
  const maxAge =
    options.maxAgeSeconds === undefined ? '' : `; Max-Age=${String(options.maxAgeSeconds)}`;
  return `${name}=${value}; Path=${options.path}; HttpOnly; SameSite=${options.sameSite}${maxAge}${options.secure ? '; Secure' : ''}`;
}

/** The Set-Cookie that signs the pages in with a session token (null: signs them out). */
export function sessionCookieHeader(names: PageCookies, token: string | null): string {
  return pageCookieHeader(names.session, token ?? '', {
    path: '/',
    sameSite: 'Lax',
    secure: names.secure,
    maxAgeSeconds: token === null ? 0 : SESSION_COOKIE_MAX_AGE_SECONDS,
  });
}
