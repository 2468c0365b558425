/**
 * @module resources/webhooks/module: webhooks as the composition root plugs it in
 * (resources/module.ts).
 */
import { resourceModule } from '../module.js';
import { registerWebhookRoutes } from './routes.js';
import { createWebhookService } from './service.js';

type WebhookDeps = Parameters<typeof createWebhookService>[0];
type RouteDeps = Parameters<typeof registerWebhookRoutes>[1];

const services = (root: {
  deps: Omit<WebhookDeps, 'baseUrl'>;
  baseUrl: WebhookDeps['baseUrl'];
}) => ({
  webhooks: createWebhookService({ ...root.deps, baseUrl: root.baseUrl }),
});

export const webhooksModule = resourceModule({
  name: 'webhooks',
  services,
  routes: (
    api,
    ctx: {
      services: ReturnType<typeof services> & {
        messages: RouteDeps['messages'];
        interactionResponses: { webhooks: RouteDeps['interactions'] };
      };
      uploads: RouteDeps['uploads'];
    },
  ) => {
    registerWebhookRoutes(api, {
      webhooks: ctx.services.webhooks,
      messages: ctx.services.messages,
      interactions: ctx.services.interactionResponses.webhooks,
      uploads: ctx.uploads,
    });
  },
});
