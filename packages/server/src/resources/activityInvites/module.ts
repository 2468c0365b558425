/**
 * @module resources/activityInvites/module: activity invites as the composition root plugs it in
 * (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { registerActivityInviteRoutes } from './routes.js';
import { createActivityInviteService, type ActivityInvitePorts } from './service.js';

const services = (root: { deps: ServiceDeps; activityInvites: ActivityInvitePorts }) => ({
  activityInvites: createActivityInviteService({ ...root.deps, ...root.activityInvites }),
});

export const activityInvitesModule = resourceModule({
  name: 'activityInvites',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerActivityInviteRoutes(api, ctx.services.activityInvites);
  },
});
