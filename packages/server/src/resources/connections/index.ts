/** @module resources/connections: the public surface of a user's connections. */
export { registerConnectionRoutes } from './routes.js';
export { AddConnectionFlags } from './schemas.js';
export { createConnectionService } from './service.js';
export { connectionsModule } from './module.js';
