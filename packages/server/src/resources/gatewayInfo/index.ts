/** @module resources/gatewayInfo: GET /gateway and /gateway/bot, and the session start limit. */
export { registerGatewayRoutes } from './routes.js';
export {
  DEFAULT_SESSION_START_LIMIT,
  LARGE_BOT_SHARDING_MAX_CONCURRENCY,
  createSessionStartLimit,
  type SessionStartLimit,
} from './sessionStartLimit.js';
export { gatewayInfoModule } from './module.js';
