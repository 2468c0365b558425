import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import { AcceptActivityInviteBody, PartyIdParams } from './schemas.js';
import type { ActivityInviteService } from './service.js';

/** POST /users/@me/activities/{party_id}/join: people and SDK tokens; bots are refused. */
export function registerActivityInviteRoutes(
  app: FastifyInstance,
  invites: ActivityInviteService,
): void {
  app.post(
    '/users/@me/activities/:party_id/join',
    { config: { auth: ['session', 'bearer'] } },
    (request) =>
      invites.accept(
        principalOf(request),
        parseInput(PartyIdParams, request.params).party_id,
        parseInput(AcceptActivityInviteBody, request.body ?? {}),
      ),
  );
}
