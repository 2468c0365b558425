/** @module resources/roles: the public surface of guild roles. */
export { registerRoleRoutes } from './routes.js';
export { serializeRole, type RoleWire } from './serialize.js';
export { createRoleService, findRole, type GuildRequest } from './service.js';
export { roleDispatches } from './dispatch.js';
export { rolesModule } from './module.js';
