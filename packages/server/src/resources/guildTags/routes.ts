import type { FastifyInstance } from 'fastify';
import { GuildParams } from '../../http/schemas.js';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import { AUTH } from '../access/index.js';
import { PutGuildTagBody, PutPrimaryGuildBody } from './schemas.js';
import type { GuildTagService } from './service.js';

/** Guild tags and the caller's primary guild (docs/social-stats.md). */
export function registerGuildTagRoutes(app: FastifyInstance, tags: GuildTagService): void {
  app.get('/guilds/:guild_id/tag', AUTH, (request) =>
    tags.get(principalOf(request), parseInput(GuildParams, request.params).guild_id),
  );

  app.put('/guilds/:guild_id/tag', AUTH, (request) =>
    tags.put(
      principalOf(request),
      parseInput(GuildParams, request.params).guild_id,
      parseInput(PutGuildTagBody, request.body ?? {}),
    ),
  );

  app.delete('/guilds/:guild_id/tag', AUTH, async (request, reply) => {
    await tags.remove(principalOf(request), parseInput(GuildParams, request.params).guild_id);
    return reply.status(204).send();
  });

  app.put('/users/@me/primary-guild', { config: { auth: ['session', 'bearer'] } }, (request) =>
    tags.putPrimaryGuild(principalOf(request), parseInput(PutPrimaryGuildBody, request.body ?? {})),
  );
}
