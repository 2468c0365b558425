/**
 * @module resources/members/module: members and pruning as the composition root plugs it in
 * (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { createPruneService } from './prune.js';
import { registerMemberRoutes } from './routes.js';
import type { ProfileCheck } from './profile.js';
import { createMemberService } from './service.js';

const services = (root: { deps: ServiceDeps }, made: { profileCheck: ProfileCheck }) => ({
  members: createMemberService(root.deps, { profileCheck: made.profileCheck }),
  prune: createPruneService(root.deps),
});

export const membersModule = resourceModule({
  name: 'members',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerMemberRoutes(api, ctx.services);
  },
});
