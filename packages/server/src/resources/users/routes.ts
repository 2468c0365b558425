import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import { ModifyCurrentUserBody, ProvisionalDisplayNameBody, UserIdParams } from './schemas.js';
import type { UserService } from './service.js';

const ANY = ['bot', 'bearer', 'session'] as const;

export function registerUserRoutes(app: FastifyInstance, users: UserService): void {
  app.get('/users/@me', { config: { auth: ANY } }, (request) =>
    users.current(principalOf(request)),
  );

  app.patch('/users/@me', { config: { auth: ['bot', 'session'] } }, (request) =>
    users.modifyCurrent(
      principalOf(request),
      parseInput(ModifyCurrentUserBody, request.body ?? {}),
    ),
  );

  app.patch('/partner-sdk/provisional-accounts/@me', { config: { auth: ['bearer'] } }, (request) =>
    users.updateProvisionalDisplayName(
      principalOf(request),
      parseInput(ProvisionalDisplayNameBody, request.body ?? {}).global_name,
    ),
  );

  app.get('/users/:user_id', { config: { auth: ANY } }, (request) =>
    users.get(parseInput(UserIdParams, request.params).user_id),
  );
}
