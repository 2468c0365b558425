import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { PermissionFlags, applicationFlagsWire } from '@guildhall/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/index.js';
import type { Authenticator, Principal } from '../http/authenticator.js';
import { principalOf } from '../http/server.js';
import type { BucketLimit } from '../http/rateLimit/index.js';
import type { Clock } from '../domain/clock.js';
import type { ApplicationService } from '../resources/applications/index.js';
import { loginAccount, type AuthService } from '../resources/auth/index.js';
import { serializeUser } from '../resources/users/index.js';
import type { Storage, UserRecord } from '../storage/index.js';
import {
  redirectWith,
  validateAuthorize,
  type AuthorizeFlow,
  type AuthorizeRequest,
} from './authorize.js';
import { OAuthError } from './errors.js';
import type { Grants, ProvisionalHooks } from './grants.js';
import type { IdTokenKeys } from './keys.js';
import { ID_TOKEN_ALG } from './keys.js';
import {
  authorizePath,
  consentPage,
  deviceCodePage,
  deviceConsentPage,
  errorPage,
  loginPage,
  messagePage,
  type Page,
} from './pages.js';
import { parseFormKeepingRepeats, readParams, readUniqueParams } from './params.js';
import { SCOPES } from './scopes.js';
import { profileClaims } from './service.js';

export const SESSION_COOKIE = 'guildhall_session';
const LOGIN_CSRF_COOKIE = 'guildhall_csrf';
/** Token requests: 30 a minute per client address (password-guessing of secrets stays slow). */
const TOKEN_BUCKET: BucketLimit = { limit: 30, windowMs: 60_000 };
const LOGIN_BUCKET: BucketLimit = { limit: 5, windowMs: 60_000 };

export interface OAuthRouteDeps {
  storage: Storage;
  authenticator: Authenticator;
  auth: AuthService;
  applications: ApplicationService;
  flow: AuthorizeFlow;
  grants: Grants;
  keys: IdTokenKeys;
  /** The public base URL (no /api): the issuer. */
  issuer: () => string;
  apiPrefix: string;
  clock: Clock;
  /** The provisional-accounts hooks of the token endpoint (merge, OIDC refresh deprecation). */
  provisional: ProvisionalHooks | null;
}

function cookies(request: FastifyRequest): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const name = part.slice(0, eq).trim();
    if (!out.has(name)) out.set(name, part.slice(eq + 1).trim());
  }
  return out;
}

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

/** Where a login may send the browser back to: only our own consent and device pages. */
/** Fastify's own 4xx errors for a request body it could not parse (FST_ERR_CTP_*). */
function isRequestParseError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, statusCode } = err as { code?: unknown; statusCode?: unknown };
  return (
    typeof code === 'string' &&
    code.startsWith('FST_ERR_CTP_') &&
    typeof statusCode === 'number' &&
    statusCode >= 400 &&
    statusCode < 500
  );
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

/**
 * The OAuth2 and OpenID Connect routes: the consent and device pages at the root (browsers, a
 * session cookie), and the API endpoints under the API prefix (and /api, by the version rewrite).
 * Token-endpoint errors are RFC 6749 bodies; everything else keeps the platform's.
 */
