import type { FastifyInstance } from 'fastify';
import { GuildParams } from '../../http/schemas.js';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import { AUTH } from '../access/index.js';
import {
  CreateTemplateBody,
  ModifyTemplateBody,
  TemplateCodeParams,
  TemplateParams,
} from './schemas.js';
import type { GuildTemplateService } from './service.js';

/** /guilds/templates/{code} and /guilds/{id}/templates[/{code}]. */
export function registerGuildTemplateRoutes(
  app: FastifyInstance,
  templates: GuildTemplateService,
): void {
  app.get('/guilds/templates/:code', AUTH, (r) =>
    templates.get(parseInput(TemplateCodeParams, r.params).code),
  );
  app.get('/guilds/:guild_id/templates', AUTH, (r) =>
    templates.list(principalOf(r), parseInput(GuildParams, r.params).guild_id),
  );
  app.post('/guilds/:guild_id/templates', AUTH, (r) =>
    templates.create(
      principalOf(r),
      parseInput(GuildParams, r.params).guild_id,
      parseInput(CreateTemplateBody, r.body ?? {}),
    ),
  );
  app.put('/guilds/:guild_id/templates/:code', AUTH, (r) => {
    const params = parseInput(TemplateParams, r.params);
    return templates.sync(principalOf(r), params.guild_id, params.code);
  });
  app.patch('/guilds/:guild_id/templates/:code', AUTH, (r) => {
    const params = parseInput(TemplateParams, r.params);
    return templates.modify(
      principalOf(r),
      { guildId: params.guild_id, code: params.code },
      parseInput(ModifyTemplateBody, r.body ?? {}),
    );
  });
  app.delete('/guilds/:guild_id/templates/:code', AUTH, (r) => {
    const params = parseInput(TemplateParams, r.params);
    return templates.delete(principalOf(r), params.guild_id, params.code);
  });
}
