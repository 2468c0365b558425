/** @module resources/autoModeration: auto-moderation rules and their enforcement. */
export type { BudgetClocks, Stopwatch } from './budget.js';
export {
  createAutoModerationEnforcer,
  QUARANTINED_FLAG,
  type AutoModerationEnforcer,
} from './enforce.js';
export { createAutoModRuleCache, type AutoModRuleCache } from './ruleCache.js';
export { registerAutoModerationRoutes } from './routes.js';
export { createAutoModerationService, type AutoModerationService } from './service.js';
export { serializeRule } from './serialize.js';
export { autoModerationModule } from './module.js';
