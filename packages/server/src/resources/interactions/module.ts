/**
 * @module resources/interactions/module: interactions: their deadlines, responses and the apps'
 * endpoints as the composition root plugs it in (resources/module.ts).
 */
import type { Timers } from '../../domain/clock.js';
import type { ServiceDeps } from '../deps.js';
import type { AttachmentLinks, MessageService } from '../messages/index.js';
import { resourceModule } from '../module.js';
import { registerInteractionCallbackRoutes } from './callbackRoutes.js';
import { createInteractionLifecycle } from './lifecycle.js';
import { createInteractionResponses } from './responses.js';
import { registerInteractionRoutes } from './routes.js';
import { createInteractionService } from './service.js';
import { registerInteractionAttachmentRoutes } from './uploads.js';

type ServiceParts = Parameters<typeof createInteractionService>[0];
type Uploads = Parameters<typeof registerInteractionRoutes>[2];

const services = (
  root: {
    deps: ServiceDeps;
    links: () => AttachmentLinks;
    interactions: {
      timers: Timers;
      /** The largest file a user may upload, in bytes (`attachment_size_limit`). */
      attachmentSizeLimit: number;
      onError: (err: unknown, context: { interactionId?: string }) => void;
    };
  },
  made: {
    messages: MessageService;
    activityInstances: ServiceParts['activities'];
    interactionsEndpoint: ServiceParts['endpoint'];
  },
) => {
  const { deps, interactions } = root;
  // The 3-second rule and the endpoint check/delivery of interactions.
  const interactionLifecycle = createInteractionLifecycle({
    storage: deps.storage,
    clock: deps.clock,
    timers: interactions.timers,
    onError: (err) => {
      interactions.onError(err, {});
    },
  });
  // The app's responses: the callback route's and the HTTP delivery's, followups, @original.
  const interactionResponses = createInteractionResponses({
    storage: deps.storage,
    clock: deps.clock,
    lifecycle: interactionLifecycle,
    messages: made.messages,
    activities: made.activityInstances,
  });
  const handleInteractionCallback = interactionResponses.handleCallback;
  return {
    interactionLifecycle,
    interactionResponses,
    handleInteractionCallback,
    interactions: createInteractionService({
      ...deps,
      lifecycle: interactionLifecycle,
      endpoint: made.interactionsEndpoint,
      handleCallback: handleInteractionCallback,
      activities: made.activityInstances,
      links: root.links,
      attachmentSizeLimit: interactions.attachmentSizeLimit,
      onDeliveryError: (err, interactionId) => {
        interactions.onError(err, { interactionId });
      },
    }),
  };
};

export const interactionsModule = resourceModule({
  name: 'interactions',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services>; uploads: Uploads }) => {
    registerInteractionCallbackRoutes(api, ctx.services.interactionResponses, ctx.uploads);
    registerInteractionRoutes(api, ctx.services.interactions, ctx.uploads);
  },
  rootRoutes: (http, ctx: Parameters<typeof registerInteractionAttachmentRoutes>[1]) => {
    registerInteractionAttachmentRoutes(http, ctx);
  },
});
