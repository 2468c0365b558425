/**
 * The browser pages at the root: the authorize page (consent, or login first) and the login form;
 * the device pages (oauth/devicePages.ts) and the discovery document (oauth/discovery.ts) too.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../errors/index.js';
import type { BucketLimit } from '../http/rateLimit/index.js';
import { loginAccount } from '../resources/auth/index.js';
import type { UserRecord } from '../storage/index.js';
import { redirectWithError, validateAuthorize, type AuthorizeRequest } from './authorize.js';
import { registerDevicePages } from './devicePages.js';
import { registerDiscovery } from './discovery.js';
import { OAuthError } from './errors.js';
import {
  authorizePath,
  consentPage,
  errorPage,
  loginPage,
  messagePage,
  outcomePage,
  returnTarget,
} from './pages.js';
import { sessionCookieHeader } from '../http/pageCookies.js';
import { cookie, createPageSession, sameSecret, send, sessionCsrf } from './pageSession.js';
import { readParams } from './params.js';
import type { OAuthRouteDeps } from './routeDeps.js';
import { MINUTE_MS } from '../domain/time.js';

const LOGIN_BUCKET: BucketLimit = { limit: 5, windowMs: MINUTE_MS };

function safeNext(next: string | undefined): string {
  if (
    next !== undefined &&
    // Visible ASCII only: a CR/LF (or any other character a Location header cannot carry) would
    // make the redirect fail with a 500.
    /^[\x21-\x7e]*$/.test(next) &&
    (next.startsWith('/oauth2/authorize?') || next.startsWith('/activate'))
  ) {
    return next;
  }
  return '/activate';
}

/**
 * The consent, login and device pages at the root (browsers, a session cookie), and the OpenID
 * discovery document. Returns the authorize page's handler, which the API prefix serves too.
 */
export function registerOAuthPages(root: FastifyInstance, deps: OAuthRouteDeps) {
  const { storage, flow } = deps;
  const pages = createPageSession(deps);
  const { cookieNames, guarded, sessionOf, showLogin } = pages;

  const renderConsent = async (
    reply: FastifyReply,
    input: { request: AuthorizeRequest; user: UserRecord; token: string },
  ) => {
    try {
      flow.checkInstaller(input.user.id, input.request);
    } catch (err) {
      if (err instanceof OAuthError) return send(reply, errorPage(err.message, err.status));
      throw err;
    }
    const guilds = input.request.scopes.includes('bot')
      ? await flow.manageableGuilds(input.user.id)
      : [];
    return send(
      reply,
      consentPage({
        request: input.request,
        username: input.user.globalName ?? input.user.username,
        csrf: sessionCsrf(input.token, 'consent'),
        guilds,
      }),
    );
  };

  const redirectOrPage = (
    reply: FastifyReply,
    outcome: { location: string | null; message: string },
  ) =>
    outcome.location === null
      ? send(reply, messagePage('Done', outcome.message))
      : reply.status(302).header('cache-control', 'no-store').redirect(outcome.location);

  const authorizePage = guarded(async (request, reply) => {
    const params = readParams(request.query);
    // The page that sent the person here, for the link back at the end (first visit only).
    const cameFrom = returnTarget(request.headers.referer);
    if (params.return_to === undefined && cameFrom !== null) params.return_to = cameFrom;
    const validation = await validateAuthorize(storage, params);
    if (!validation.ok) {
      if (validation.redirectUri === null) return send(reply, errorPage(validation.error.message));
      return redirectOrPage(reply, {
        location: redirectWithError(validation.redirectUri, validation.error, validation.state),
        message: '',
      });
    }
    const session = await sessionOf(request);
    if (session === null) return showLogin(request, reply, authorizePath(params));
    const { request: authorize } = validation;
    if (
      authorize.prompt === 'none' &&
      (await flow.alreadyAuthorized(session.principal.user.id, authorize))
    ) {
      const outcome = await flow.decide({
        user: session.principal.user,
        request: authorize,
        approve: true,
        authTime: deps.clock.now(),
      });
      return redirectOrPage(reply, { location: outcome.location, message: 'Authorized.' });
    }
    return renderConsent(reply, {
      request: authorize,
      user: session.principal.user,
      token: session.token,
    });
  });

  root.get('/oauth2/authorize', { config: { auth: 'none' } }, authorizePage);

  root.post(
    '/oauth2/authorize',
    { config: { auth: 'none' } },
    guarded(async (request, reply) => {
      const params = readParams(request.body);
      const session = await sessionOf(request);
      if (session === null) return showLogin(request, reply, authorizePath(params));
      if (!sameSecret(params.csrf_token ?? '', sessionCsrf(session.token, 'consent'))) {
        return send(reply, errorPage('The form expired; open the authorization link again.', 403));
      }
      const validation = await validateAuthorize(storage, params);
      if (!validation.ok) {
        if (validation.redirectUri === null)
          return send(reply, errorPage(validation.error.message));
        return redirectOrPage(reply, {
          location: redirectWithError(validation.redirectUri, validation.error, validation.state),
          message: '',
        });
      }
      try {
        const outcome = await flow.decide({
          user: session.principal.user,
          request: validation.request,
          approve: params.decision === 'authorize',
          authTime: deps.clock.now(),
        });
        if (outcome.location !== null) {
          return await redirectOrPage(reply, { location: outcome.location, message: '' });
        }
        return await send(
          reply,
          outcomePage({
            appName: validation.request.application.name,
            approved: params.decision === 'authorize',
            guild: outcome.guild,
            returnTo: returnTarget(params.return_to),
          }),
        );
      } catch (err) {
        if (err instanceof OAuthError || err instanceof ApiError) {
          return send(reply, errorPage(err.message));
        }
        throw err;
      }
    }),
  );

  root.post(
    '/oauth2/login',
    { config: { auth: 'none', rateLimit: { bucket: LOGIN_BUCKET, account: loginAccount } } },
    guarded(async (request, reply) => {
      const params = readParams(request.body);
      const next = safeNext(params.next);
      const names = cookieNames(request);
      const expected = cookie(request, names.csrf);
      if (expected === undefined || !sameSecret(params.csrf_token ?? '', expected)) {
        return send(reply, errorPage('The form expired; reload the page.', 403));
      }
      try {
        const session = await deps.auth.login({
          login: params.login ?? '',
          password: params.password ?? '',
        });
        return await reply
          .status(303)
          .header('set-cookie', sessionCookieHeader(names, session.token))
          .header('cache-control', 'no-store')
          .redirect(next);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return send(
          reply,
          loginPage({ next, csrf: expected, error: 'Login or password is invalid.' }),
        );
      }
    }),
  );

  registerDevicePages(root, { grants: deps.grants }, pages);
  registerDiscovery(root, deps);
  return authorizePage;
}
