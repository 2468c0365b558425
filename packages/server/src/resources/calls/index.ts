/**
 * @module resources/calls: DM and group-DM calls: their lifecycle inside op 4's transaction
 * (gateway/dmCallCommand.ts), the ringing routes, and the CALL_* and voice state wire shapes.
 */

export { registerCallRoutes } from './routes.js';
export { loadCallChannel, type RingingService } from './ringing.js';
export {
  dmVoiceStateWire,
  callDispatches,
  callsInProgress,
  type DmVoiceStateWire,
} from './wire.js';
export type { CallJoin, CallLifecycle } from './lifecycle.js';

export { createCallServices, type CallServices, callsModule } from './module.js';
