/**
 * @module resources/guildSettings/module: a guild's settings, widget, preview, integrations and
 * join requests as the composition root plugs it in (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import type { ProfileCheck } from '../members/index.js';
import { resourceModule } from '../module.js';
import { createIntegrationService } from './integrations.js';
import { createJoinRequestService } from './joinRequests.js';
import { createPreviewService } from './preview.js';
import { registerGuildSettingsRoutes } from './routes.js';
import { createGuildSettingsService } from './settings.js';
import { createWidgetService, type WidgetPorts } from './widget.js';

const services = (
  root: {
    deps: ServiceDeps;
    presencesOf: WidgetPorts['presencesOf'];
    baseUrl: WidgetPorts['baseUrl'];
  },
  made: { profileCheck: ProfileCheck },
) => ({
  guildSettings: createGuildSettingsService(root.deps),
  widget: createWidgetService({
    ...root.deps,
    presencesOf: root.presencesOf,
    baseUrl: root.baseUrl,
  }),
  preview: createPreviewService({ ...root.deps, presencesOf: root.presencesOf }),
  integrations: createIntegrationService(root.deps),
  joinRequests: createJoinRequestService(root.deps, { profileCheck: made.profileCheck }),
});

export const guildSettingsModule = resourceModule({
  name: 'guildSettings',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerGuildSettingsRoutes(api, ctx.services);
  },
});
