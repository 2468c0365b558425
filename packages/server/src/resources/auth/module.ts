/**
 * @module resources/auth/module: registration, login and sessions as the composition root plugs it
 * in (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { registerAuthRoutes } from './routes.js';
import { createAuthService, type AuthSettings } from './service.js';

const services = (root: { deps: ServiceDeps; auth: AuthSettings }) => ({
  auth: createAuthService(root.deps, root.auth),
});

export const authModule = resourceModule({
  name: 'auth',
  services,
  routes: (
    api,
    ctx: { services: ReturnType<typeof services> } & Parameters<typeof registerAuthRoutes>[2],
  ) => {
    registerAuthRoutes(api, ctx.services.auth, ctx);
  },
});
