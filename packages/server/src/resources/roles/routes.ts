import type { FastifyInstance } from 'fastify';
import { GuildParams } from '../../http/schemas.js';
import { principalOf } from '../../http/server.js';
import { AUTH, reasonOf } from '../access/index.js';
import { parseInput } from '../../http/validate.js';
import { RoleBody, RoleParams, RolePositionsBody } from './schemas.js';
import type { RoleService } from './service.js';

/** /guilds/{id}/roles: list, read, create, modify, delete, reorder, member counts. */
export function registerRoleRoutes(app: FastifyInstance, roles: RoleService): void {
  app.get('/guilds/:guild_id/roles', AUTH, (request) =>
    roles.list(principalOf(request), parseInput(GuildParams, request.params).guild_id),
  );

  app.get('/guilds/:guild_id/roles/member-counts', AUTH, (request) =>
    roles.memberCounts(principalOf(request), parseInput(GuildParams, request.params).guild_id),
  );

  app.get('/guilds/:guild_id/roles/:role_id', AUTH, (request) => {
    const params = parseInput(RoleParams, request.params);
    return roles.get(principalOf(request), params.guild_id, params.role_id);
  });

  app.post('/guilds/:guild_id/roles', AUTH, (request) =>
    roles.create(
      principalOf(request),
      {
        guildId: parseInput(GuildParams, request.params).guild_id,
        reason: reasonOf(request),
      },
      parseInput(RoleBody, request.body ?? {}),
    ),
  );

  app.patch('/guilds/:guild_id/roles', AUTH, (request) =>
    roles.reorder(
      principalOf(request),
      {
        guildId: parseInput(GuildParams, request.params).guild_id,
        reason: reasonOf(request),
      },
      parseInput(RolePositionsBody, request.body),
    ),
  );

  app.patch('/guilds/:guild_id/roles/:role_id', AUTH, (request) => {
    const params = parseInput(RoleParams, request.params);
    return roles.modify(
      principalOf(request),
      { guildId: params.guild_id, roleId: params.role_id, reason: reasonOf(request) },
      parseInput(RoleBody, request.body ?? {}),
    );
  });

  app.delete('/guilds/:guild_id/roles/:role_id', AUTH, async (request, reply) => {
    const params = parseInput(RoleParams, request.params);
    await roles.delete(principalOf(request), {
      guildId: params.guild_id,
      roleId: params.role_id,
      reason: reasonOf(request),
    });
    return reply.status(204).send();
  });
}
