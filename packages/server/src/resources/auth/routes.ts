import type { FastifyInstance, FastifyRequest } from 'fastify';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import { LoginBody, LoginLinkBody, RegisterBody } from './schemas.js';
import type { AuthService } from './service.js';
import { MINUTE_MS } from '../../domain/time.js';

/** Guessing passwords is slow: five attempts a minute per address, and per account tried. */
const LOGIN_BUCKET = { limit: 5, windowMs: MINUTE_MS };

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

export function registerAuthRoutes(app: FastifyInstance, auth: AuthService): void {
  app.post(
    '/auth/register',
    { config: { auth: 'none', rateLimit: { bucket: LOGIN_BUCKET } } },
    async (request, reply) =>
      reply.status(201).send(await auth.register(parseInput(RegisterBody, request.body ?? {}))),
  );

  app.post(
    '/auth/login',
    { config: { auth: 'none', rateLimit: { bucket: LOGIN_BUCKET, account: loginAccount } } },
    (request) => auth.login(parseInput(LoginBody, request.body ?? {})),
  );

  // A one-time link's code (docs/web.md): guessing is as slow as for passwords. The body, which
  // holds the code, is never logged (the request log has the method and path only).
  app.post(
    '/auth/login-link',
    { config: { auth: 'none', rateLimit: { bucket: LOGIN_BUCKET } } },
    (request) => auth.redeemLoginLink(parseInput(LoginLinkBody, request.body ?? {})),
  );

  app.post('/auth/logout', { config: { auth: ['session'] } }, async (request, reply) => {
    await auth.logout(principalOf(request));
    return reply.status(204).send();
  });

  app.post('/auth/logout-all', { config: { auth: ['session'] } }, async (request, reply) => {
    await auth.logoutEverywhere(principalOf(request));
    return reply.status(204).send();
  });
}
