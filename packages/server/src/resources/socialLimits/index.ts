/** @module resources/socialLimits: the Social SDK pre-approval limits and their approval. */
export { SOCIAL_LIMITS, SOCIAL_LIMIT_WINDOW_MS, createSocialLimits } from './limits.js';
export { registerSocialApprovalRoutes } from './routes.js';
export { socialLimitsModule } from './module.js';
