import type { FastifyInstance } from 'fastify';
import { GuildParams } from '../../http/schemas.js';
import { principalOf } from '../../http/server.js';
import { AUTH, reasonOf } from '../access/index.js';
import { parseInput } from '../../http/validate.js';
import { BanBody, BanParams, BulkBanBody, ListBansQuery } from './schemas.js';
import type { BanService } from './service.js';

/** /guilds/{id}/bans and /guilds/{id}/bulk-ban. */
export function registerBanRoutes(app: FastifyInstance, bans: BanService): void {
  app.get('/guilds/:guild_id/bans', AUTH, (request) => {
    const query = parseInput(ListBansQuery, request.query);
    return bans.list(principalOf(request), parseInput(GuildParams, request.params).guild_id, {
      limit: query.limit,
      ...(query.before === undefined ? {} : { before: query.before }),
      ...(query.after === undefined ? {} : { after: query.after }),
    });
  });

  app.get('/guilds/:guild_id/bans/:user_id', AUTH, (request) => {
    const params = parseInput(BanParams, request.params);
    return bans.get(principalOf(request), params.guild_id, params.user_id);
  });

  app.put('/guilds/:guild_id/bans/:user_id', AUTH, async (request, reply) => {
    const params = parseInput(BanParams, request.params);
    await bans.ban(
      principalOf(request),
      { guildId: params.guild_id, userId: params.user_id, reason: reasonOf(request) },
      parseInput(BanBody, request.body ?? {}),
    );
    return reply.status(204).send();
  });

  app.delete('/guilds/:guild_id/bans/:user_id', AUTH, async (request, reply) => {
    const params = parseInput(BanParams, request.params);
    await bans.unban(principalOf(request), {
      guildId: params.guild_id,
      userId: params.user_id,
      reason: reasonOf(request),
    });
    return reply.status(204).send();
  });

  app.post('/guilds/:guild_id/bulk-ban', AUTH, (request) =>
    bans.bulkBan(
      principalOf(request),
      { guildId: parseInput(GuildParams, request.params).guild_id, reason: reasonOf(request) },
      parseInput(BulkBanBody, request.body ?? {}),
    ),
  );
}
