/** @module resources/voice: voice regions, voice state routes and stage instances. */

export { registerVoiceRoutes, type VoiceRouteDeps } from './routes.js';
export { voiceRegions, LOCAL_REGION_ID } from './regions.js';
export { serializeStageInstance, type StageInstanceWire } from './stageInstances.js';

export { voiceStateWire, type VoiceStateWire } from './wire.js';
export { createVoiceServices, type VoiceServices, voiceModule } from './module.js';
