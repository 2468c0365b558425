/** @module resources/guildTemplates: guild templates. */
export { registerGuildTemplateRoutes } from './routes.js';
export { createGuildTemplateService, type GuildTemplateService } from './service.js';
export { guildTemplatesModule } from './module.js';
