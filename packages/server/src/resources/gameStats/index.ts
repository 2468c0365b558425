/** @module resources/gameStats: game stats (Application Identity Profiles) and application profiles. */
export { registerGameStatsRoutes } from './routes.js';
export { createGameStatsService, type GameStatsService } from './service.js';
export { serializeUserApplicationProfile } from './serialize.js';
export { gameStatsModule } from './module.js';
