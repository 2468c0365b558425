/**
 * @module resources/calls: DM and group-DM calls: their lifecycle inside op 4's transaction
 * (gateway/dmCallCommand.ts), the ringing routes, and the CALL_* and voice state wire shapes.
 */
import type { Storage } from '../../storage/index.js';
import { createCallLifecycle, type CallLifecycleDeps } from './lifecycle.js';
import { createRingingService } from './ringing.js';

export { registerCallRoutes } from './routes.js';
export { loadCallChannel, type RingingService } from './ringing.js';
export {
  dmVoiceStateWire,
  callDispatches,
  callsInProgress,
  type DmVoiceStateWire,
} from './wire.js';
export type { CallJoin, CallLifecycle } from './lifecycle.js';

/** The calls' services: the lifecycle the gateway runs, and the ringing the routes run. */
export function createCallServices(
  deps: CallLifecycleDeps & { storage: Storage; clock: { now(): number } },
) {
  return { lifecycle: createCallLifecycle(deps), ringing: createRingingService(deps) };
}

export type CallServices = ReturnType<typeof createCallServices>;
