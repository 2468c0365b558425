import type { FastifyInstance } from 'fastify';
import { GuildParams } from '../../http/schemas.js';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import { AUTH } from '../access/index.js';
import { SearchQuery } from './schemas.js';
import type { MessageSearchService } from './service.js';

/** GET /guilds/{id}/messages/search. */
export function registerMessageSearchRoutes(
  app: FastifyInstance,
  search: MessageSearchService,
): void {
  app.get('/guilds/:guild_id/messages/search', AUTH, (request) =>
    search.search(
      principalOf(request),
      parseInput(GuildParams, request.params).guild_id,
      parseInput(SearchQuery, request.query),
    ),
  );
}
