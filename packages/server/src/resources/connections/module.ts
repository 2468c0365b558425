/**
 * @module resources/connections/module: linked accounts as the composition root plugs it in
 * (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { registerConnectionRoutes } from './routes.js';
import { createConnectionService } from './service.js';

const services = (root: { deps: ServiceDeps }) => ({
  connections: createConnectionService(root.deps),
});

export const connectionsModule = resourceModule({
  name: 'connections',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerConnectionRoutes(api, ctx.services.connections);
  },
});
