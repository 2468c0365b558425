/** @module resources/access: a caller's access to a guild, shared by every guild-scoped resource. */
export { loadGuildAccess, type GuildAccess } from './guildAccess.js';
export { AUTH, accessLoader, reasonOf, type AccessFor } from './routeHelpers.js';
export { findApplication } from './applications.js';
export { requireAccess, requireScope } from './scopes.js';
