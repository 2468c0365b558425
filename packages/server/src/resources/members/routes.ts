import type { FastifyInstance } from 'fastify';
import { GuildParams } from '../../http/schemas.js';
import { principalOf } from '../../http/server.js';
import { AUTH, reasonOf } from '../access/index.js';
import { parseInput } from '../../http/validate.js';
import type { PruneService } from './prune.js';
import {
  ListMembersQuery,
  MemberParams,
  MemberRoleParams,
  ModifyCurrentMemberBody,
  ModifyMemberBody,
  PruneBody,
  PruneCountQuery,
  SearchMembersQuery,
} from './schemas.js';
import type { MemberService } from './service.js';

/** /guilds/{id}/members (read, search, modify, roles, kick) and /guilds/{id}/prune. */
export function registerMemberRoutes(
  app: FastifyInstance,
  services: { members: MemberService; prune: PruneService },
): void {
  const { members, prune } = services;

  app.get('/guilds/:guild_id/members', AUTH, (request) => {
    const query = parseInput(ListMembersQuery, request.query);
    return members.list(principalOf(request), parseInput(GuildParams, request.params).guild_id, {
      limit: query.limit,
      ...(query.after === undefined ? {} : { after: query.after }),
    });
  });

  app.get('/guilds/:guild_id/members/search', AUTH, (request) =>
    members.search(
      principalOf(request),
      parseInput(GuildParams, request.params).guild_id,
      parseInput(SearchMembersQuery, request.query),
    ),
  );

  app.patch('/guilds/:guild_id/members/@me', AUTH, (request) =>
    members.modifyCurrent(
      principalOf(request),
      { guildId: parseInput(GuildParams, request.params).guild_id, reason: reasonOf(request) },
      parseInput(ModifyCurrentMemberBody, request.body ?? {}),
    ),
  );

  app.get('/guilds/:guild_id/members/:user_id', AUTH, (request) => {
    const params = parseInput(MemberParams, request.params);
    return members.get(principalOf(request), params.guild_id, params.user_id);
  });

  app.patch('/guilds/:guild_id/members/:user_id', AUTH, (request) => {
    const params = parseInput(MemberParams, request.params);
    return members.modify(
      principalOf(request),
      { guildId: params.guild_id, userId: params.user_id, reason: reasonOf(request) },
      parseInput(ModifyMemberBody, request.body ?? {}),
    );
  });

  app.delete('/guilds/:guild_id/members/:user_id', AUTH, async (request, reply) => {
    const params = parseInput(MemberParams, request.params);
    await members.kick(principalOf(request), {
      guildId: params.guild_id,
      userId: params.user_id,
      reason: reasonOf(request),
    });
    return reply.status(204).send();
  });

  for (const [method, give] of [
    ['PUT', true],
    ['DELETE', false],
  ] as const) {
    app.route({
      method,
      url: '/guilds/:guild_id/members/:user_id/roles/:role_id',
      ...AUTH,
      handler: async (request, reply) => {
        const params = parseInput(MemberRoleParams, request.params);
        const target = {
          guildId: params.guild_id,
          userId: params.user_id,
          roleId: params.role_id,
          reason: reasonOf(request),
        };
        const principal = principalOf(request);
        await (give ? members.addRole(principal, target) : members.removeRole(principal, target));
        return reply.status(204).send();
      },
    });
  }

  app.get('/guilds/:guild_id/prune', AUTH, (request) => {
    const query = parseInput(PruneCountQuery, request.query);
    return prune.count(principalOf(request), parseInput(GuildParams, request.params).guild_id, {
      days: query.days,
      includeRoleIds: query.include_roles ?? [],
    });
  });

  app.post('/guilds/:guild_id/prune', AUTH, (request) => {
    const body = parseInput(PruneBody, request.body ?? {});
    return prune.prune(
      principalOf(request),
      { guildId: parseInput(GuildParams, request.params).guild_id, reason: reasonOf(request) },
      {
        days: body.days ?? 7,
        computePruneCount: body.compute_prune_count ?? true,
        includeRoleIds: body.include_roles ?? [],
      },
    );
  });
}
