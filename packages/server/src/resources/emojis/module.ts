/**
 * @module resources/emojis/module: guild emojis as the composition root plugs it in
 * (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { registerEmojiCdnRoutes, registerEmojiRoutes } from './routes.js';
import { createEmojiService } from './service.js';

const services = (root: { deps: ServiceDeps }) => ({ emojis: createEmojiService(root.deps) });

export const emojisModule = resourceModule({
  name: 'emojis',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerEmojiRoutes(api, ctx.services.emojis);
  },
  rootRoutes: (http, ctx: Parameters<typeof registerEmojiCdnRoutes>[1]) => {
    registerEmojiCdnRoutes(http, ctx);
  },
});