export async function registerOAuthRoutes(
  root: FastifyInstance,
  deps: OAuthRouteDeps,
): Promise<void> {
  const { storage, authenticator, flow, grants, keys, issuer } = deps;
  // The signing key is loaded (or made) now: signing inside a transaction must not need a second
  // connection, which SQLite does not have.
  await keys.jwks();
  const secureCookies = () => issuer().startsWith('https:');

  const sessionOf = async (request: FastifyRequest) => {
    const token = cookies(request).get(SESSION_COOKIE);
    if (token === undefined || token === '' || /\s/.test(token)) return null;
    const principal = await authenticator.authenticate(token);
    return principal?.kind === 'session' ? { principal, token } : null;
  };

  const loginCsrf = (request: FastifyRequest, reply: FastifyReply) => {
    const existing = cookies(request).get(LOGIN_CSRF_COOKIE);
    if (existing !== undefined && /^[A-Za-z0-9_-]{32,}$/.test(existing)) return existing;
    const value = randomBytes(24).toString('base64url');
    void reply.header(
      'set-cookie',
      `${LOGIN_CSRF_COOKIE}=${value}; Path=/oauth2/login; HttpOnly; SameSite=Strict${secureCookies() ? '; Secure' : ''}`,
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
        permissionFlags: PermissionFlags,
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

  // --- Browser pages (root) ---------------------------------------------------------------

  const authorizePage = async (request: FastifyRequest, reply: FastifyReply) => {
    const params = readParams(request.query);
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
  };

  root.get('/oauth2/authorize', { config: { auth: 'none' } }, authorizePage);

  root.post('/oauth2/authorize', { config: { auth: 'none' } }, async (request, reply) => {
    const params = readParams(request.body);
    const session = await sessionOf(request);
    if (session === null) return showLogin(request, reply, authorizePath(params));
    if (!sameSecret(params.csrf_token ?? '', sessionCsrf(session.token, 'consent'))) {
      return send(reply, errorPage('The form expired; open the authorization link again.', 403));
    }
    const validation = await validateAuthorize(storage, params);
    if (!validation.ok) {
      if (validation.redirectUri === null) return send(reply, errorPage(validation.error.message));
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
      return await redirectOrPage(reply, {
        location: outcome.location,
        message:
          outcome.guild === null
            ? 'You can close this window.'
            : `${validation.request.application.name} was added to ${outcome.guild.name}.`,
      });
    } catch (err) {
      if (err instanceof OAuthError || err instanceof ApiError) {
        return send(reply, errorPage(err.message));
      }
      throw err;
    }
  });

  root.post(
    '/oauth2/login',
    { config: { auth: 'none', rateLimit: { bucket: LOGIN_BUCKET, account: loginAccount } } },
    async (request, reply) => {
      const params = readParams(request.body);
      const next = safeNext(params.next);
      const expected = cookies(request).get(LOGIN_CSRF_COOKIE);
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
          .header(
            'set-cookie',
            `${SESSION_COOKIE}=${session.token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=604800${secureCookies() ? '; Secure' : ''}`,
          )
          .header('cache-control', 'no-store')
          .redirect(next);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return send(
          reply,
          loginPage({ next, csrf: expected, error: 'Login or password is invalid.' }),
        );
      }
    },
  );

  root.get('/activate', { config: { auth: 'none' } }, async (request, reply) => {
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
  });

  root.post('/activate', { config: { auth: 'none' } }, async (request, reply) => {
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
  });

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

  // --- API endpoints (under the API prefix) -----------------------------------------------

  await root.register(
    (api, _opts, done) => {
      api.setErrorHandler((err, _request, reply) => {
        if (err instanceof OAuthError) {
          return reply.status(err.status).headers(err.headers()).send(err.body());
        }
        if (isRequestParseError(err)) {
          // A body Fastify could not read (malformed, wrong content type, too large): RFC 6749
          // clients expect {error, error_description} here, not the platform body.
          const invalid = new OAuthError('invalid_request', 'The request body could not be read.');
          return reply.status(invalid.status).headers(invalid.headers()).send(invalid.body());
        }
        // Anything else gets the platform body from the parent handler.
        throw err;
      });

      // Repeated form parameters stay visible here: the client endpoints refuse them.
      api.removeContentTypeParser('application/x-www-form-urlencoded');
      api.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string' },
        (_request, body, done) => {
          done(null, parseFormKeepingRepeats(body as string));
        },
      );

      const clientRequest = (request: FastifyRequest) => ({
        authorization: request.headers.authorization,
        body: readUniqueParams(request.body),
      });

      api.post(
        '/oauth2/token',
        { config: { auth: 'none', rateLimit: { bucket: TOKEN_BUCKET } } },
        async (request, reply) => {
          const answer = await grants.token(clientRequest(request), deps.provisional);
          return reply
            .headers(answer.headers)
            .header('cache-control', 'no-store')
            .header('pragma', 'no-cache')
            .send(answer.body);
        },
      );

      api.post(
        '/oauth2/token/revoke',
        { config: { auth: 'none', rateLimit: { bucket: TOKEN_BUCKET } } },
        async (request, reply) => {
          await grants.revoke(clientRequest(request));
          return reply.status(200).send({});
        },
      );

      api.post(
        '/oauth2/device/authorize',
        { config: { auth: 'none', rateLimit: { bucket: TOKEN_BUCKET } } },
        async (request, reply) => {
          const body = await grants.deviceAuthorize(clientRequest(request));
          return reply.header('cache-control', 'no-store').send(body);
        },
      );

      // The consent decision without a browser: a session token in Authorization.
      api.post('/oauth2/authorize', { config: { auth: ['session'] } }, async (request) => {
        const principal = principalOf(request);
        const params = readParams(request.body);
        params.response_type ??= 'code';
        const validation = await validateAuthorize(storage, params);
        if (!validation.ok) {
          if (validation.redirectUri === null) throw validation.error;
          return {
            location: redirectWithError(validation.redirectUri, validation.error, validation.state),
          };
        }
        const outcome = await flow.decide({
          user: principal.user,
          request: validation.request,
          approve: params.authorize === 'true',
          authTime: deps.clock.now(),
        });
        return {
          location: outcome.location,
          ...(outcome.guild === null ? {} : { guild: { id: outcome.guild.id } }),
        };
      });

      api.post('/oauth2/device/verify', { config: { auth: ['session'] } }, async (request) => {
        const params = readParams(request.body);
        const done = await grants.decideDevice({
          user: principalOf(request).user,
          userCode: params.user_code ?? '',
          approve: params.authorize === 'true',
        });
        if (!done) throw new OAuthError('invalid_grant', 'That code is unknown or has expired.');
        return { authorized: params.authorize === 'true' };
      });

      api.get('/oauth2/@me', { config: { auth: ['bearer'] } }, async (request) => {
        const principal = principalOf(request);
        return currentAuthorization(storage, principal);
      });

      api.get('/oauth2/applications/@me', { config: { auth: ['bot'] } }, (request) =>
        deps.applications.current(principalOf(request)),
      );

      api.get('/oauth2/userinfo', { config: { auth: ['bearer'] } }, (request) => {
        const principal = principalOf(request);
        if (!principal.scopes.includes('openid')) {
          throw new OAuthError('insufficient_scope', 'The token lacks the openid scope.');
        }
        return profileClaims(principal.user, principal.scopes, issuer());
      });

      api.get('/oauth2/authorize', { config: { auth: 'none' } }, authorizePage);

      api.get('/oauth2/keys', { config: { auth: 'none' } }, () => keys.jwks());

      done();
    },
    { prefix: deps.apiPrefix },
  );
}

function redirectWithError(redirectUri: string, error: OAuthError, state: string | null): string {
  return redirectWith(redirectUri, {
    error: error.error,
    error_description: error.message,
    state,
  });
}

async function currentAuthorization(storage: Storage, principal: Principal) {
  const application =
    principal.applicationId === null
      ? null
      : await storage.applications.findById(principal.applicationId);
  const token = await storage.tokens.findByHash(principal.tokenHash);
  if (application === null || token === null) throw new ApiError('UNAUTHORIZED');
  return {
    application: {
      id: application.id,
      name: application.name,
      icon: application.icon,
      description: application.description,
      type: null,
      bot_public: application.botPublic,
      bot_require_code_grant: application.botRequireCodeGrant,
      verify_key: application.verifyKey,
      ...applicationFlagsWire(application.flags),
    },
    scopes: principal.scopes,
    expires: new Date(token.expiresAt ?? 0).toISOString(),
    ...(principal.scopes.includes('identify') ? { user: serializeUser(principal.user) } : {}),
  };
}
