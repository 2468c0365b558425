/**
 * @module resources/voice/module: voice states and stage instances as the composition root plugs
 * it in (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { registerVoiceRoutes } from './routes.js';
import { createStageInstanceService } from './stageInstances.js';
import { createVoiceStateService } from './voiceStates.js';

/** The voice services the routes use. */
export function createVoiceServices(deps: ServiceDeps) {
  return {
    voiceStates: createVoiceStateService(deps),
    stageInstances: createStageInstanceService(deps),
  };
}

export type VoiceServices = ReturnType<typeof createVoiceServices>;

const services = (root: { deps: ServiceDeps }) => ({ voice: createVoiceServices(root.deps) });

type RouteDeps = Parameters<typeof registerVoiceRoutes>[1];

export const voiceModule = resourceModule({
  name: 'voice',
  services,
  routes: (
    api,
    ctx: { services: ReturnType<typeof services> } & Omit<RouteDeps, keyof VoiceServices>,
  ) => {
    registerVoiceRoutes(api, { storage: ctx.storage, clock: ctx.clock, ...ctx.services.voice });
  },
});
