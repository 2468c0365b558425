/** @module resources/monetization: SKUs, entitlements, subscriptions and test purchases. */
export { registerMonetizationRoutes } from './routes.js';
export { createMonetizationService, type MonetizationService } from './service.js';
export { createSubscriptionService, type SubscriptionService } from './subscriptions.js';
export {
  serializeEntitlement,
  serializeSku,
  serializeSubscription,
  type EntitlementWire,
} from './serialize.js';
export { CreateSkuBody, CreateTestEntitlementBody, EntitlementOwnerTypes } from './schemas.js';
export { monetizationModule } from './module.js';
