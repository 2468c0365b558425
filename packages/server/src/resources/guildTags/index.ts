/** @module resources/guildTags: guild tags and the primary guild users wear. */
export { registerGuildTagRoutes } from './routes.js';
export { createGuildTagService, serializeGuildTag, type GuildTagService } from './service.js';
export { guildTagsModule } from './module.js';
