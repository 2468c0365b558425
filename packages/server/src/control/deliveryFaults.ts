/**
 * @module control/deliveryFaults: the deliveries' hook (delivery/faults.ts) answered from the
 * faults in force: an app's interactions endpoint or webhook-events URL seen as timing out or
 * failing.
 */
import type { DeliveryFaultHook } from '../delivery/faults.js';
import type { FaultRegistry } from './faults.js';

/** The status a `status` delivery fault answers when it names none. */
const DEFAULT_FAILURE_STATUS = 500;

export function deliveryFaultHook(faults: FaultRegistry): DeliveryFaultHook {
  return (target, applicationId) => {
    if (!faults.any('delivery')) return null;
    const found = faults.matching(
      'delivery',
      { userId: null, applicationId },
      (fault) => fault.target === target,
    );
    const fault = found.find((f) => faults.fire(f));
    if (fault === undefined) return null;
    return fault.failure === 'timeout'
      ? { type: 'timeout' }
      : { type: 'status', status: fault.status ?? DEFAULT_FAILURE_STATUS };
  };
}
