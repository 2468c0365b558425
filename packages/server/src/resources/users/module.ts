/**
 * @module resources/users/module: users as the composition root plugs it in (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { registerUserRoutes } from './routes.js';
import { createUserService } from './service.js';

const services = (root: { deps: ServiceDeps }) => ({ users: createUserService(root.deps) });

export const usersModule = resourceModule({
  name: 'users',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerUserRoutes(api, ctx.services.users);
  },
});
