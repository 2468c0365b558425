/**
 * @module resources/monetization/module: SKUs, entitlements and subscriptions as the composition
 * root plugs it in (resources/module.ts).
 */

import { resourceModule } from '../module.js';
import { MONETIZATION_COMMANDS } from './commands.js';
import { registerMonetizationRoutes } from './routes.js';
import { createMonetizationService, type MonetizationDeps } from './service.js';
import { createSubscriptionService } from './subscriptions.js';

const services = (root: { deps: MonetizationDeps }) => ({
  monetization: createMonetizationService(root.deps),
  subscriptions: createSubscriptionService(root.deps),
});

export const monetizationModule = resourceModule({
  name: 'monetization',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerMonetizationRoutes(api, ctx.services);
  },
  commands: MONETIZATION_COMMANDS,
});
