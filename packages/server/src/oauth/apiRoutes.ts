import { applicationFlagsWire } from '@guildhall/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/index.js';
import type { Principal } from '../http/authenticator.js';
import type { BucketLimit } from '../http/rateLimit/index.js';
import { principalOf } from '../http/server.js';
import { serializeUser } from '../resources/users/index.js';
import type { Storage } from '../storage/index.js';
import { redirectWithError, validateAuthorize } from './authorize.js';
import { OAuthError } from './errors.js';
import type { registerOAuthPages } from './pageRoutes.js';
import { parseFormKeepingRepeats, readParams, readUniqueParams } from './params.js';
import type { OAuthRouteDeps } from './routeDeps.js';
import { profileClaims } from './service.js';
import { MINUTE_MS } from '../domain/time.js';

/** Token requests: 30 a minute per client address (password-guessing of secrets stays slow). */
const TOKEN_BUCKET: BucketLimit = { limit: 30, windowMs: MINUTE_MS };

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

/**
 * The OAuth2 API endpoints under the API prefix (and /api, by the version rewrite), where the
 * authorize page is served too. Token-endpoint errors are RFC 6749 bodies; everything else keeps
 * the platform's.
 */
export async function registerOAuthApi(
  root: FastifyInstance,
  deps: OAuthRouteDeps,
  authorizePage: ReturnType<typeof registerOAuthPages>,
): Promise<void> {
  const { storage, flow, grants, keys, issuer, authorizeRequests } = deps;
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

      // Local authorize (docs/oauth.md#local-authorize): what a running client does for an
      // activity's `authorize` or an RPC app's AUTHORIZE. The code goes back to the asking client,
      // not through a redirect; the person's session token is in Authorization.
      const localRequest = async (body: unknown) => {
        const params = readParams(body);
        const validation = await validateAuthorize(storage, params, { local: true });
        if (!validation.ok) throw validation.error;
        return validation.request;
      };
      api.get('/oauth2/authorize/local', { config: { auth: ['session'] } }, async (request) => {
        const authorizeRequest = await localRequest(request.query);
        const { application } = authorizeRequest;
        return {
          application: {
            id: application.id,
            name: application.name,
            icon: application.icon,
            description: application.description,
          },
          scopes: authorizeRequest.requested,
          authorized: await flow.alreadyAuthorized(principalOf(request).user.id, authorizeRequest),
        };
      });
      api.post('/oauth2/authorize/local', { config: { auth: ['session'] } }, async (request) => {
        const authorizeRequest = await localRequest(request.body);
        const user = principalOf(request).user;
        const params = readParams(request.body);
        // prompt=none: only an authorization the person already gave covers the request.
        const approve =
          authorizeRequest.prompt === 'none'
            ? await flow.alreadyAuthorized(user.id, authorizeRequest)
            : params.authorize === 'true';
        const outcome = await flow.decide({
          user,
          request: authorizeRequest,
          approve,
          authTime: deps.clock.now(),
        });
        if (outcome.code === null) {
          throw new OAuthError(
            'access_denied',
            authorizeRequest.prompt === 'none'
              ? 'The user has not authorized this application (prompt=none).'
              : 'The user denied the request.',
          );
        }
        return { code: outcome.code, state: authorizeRequest.state };
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

      // The Connected Game entry point: the person, in the web client, asks the game they are
      // playing to link their account; AUTHORIZE_REQUEST reaches their SDK sessions of that
      // application, whose registerAuthorizeRequestCallback runs authorize(), and their own
      // clients, whose RPC daemon tells the game (gateway/routing.ts, docs/rpc.md).
      api.post<{ Params: { application_id: string } }>(
        '/users/@me/applications/:application_id/authorize-request',
        { config: { auth: ['session'] } },
        async (request, reply) => {
          await authorizeRequests.request(
            principalOf(request).user.id,
            request.params.application_id,
          );
          return reply.status(204).send();
        },
      );

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
