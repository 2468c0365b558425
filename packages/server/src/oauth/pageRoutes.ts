import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/index.js';
import type { BucketLimit } from '../http/rateLimit/index.js';
import { loginAccount } from '../resources/auth/index.js';
import type { UserRecord } from '../storage/index.js';
import { redirectWithError, validateAuthorize, type AuthorizeRequest } from './authorize.js';
import { OAuthError } from './errors.js';
import { ID_TOKEN_ALG } from './keys.js';
import {
  authorizePath,
  consentPage,
  deviceCodePage,
  deviceConsentPage,
  errorPage,
  loginPage,
  messagePage,
  outcomePage,
  returnTarget,
  type Page,
} from './pages.js';
import {
  cookieValues,
  pageCookieHeader,
  pageCookiesOf,
  repeatedPageCookie,
  sessionCookieHeader,
  type PageCookies,
} from '../http/pageCookies.js';
import { readParams } from './params.js';
import type { OAuthRouteDeps } from './routeDeps.js';
import { SCOPES } from './scopes.js';
import { MINUTE_MS } from '../domain/time.js';

const LOGIN_BUCKET: BucketLimit = { limit: 5, windowMs: MINUTE_MS };

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A form token bound to the session: only a page served to that session can know it. */
function sessionCsrf(sessionToken: string, purpose: string): string {
  return createHmac('sha256', sessionToken).update(`guildhall-form:${purpose}`).digest('base64url');
}

function send(reply: FastifyReply, rendered: Page) {
  return reply.status(rendered.status).headers(rendered.headers).send(rendered.html);
}

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

type PageHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** The first value of a cookie the request carries. */
function cookie(request: FastifyRequest, name: string): string | undefined {
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

/**
 * The consent, login and device pages at the root (browsers, a session cookie), and the OpenID
 * discovery document. Returns the authorize page's handler, which the API prefix serves too.
 */
export function registerOAuthPages(root: FastifyInstance, deps: OAuthRouteDeps) {
  const { storage, authenticator, flow, grants, issuer } = deps;
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

  root.get(
    '/activate',
    { config: { auth: 'none' } },
    guarded(async (request, reply) => {
      const params = readParams(request.query);
      const session = await sessionOf(request);
      const next =
        params.user_code === undefined
          ? '/activate'
          : `/activate?user_code=${encodeURIComponent(params.user_code)}`;
      if (session === null) return showLogin(request, reply, next);
      if (params.user_code === undefined) return send(reply, deviceCodePage({}));
      const found = await grants.findPendingDevice(params.user_code);
      if (found === null) {
        return send(reply, deviceCodePage({ error: 'That code is unknown or has expired.' }));
      }
      return send(
        reply,
        deviceConsentPage({
          appName: found.application.name,
          scopes: found.record.scopes,
          userCode: found.record.userCode,
          csrf: sessionCsrf(session.token, 'device'),
          username: session.principal.user.globalName ?? session.principal.user.username,
        }),
      );
    }),
  );

  root.post(
    '/activate',
    { config: { auth: 'none' } },
    guarded(async (request, reply) => {
      const params = readParams(request.body);
      const session = await sessionOf(request);
      if (session === null) return showLogin(request, reply, '/activate');
      if (!sameSecret(params.csrf_token ?? '', sessionCsrf(session.token, 'device'))) {
        return send(reply, errorPage('The form expired; enter the code again.', 403));
      }
      const approve = params.decision === 'authorize';
      const done = await grants.decideDevice({
        user: session.principal.user,
        userCode: params.user_code ?? '',
        approve,
      });
      if (!done)
        return send(reply, deviceCodePage({ error: 'That code is unknown or has expired.' }));
      return send(
        reply,
        messagePage(
          approve ? 'Device authorized' : 'Request denied',
          approve ? 'Return to your device to continue.' : 'The device was not authorized.',
        ),
      );
    }),
  );

  root.get('/.well-known/openid-configuration', { config: { auth: 'none' } }, () => {
    const base = issuer();
    const api = `${base}${deps.apiPrefix}`;
    return {
      issuer: base,
      authorization_endpoint: `${base}/oauth2/authorize`,
      token_endpoint: `${api}/oauth2/token`,
      revocation_endpoint: `${api}/oauth2/token/revoke`,
      device_authorization_endpoint: `${api}/oauth2/device/authorize`,
      userinfo_endpoint: `${api}/oauth2/userinfo`,
      jwks_uri: `${api}/oauth2/keys`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: [
        'authorization_code',
        'refresh_token',
        'client_credentials',
        'urn:ietf:params:oauth:grant-type:device_code',
      ],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: [ID_TOKEN_ALG],
      scopes_supported: Object.keys(SCOPES),
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      revocation_endpoint_auth_methods_supported: [
        'client_secret_basic',
        'client_secret_post',
        'none',
      ],
      code_challenge_methods_supported: ['S256'],
      claims_supported: [
        'sub',
        'iss',
        'aud',
        'exp',
        'iat',
        'auth_time',
        'nonce',
        'preferred_username',
        'name',
        'picture',
        'locale',
        'email',
        'email_verified',
      ],
    };
  });

  return authorizePage;
}
