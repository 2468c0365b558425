/** @module resources/guildSettings: widget, welcome screen, onboarding, preview, vanity URL, incident actions, integrations, join requests. */
export { createIntegrationService } from './integrations.js';
export { createJoinRequestService } from './joinRequests.js';
export { createPreviewService } from './preview.js';
export { registerGuildSettingsRoutes, type GuildSettingsRouteServices } from './routes.js';
export { createGuildSettingsService, type GuildSettingsService } from './settings.js';
export { createWidgetService, type WidgetPorts, type WidgetPresence } from './widget.js';
export { WIDGET_IMAGE_SIZES, renderWidgetImage } from './widgetImage.js';
export { guildSettingsModule } from './module.js';
