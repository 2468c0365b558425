/**
 * @module resources/scheduledEvents/module: scheduled events as the composition root plugs it in
 * (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { registerScheduledEventCdnRoutes, registerScheduledEventRoutes } from './routes.js';
import { createScheduledEventService } from './service.js';

const services = (root: { deps: ServiceDeps }) => ({
  scheduledEvents: createScheduledEventService(root.deps),
});

export const scheduledEventsModule = resourceModule({
  name: 'scheduledEvents',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerScheduledEventRoutes(api, ctx.services.scheduledEvents);
  },
  rootRoutes: (http, ctx: Parameters<typeof registerScheduledEventCdnRoutes>[1]) => {
    registerScheduledEventCdnRoutes(http, ctx);
  },
});
