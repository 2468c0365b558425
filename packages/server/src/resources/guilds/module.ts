/**
 * @module resources/guilds/module: guilds as the composition root plugs it in
 * (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { createGuildManageService } from './manage.js';
import { createMyGuildsService } from './myGuilds.js';
import { registerGuildRoutes } from './routes.js';
import { createGuildService } from './service.js';

const services = (root: { deps: ServiceDeps }) => ({
  guilds: createGuildService(root.deps),
  guildManage: createGuildManageService(root.deps),
  myGuilds: createMyGuildsService(root.deps),
});

export const guildsModule = resourceModule({
  name: 'guilds',
  services,
  routes: (
    api,
    ctx: { services: ReturnType<typeof services> } & Parameters<typeof registerGuildRoutes>[2],
  ) => {
    registerGuildRoutes(api, ctx.services, ctx);
  },
});
