/**
 * @module resources/stickers/module: stickers as the composition root plugs it in
 * (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { registerStickerCdnRoutes, registerStickerRoutes } from './routes.js';
import { createStickerService } from './service.js';

const services = (root: { deps: ServiceDeps }) => ({ stickers: createStickerService(root.deps) });

export const stickersModule = resourceModule({
  name: 'stickers',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerStickerRoutes(api, ctx.services.stickers);
  },
  rootRoutes: (http, ctx: Parameters<typeof registerStickerCdnRoutes>[1]) => {
    registerStickerCdnRoutes(http, ctx);
  },
});
