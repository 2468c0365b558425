/**
 * @module resources/bans/module: bans as the composition root plugs it in (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { registerBanRoutes } from './routes.js';
import { createBanService } from './service.js';

const services = (root: { deps: ServiceDeps }) => ({ bans: createBanService(root.deps) });

export const bansModule = resourceModule({
  name: 'bans',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerBanRoutes(api, ctx.services.bans);
  },
});
