/** @module resources/interactions: POST /interactions, the interaction object and its delivery. */
export {
  acknowledgeOrThrow,
  CALLBACK_TYPES,
  createCallbackHandler,
  type CallbackDeps,
  type HandleCallback,
  type InteractionCallbackResponse,
} from './callback.js';
export {
  createInteractionLifecycle,
  INTERACTION_ACK_DEADLINE_MS,
  INTERACTION_TOKEN_TTL_MS,
  type InteractionLifecycle,
} from './lifecycle.js';
export type { EndpointAnswer, InteractionActivities, InteractionsEndpoint } from './ports.js';
export { registerInteractionCallbackRoutes } from './callbackRoutes.js';
export { createInteractionWebhooks } from './interactionWebhooks.js';
export { createInteractionResponses, type InteractionResponses } from './responses.js';
export { registerInteractionRoutes } from './routes.js';
export {
  createInteractionService,
  type InteractionService,
  type InteractionServiceDeps,
} from './service.js';
export { registerInteractionAttachmentRoutes } from './uploads.js';
export { interactionsModule } from './module.js';
