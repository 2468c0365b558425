/**
 * @module resources/roles/module: roles as the composition root plugs it in (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { registerRoleRoutes } from './routes.js';
import { createRoleService } from './service.js';

const services = (root: { deps: ServiceDeps }) => ({ roles: createRoleService(root.deps) });

export const rolesModule = resourceModule({
  name: 'roles',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerRoleRoutes(api, ctx.services.roles);
  },
});
