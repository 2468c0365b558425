/**
 * @module delivery/faults: a test harness's word on a delivery (control/, docs/testing.md#faults):
 * the app's endpoint seen as timing out or failing instead of being called.
 */
import type { Timers } from '../domain/clock.js';

/** How the endpoint is seen to fail: no answer within the deadline, or an error status. */
export type DeliveryFailure = { type: 'timeout' } | { type: 'status'; status: number };

/** Asked before each POST to an app: a failure to report instead, or null to post for real. */
export type DeliveryFaultHook = (
  target: 'interactions' | 'webhookEvents',
  applicationId: string,
) => DeliveryFailure | null;

/**
 * What a failure comes to: an error status at once, or, for a timeout, the deadline's error once
 * `timeoutMs` has passed on `timers` (the platform clock's: advancing it ends the wait).
 */
export async function failedOutcome(
  failure: DeliveryFailure,
  wait: { timeoutMs: number; timers: Timers },
): Promise<{ status: number; error: null } | { status: null; error: string }> {
  if (failure.type === 'status') return { status: failure.status, error: null };
  await new Promise<void>((resolve) => wait.timers.schedule(resolve, wait.timeoutMs));
  return { status: null, error: `timed out after ${String(wait.timeoutMs)} ms` };
}
