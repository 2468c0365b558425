import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import {
  AcceptActivityInviteBody,
  ActivityJoinRequestBody,
  PartyIdParams,
  SpectateActivityBody,
} from './schemas.js';
import type { ActivityInviteService } from './service.js';

/**
 * POST /users/@me/activities/{party_id}/join, …/join-request and …/spectate: people and SDK
 * tokens; bots are refused.
 */
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
  app.post(
    '/users/@me/activities/:party_id/join-request',
    { config: { auth: ['session', 'bearer'] } },
    async (request, reply) => {
      await invites.requestJoin(
        principalOf(request),
        parseInput(PartyIdParams, request.params).party_id,
        parseInput(ActivityJoinRequestBody, request.body ?? {}),
      );
      return reply.status(204).send();
    },
  );
  app.post(
    '/users/@me/activities/:party_id/spectate',
    { config: { auth: ['session', 'bearer'] } },
    (request) =>
      invites.spectate(
        principalOf(request),
        parseInput(PartyIdParams, request.params).party_id,
        parseInput(SpectateActivityBody, request.body ?? {}),
      ),
  );
}
