/**
 * @module resources/system/module: health, metrics and the image paths as the composition root
 * plugs it in (resources/module.ts).
 */
import { resourceModule } from '../module.js';
import { registerSystemRoutes } from './routes.js';

export const systemModule = resourceModule({
  name: 'system',
  services: () => ({}),
  rootRoutes: (http, ctx: { system: Parameters<typeof registerSystemRoutes>[1] }) => {
    registerSystemRoutes(http, ctx.system);
  },
});
