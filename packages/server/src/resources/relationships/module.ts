/**
 * @module resources/relationships/module: relationships as the composition root plugs it in
 * (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { registerRelationshipRoutes } from './routes.js';
import { createRelationshipService } from './service.js';

const services = (root: { deps: ServiceDeps }) => ({
  relationships: createRelationshipService(root.deps),
});

export const relationshipsModule = resourceModule({
  name: 'relationships',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerRelationshipRoutes(api, ctx.services.relationships);
  },
});
