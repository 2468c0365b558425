import type { FastifyInstance } from 'fastify';
import { GuildParams } from '../../http/schemas.js';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import { AUTH, reasonOf } from '../access/index.js';
import { CreateRuleBody, ModifyRuleBody, RuleParams } from './schemas.js';
import type { AutoModerationService } from './service.js';

/** /guilds/{id}/auto-moderation/rules[/{rule_id}]. */
export function registerAutoModerationRoutes(
  app: FastifyInstance,
  rules: AutoModerationService,
): void {
  const base = '/guilds/:guild_id/auto-moderation/rules';

  app.get(base, AUTH, (request) =>
    rules.list(principalOf(request), parseInput(GuildParams, request.params).guild_id),
  );

  app.post(base, AUTH, (request) =>
    rules.create(
      principalOf(request),
      { guildId: parseInput(GuildParams, request.params).guild_id, reason: reasonOf(request) },
      parseInput(CreateRuleBody, request.body ?? {}),
    ),
  );

  app.get(`${base}/:rule_id`, AUTH, (request) => {
    const params = parseInput(RuleParams, request.params);
    return rules.get(principalOf(request), params.guild_id, params.rule_id);
  });

  app.patch(`${base}/:rule_id`, AUTH, (request) => {
    const params = parseInput(RuleParams, request.params);
    return rules.modify(
      principalOf(request),
      { guildId: params.guild_id, ruleId: params.rule_id, reason: reasonOf(request) },
      parseInput(ModifyRuleBody, request.body ?? {}),
    );
  });

  app.delete(`${base}/:rule_id`, AUTH, async (request, reply) => {
    const params = parseInput(RuleParams, request.params);
    await rules.delete(principalOf(request), {
      guildId: params.guild_id,
      ruleId: params.rule_id,
      reason: reasonOf(request),
    });
    return reply.status(204).send();
  });
}
