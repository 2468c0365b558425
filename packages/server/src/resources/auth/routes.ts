import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import { LoginBody, RegisterBody } from './schemas.js';
import type { AuthService } from './service.js';

/** Guessing passwords is slow: five attempts a minute per address. */
const LOGIN_BUCKET = { limit: 5, windowMs: 60_000 };

export function registerAuthRoutes(app: FastifyInstance, auth: AuthService): void {
  app.post(
    '/auth/register',
    { config: { auth: 'none', rateLimit: { bucket: LOGIN_BUCKET } } },
    async (request, reply) =>
      reply.status(201).send(await auth.register(parseInput(RegisterBody, request.body ?? {}))),
  );

  app.post(
    '/auth/login',
    { config: { auth: 'none', rateLimit: { bucket: LOGIN_BUCKET } } },
    (request) => auth.login(parseInput(LoginBody, request.body ?? {})),
  );

  app.post('/auth/logout', { config: { auth: ['session'] } }, async (request, reply) => {
    await auth.logout(principalOf(request));
    return reply.status(204).send();
  });
}
