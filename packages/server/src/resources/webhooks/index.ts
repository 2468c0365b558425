/** @module resources/webhooks: incoming webhooks, their token routes and executes. */
export type { InteractionWebhooks } from './port.js';
export { registerWebhookRoutes, type WebhookRouteDeps } from './routes.js';
export { createWebhookService, type WebhookService } from './service.js';
export { serializeWebhook, webhookUrl, type WebhookWire } from './serialize.js';
export { WEBHOOK_LIMITS } from './schemas.js';
export { webhooksModule } from './module.js';
