import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/server.js';
import type { ConnectionService } from './service.js';

/** GET /users/@me/connections: people (session) and OAuth2 tokens; bots are refused (20001). */
export function registerConnectionRoutes(app: FastifyInstance, connections: ConnectionService) {
  app.get('/users/@me/connections', { config: { auth: ['session', 'bearer'] } }, (request) =>
    connections.list(principalOf(request)),
  );
}
