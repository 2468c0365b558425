/**
 * @module resources/announcements/module: announcement channels as the composition root plugs it
 * in (resources/module.ts).
 */
import { resourceModule } from '../module.js';
import { registerAnnouncementRoutes } from './routes.js';
import { createAnnouncementService } from './service.js';

type AnnouncementDeps = Parameters<typeof createAnnouncementService>[0];

const services = (root: {
  deps: Omit<AnnouncementDeps, 'links'>;
  links: AnnouncementDeps['links'];
}) => ({
  announcements: createAnnouncementService({ ...root.deps, links: root.links }),
});

export const announcementsModule = resourceModule({
  name: 'announcements',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerAnnouncementRoutes(api, ctx.services.announcements);
  },
});
