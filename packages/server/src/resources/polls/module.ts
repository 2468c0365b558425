/**
 * @module resources/polls/module: polls as the composition root plugs it in (resources/module.ts).
 */
import { resourceModule } from '../module.js';
import { registerPollRoutes } from './routes.js';
import { createPollService } from './service.js';

type PollDeps = Parameters<typeof createPollService>[0];

const services = (root: { deps: Omit<PollDeps, 'links'>; links: PollDeps['links'] }) => ({
  polls: createPollService({ ...root.deps, links: root.links }),
});

export const pollsModule = resourceModule({
  name: 'polls',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerPollRoutes(api, ctx.services.polls);
  },
});
