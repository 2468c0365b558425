/**
 * @module resources/gameStats/module: game stats as the composition root plugs it in
 * (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { registerGameStatsRoutes } from './routes.js';
import { createGameStatsService } from './service.js';

const services = (root: { deps: ServiceDeps }) => ({
  gameStats: createGameStatsService(root.deps),
});

export const gameStatsModule = resourceModule({
  name: 'gameStats',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerGameStatsRoutes(api, ctx.services.gameStats);
  },
});
