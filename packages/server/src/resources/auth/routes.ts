import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from '../../http/authenticator.js';
import {
  cookieValues,
  pageCookiesOf,
  repeatedPageCookie,
  sessionCookieHeader,
} from '../../http/pageCookies.js';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import { LoginBody, LoginLinkBody, RegisterBody } from './schemas.js';
import type { AuthService } from './service.js';
import { MINUTE_MS } from '../../domain/time.js';

/** Guessing passwords is slow: five attempts a minute per address, and per account tried. */
const LOGIN_BUCKET = { limit: 5, windowMs: MINUTE_MS };
/** A page asks for the cookie's session once when it loads without a token. */
const SESSION_BUCKET = { limit: 30, windowMs: MINUTE_MS };

/**
 * The account a login form or body names (its email or username, as login() looks it up): every
 * login route counts attempts against it, whatever address they come from.
 */
export function loginAccount(request: FastifyRequest): string | null {
  const body = request.body;
  const login =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['login'] : null;
  return typeof login === 'string' && login.length > 0 && login.length <= 254
    ? `login:${login.toLowerCase()}`
    : null;
}

/** What the auth routes need beside the service: the public URL and the token check. */
export interface AuthRouteDeps {
  /** The public base URL: an https one makes the page cookie `__Host-` and Secure. */
  baseUrl: () => string;
  authenticator: Pick<Authenticator, 'authenticate'>;
}

/**
 * The browser pages share one sign-in (docs/web.md#one-sign-in): a login here answers with the
 * token, which the web client and portal keep, and sets the same session in the HttpOnly page
 * cookie the consent and device pages read; `/auth/session` hands a page that has no token the
 * cookie's session (CORS never allows credentials, so only this site's pages can read it).
 */
export function registerAuthRoutes(
  app: FastifyInstance,
  auth: AuthService,
  deps: AuthRouteDeps,
): void {
  const signIn = (
    request: FastifyRequest,
    reply: FastifyReply,
    session: { token: string; user_id: string },
  ) => {
    void reply.header(
      'set-cookie',
      sessionCookieHeader(pageCookiesOf(request, deps.baseUrl()), session.token),
    );
    return session;
  };
  const signOut = (request: FastifyRequest, reply: FastifyReply) =>
    reply
      .header('set-cookie', sessionCookieHeader(pageCookiesOf(request, deps.baseUrl()), null))
      .status(204)
      .send();

  app.post(
    '/auth/register',
    { config: { auth: 'none', rateLimit: { bucket: LOGIN_BUCKET } } },
    async (request, reply) => {
      const session = await auth.register(parseInput(RegisterBody, request.body ?? {}));
      return reply.status(201).send(signIn(request, reply, session));
    },
  );

  app.post(
    '/auth/login',
    { config: { auth: 'none', rateLimit: { bucket: LOGIN_BUCKET, account: loginAccount } } },
    async (request, reply) =>
      signIn(request, reply, await auth.login(parseInput(LoginBody, request.body ?? {}))),
  );

  // A one-time link's code (docs/web.md): guessing is as slow as for passwords. The body, which
  // holds the code, is never logged (the request log has the method and path only).
  app.post(
    '/auth/login-link',
    { config: { auth: 'none', rateLimit: { bucket: LOGIN_BUCKET } } },
    async (request, reply) =>
      signIn(
        request,
        reply,
        await auth.redeemLoginLink(parseInput(LoginLinkBody, request.body ?? {})),
      ),
  );

  // The page cookie's session, for a page that has no token (signed in on a consent page); 204
  // when there is none, which a page asks about on every anonymous load and is no error.
  app.post(
    '/auth/session',
    { config: { auth: 'none', rateLimit: { bucket: SESSION_BUCKET } } },
    async (request, reply) => {
      const names = pageCookiesOf(request, deps.baseUrl());
      // Two values under one name: another host planted one (cookie tossing); trust neither.
      const token =
        repeatedPageCookie(request.headers.cookie, names) === null
          ? (cookieValues(request.headers.cookie).get(names.session)?.[0] ?? '')
          : '';
      const principal =
        token === '' || /\s/.test(token) ? null : await deps.authenticator.authenticate(token);
      if (principal?.kind !== 'session') return reply.status(204).send();
      return { token, user_id: principal.user.id };
    },
  );

  app.post('/auth/logout', { config: { auth: ['session'] } }, async (request, reply) => {
    await auth.logout(principalOf(request));
    return signOut(request, reply);
  });

  app.post('/auth/logout-all', { config: { auth: ['session'] } }, async (request, reply) => {
    await auth.logoutEverywhere(principalOf(request));
    return signOut(request, reply);
  });
}
