/**
 * @module delivery/module: the event webhook worker's service and the interactions endpoint as
 * the composition root plugs them in (resources/module.ts).
 */
import type { DeliveryFaultHook } from './faults.js';
import { createInteractionsEndpoint } from './interactionsEndpoint.js';
import { registerWebhookEventRoutes } from './routes.js';
import type { WebhookEventsService } from './service.js';
import type { Clock, Timers } from '../domain/clock.js';
import type { SecretBox } from '../domain/secretBox.js';
import { resourceModule } from '../resources/module.js';

const services = (root: {
  deps: { clock: Clock; secrets: SecretBox; webhookEvents: WebhookEventsService };
  interactions: {
    timers: Timers;
    /** Loopback and private endpoint URLs allowed (config allowLocalWebhooks). */
    allowLocal: boolean;
    /** A test harness's failure to report instead of posting (delivery/faults.ts). */
    deliveryFault?: DeliveryFaultHook | undefined;
  };
}) => {
  const { deps, interactions } = root;
  return {
    webhookEvents: deps.webhookEvents,
    // Checks and posts to an application's interactions endpoint URL.
    interactionsEndpoint: createInteractionsEndpoint({
      clock: deps.clock,
      secrets: deps.secrets,
      allowLocal: interactions.allowLocal,
      ...(interactions.deliveryFault
        ? { fault: { hook: interactions.deliveryFault, timers: interactions.timers } }
        : {}),
    }),
  };
};

export const deliveryModule = resourceModule({
  name: 'delivery',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerWebhookEventRoutes(api, ctx.services.webhookEvents);
  },
});
