/** @module resources/announcements: following announcement channels and crossposting. */
export { registerAnnouncementRoutes } from './routes.js';
export { createAnnouncementService, type AnnouncementService } from './service.js';
export { announcementsModule } from './module.js';
