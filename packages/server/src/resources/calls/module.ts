/**
 * @module resources/calls/module: DM and group-DM calls as the composition root plugs it in
 * (resources/module.ts).
 */
import type { Storage } from '../../storage/index.js';
import { createCallLifecycle, type CallLifecycleDeps } from './lifecycle.js';
import { createRingingService } from './ringing.js';
import { resourceModule } from '../module.js';
import { registerCallRoutes } from './routes.js';

type CallDeps = Parameters<typeof createCallServices>[0];

// Op 4's lifecycle, the ringing routes, a group's leaves and removals.
/** The calls' services: the lifecycle the gateway runs, and the ringing the routes run. */
export function createCallServices(
  deps: CallLifecycleDeps & { storage: Storage; clock: { now(): number } },
) {
  return { lifecycle: createCallLifecycle(deps), ringing: createRingingService(deps) };
}

export type CallServices = ReturnType<typeof createCallServices>;

const services = (root: {
  deps: Omit<CallDeps, 'links' | 'region'>;
  links: CallDeps['links'];
  /** The voice region DM calls are placed in (this node's). */
  callRegion: CallDeps['region'];
}) => ({
  calls: createCallServices({ ...root.deps, links: root.links, region: root.callRegion }),
});

export const callsModule = resourceModule({
  name: 'calls',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerCallRoutes(api, ctx.services.calls);
  },
});
