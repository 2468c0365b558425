/** @module resources/guilds: the public surface of guilds. */
export { createGuildManageService } from './manage.js';
export { createMyGuildsService } from './myGuilds.js';
export { registerGuildRoutes } from './routes.js';
export { serializeGuild, viewGuild, type GuildWire } from './serialize.js';
export {
  MAX_GUILDS_PER_USER,
  createGuildService,
  type GuildService,
  type NewChannel,
} from './service.js';
export { LOCALES } from './schemas.js';
export { announceGuildUpdate, guildDispatches } from './dispatch.js';
export { CreateGuildBody } from './schemas.js';
export { guildTemplate } from './create.js';
export { guildsModule } from './module.js';
