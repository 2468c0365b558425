/**
 * @module resources/guildTemplates/module: guild templates as the composition root plugs it in
 * (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { registerGuildTemplateRoutes } from './routes.js';
import { createGuildTemplateService } from './service.js';

const services = (root: { deps: ServiceDeps }) => ({
  guildTemplates: createGuildTemplateService(root.deps),
});

export const guildTemplatesModule = resourceModule({
  name: 'guildTemplates',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerGuildTemplateRoutes(api, ctx.services.guildTemplates);
  },
});
