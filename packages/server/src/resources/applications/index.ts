/** @module resources/applications: the public surface of the applications resource. */
export {
  EventWebhooksStatuses,
  SUBSCRIBABLE_EVENT_TYPES,
  type SubscribableEventType,
} from './eventWebhooks.js';
export { registerApplicationRoutes } from './routes.js';
export { registerAssetCdnRoutes } from './assets.js';
export { CreateApplicationBody, ModifyOwnedApplicationBody } from './schemas.js';
export { intentReview, type IntentReview } from './intentReview.js';
export { createApplicationService, type ApplicationService } from './service.js';
export { applicationsModule } from './module.js';
