/**
 * @module resources/invites/module: invites as the composition root plugs it in
 * (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import type { ProfileCheck } from '../members/index.js';
import { resourceModule } from '../module.js';
import { registerInviteRoutes } from './routes.js';
import { createInviteService } from './service.js';

const services = (root: { deps: ServiceDeps }, made: { profileCheck: ProfileCheck }) => ({
  invites: createInviteService(root.deps, { profileCheck: made.profileCheck }),
});

export const invitesModule = resourceModule({
  name: 'invites',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerInviteRoutes(api, ctx.services.invites);
  },
});
