/** @module resources/voice: voice regions, voice state routes and stage instances. */
import type { ServiceDeps } from '../deps.js';
import { createStageInstanceService } from './stageInstances.js';
import { createVoiceStateService } from './voiceStates.js';

export { registerVoiceRoutes, type VoiceRouteDeps } from './routes.js';
export { voiceRegions, LOCAL_REGION_ID } from './regions.js';
export { serializeStageInstance, type StageInstanceWire } from './stageInstances.js';

/** The voice services the routes use. */
export function createVoiceServices(deps: ServiceDeps) {
  return {
    voiceStates: createVoiceStateService(deps),
    stageInstances: createStageInstanceService(deps),
  };
}

export type VoiceServices = ReturnType<typeof createVoiceServices>;
export { voiceStateWire, type VoiceStateWire } from './wire.js';
