/**
 * What the browser pages share (oauth/pageRoutes.ts, oauth/devicePages.ts): the session cookie
 * read back to its session, the login page with its form token, the forms' tokens bound to the
 * session, and the refusal of a page cookie sent twice.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  cookieValues,
  pageCookieHeader,
  pageCookiesOf,
  repeatedPageCookie,
  type PageCookies,
} from '../http/pageCookies.js';
import { errorPage, loginPage, type Page } from './pages.js';
import type { OAuthRouteDeps } from './routeDeps.js';

/** Compares a form's token with the expected one in constant time. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A form token bound to the session: only a page served to that session can know it. */
export function sessionCsrf(sessionToken: string, purpose: string): string {
  return createHmac('sha256', sessionToken).update(`guildhall-form:${purpose}`).digest('base64url');
}

/** Answers with a rendered page. */
export function send(reply: FastifyReply, rendered: Page) {
  return reply.status(rendered.status).headers(rendered.headers).send(rendered.html);
}

type PageHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** The first value of a cookie the request carries. */
export function cookie(request: FastifyRequest, name: string): string | undefined {
  return cookieValues(request.headers.cookie).get(name)?.[0];
}

/**
 * A page handler that first refuses a request carrying a page cookie twice (400): another host
 * may have planted one (cookie tossing), and the server cannot tell which is its own.
 */
function refusingRepeatedCookies(
  names: (request: FastifyRequest) => PageCookies,
  handler: PageHandler,
): PageHandler {
  return async (request, reply) => {
    if (repeatedPageCookie(request.headers.cookie, names(request)) !== null) {
      return send(
        reply,
        errorPage(
          'Your browser sent the sign-in cookie twice; another site may have set one. Clear ' +
            "this site's cookies and open the link again.",
          400,
        ),
      );
    }
    return handler(request, reply);
  };
}

/** The pages' view of the request's session and login, for one issuer. */
export function createPageSession(deps: Pick<OAuthRouteDeps, 'authenticator' | 'issuer'>) {
  const { authenticator, issuer } = deps;
  const cookieNames = (request: FastifyRequest) => pageCookiesOf(request, issuer());
  const guarded = (handler: PageHandler) => refusingRepeatedCookies(cookieNames, handler);

  const sessionOf = async (request: FastifyRequest) => {
    const token = cookie(request, cookieNames(request).session);
    if (token === undefined || token === '' || /\s/.test(token)) return null;
    const principal = await authenticator.authenticate(token);
    return principal?.kind === 'session' ? { principal, token } : null;
  };

  const loginCsrf = (request: FastifyRequest, reply: FastifyReply) => {
    const names = cookieNames(request);
    const existing = cookie(request, names.csrf);
    if (existing !== undefined && /^[A-Za-z0-9_-]{32,}$/.test(existing)) return existing;
    const value = randomBytes(24).toString('base64url');
    void reply.header(
      'set-cookie',
      pageCookieHeader(names.csrf, value, {
        path: names.csrfPath,
        sameSite: 'Strict',
        secure: names.secure,
      }),
    );
    return value;
  };

  const showLogin = (request: FastifyRequest, reply: FastifyReply, next: string) =>
    send(reply, loginPage({ next, csrf: loginCsrf(request, reply) }));

  return { cookieNames, guarded, sessionOf, loginCsrf, showLogin };
}

export type PageSession = ReturnType<typeof createPageSession>;
