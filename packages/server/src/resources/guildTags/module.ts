/**
 * @module resources/guildTags/module: guild tags as the composition root plugs it in
 * (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { registerGuildTagRoutes } from './routes.js';
import { createGuildTagService } from './service.js';

const services = (root: { deps: ServiceDeps }) => ({ guildTags: createGuildTagService(root.deps) });

export const guildTagsModule = resourceModule({
  name: 'guildTags',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerGuildTagRoutes(api, ctx.services.guildTags);
  },
});
