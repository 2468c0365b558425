/**
 * @module activities/module: an application's activity config and the instances people launch,
 * as the composition root plugs them in (resources/module.ts).
 */
import { createActivityConfigService } from './config.js';
import { createActivityInstanceService } from './instances.js';
import { createProxyTicketService } from './proxyTickets.js';
import { registerActivityShelfRoutes } from './launchable.js';
import { registerActivityRoutes } from './routes.js';
import type { SecretBox } from '../domain/secretBox.js';
import type { ServiceDeps } from '../resources/deps.js';
import { resourceModule } from '../resources/module.js';

const services = (root: {
  deps: ServiceDeps & { secrets: SecretBox };
  activityOrigin: (applicationId: string) => string;
}) => ({
  activityConfig: createActivityConfigService({
    ...root.deps,
    activityOrigin: root.activityOrigin,
  }),
  activityInstances: createActivityInstanceService({
    ...root.deps,
    activityOrigin: root.activityOrigin,
  }),
  proxyTickets: createProxyTicketService(root.deps),
});

export const activitiesModule = resourceModule({
  name: 'activities',
  services,
  routes: (
    api,
    ctx: { services: ReturnType<typeof services> } & Parameters<
      typeof registerActivityShelfRoutes
    >[1],
  ) => {
    registerActivityShelfRoutes(api, ctx);
    registerActivityRoutes(api, {
      config: ctx.services.activityConfig,
      instances: ctx.services.activityInstances,
      proxyTickets: ctx.services.proxyTickets,
    });
  },
});
