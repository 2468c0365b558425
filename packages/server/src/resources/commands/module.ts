/**
 * @module resources/commands/module: application commands as the composition root plugs it in
 * (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { registerCommandRoutes } from './routes.js';
import { createCommandService } from './service.js';

const services = (root: { deps: ServiceDeps }) => ({ commands: createCommandService(root.deps) });

export const commandsModule = resourceModule({
  name: 'commands',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerCommandRoutes(api, ctx.services.commands);
  },
});
