/**
 * @module resources/soundboard/module: soundboard sounds as the composition root plugs it in
 * (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { registerSoundboardCdnRoutes, registerSoundboardRoutes } from './routes.js';
import { createSoundboardService } from './service.js';

const services = (root: { deps: ServiceDeps }) => ({
  soundboard: createSoundboardService(root.deps),
});

export const soundboardModule = resourceModule({
  name: 'soundboard',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerSoundboardRoutes(api, ctx.services.soundboard);
  },
  rootRoutes: (http, ctx: Parameters<typeof registerSoundboardCdnRoutes>[1]) => {
    registerSoundboardCdnRoutes(http, ctx);
  },
});
