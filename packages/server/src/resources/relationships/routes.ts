import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import {
  ConnectedGamesSettingsBody,
  GameRelationshipQuery,
  PatchRelationshipBody,
  PutRelationshipBody,
  RelationshipParams,
  SendRequestBody,
} from './schemas.js';
import type { RelationshipScope, RelationshipService } from './service.js';

const targetOf = (request: FastifyRequest) =>
  parseInput(RelationshipParams, request.params).user_id;

/** People (session) and OAuth2 tokens; bots are refused (20001). */
const PEOPLE = { config: { auth: ['session', 'bearer'] as const } };

/** The two families of routes: platform-wide friends, and one application's game friends. */
const FAMILIES = [
  { base: '/users/@me/relationships', game: false },
  { base: '/users/@me/game-relationships', game: true },
] as const;

/**
 * The relationship routes (docs/social-friends.md): `/users/@me/relationships` for platform-wide
 * friends, `/users/@me/game-relationships` for the game friends of one application, and the
 * connected-games setting of who may message the user.
 */
export function registerRelationshipRoutes(app: FastifyInstance, service: RelationshipService) {
  for (const { base, game } of FAMILIES) {
    const scopeOf = async (request: FastifyRequest): Promise<RelationshipScope> =>
      game
        ? service.gameScope(
            principalOf(request),
            parseInput(GameRelationshipQuery, request.query ?? {}).application_id,
          )
        : null;
    const done = (reply: FastifyReply) => reply.status(204).send();

    app.get(base, PEOPLE, async (request) =>
      service.list(principalOf(request), await scopeOf(request)),
    );
    app.post(base, PEOPLE, async (request, reply) => {
      const body = parseInput(SendRequestBody, request.body ?? {});
      await service.sendByUsername(principalOf(request), { body, scope: await scopeOf(request) });
      return done(reply);
    });
    app.put(`${base}/:user_id`, PEOPLE, async (request, reply) => {
      const targetId = targetOf(request);
      const body = parseInput(PutRelationshipBody, request.body ?? {});
      await service.put(principalOf(request), { targetId, body, scope: await scopeOf(request) });
      return done(reply);
    });
    app.patch(`${base}/:user_id`, PEOPLE, async (request, reply) => {
      const targetId = targetOf(request);
      const { nickname } = parseInput(PatchRelationshipBody, request.body ?? {});
      const scope = await scopeOf(request);
      await service.setNickname(principalOf(request), { targetId, nickname, scope });
      return done(reply);
    });
    app.delete(`${base}/:user_id`, PEOPLE, async (request, reply) => {
      const targetId = targetOf(request);
      await service.remove(principalOf(request), { targetId, scope: await scopeOf(request) });
      return done(reply);
    });
  }

  app.get('/users/:user_id/relationships', PEOPLE, (request) =>
    service.mutualFriends(principalOf(request), targetOf(request)),
  );
  app.get('/users/@me/settings/connected-games', PEOPLE, (request) =>
    service.connectedGamesSettings(principalOf(request)),
  );
  app.patch('/users/@me/settings/connected-games', PEOPLE, (request) =>
    service.setConnectedGamesSettings(
      principalOf(request),
      parseInput(ConnectedGamesSettingsBody, request.body ?? {}).allow_messages_from,
    ),
  );
}
