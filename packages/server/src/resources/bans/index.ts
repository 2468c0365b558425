/** @module resources/bans: the public surface of guild bans. */
export { registerBanRoutes } from './routes.js';
export { createBanService } from './service.js';
export { bansModule } from './module.js';
