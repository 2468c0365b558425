/**
 * @module resources/appData: an application's own data: its emojis, its role connection
 * metadata and its users' role connections, activity attachments, and guild membership
 * through OAuth2 (guilds.join, guilds.members.read).
 */

export { registerAppAttachmentCdnRoutes } from './attachments.js';
export { registerAppDataRoutes, type AppDataServices } from './routes.js';

export { createAppDataServices, appDataModule } from './module.js';
