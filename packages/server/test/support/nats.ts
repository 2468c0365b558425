import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';

export { TEST_NATS_URL } from './serviceUrls.js';

/**
 * Whether the NATS tests run: the server answered the probe of `globalSetup.ts` (which fails the
 * run under CI=true when it did not).
 */
export const natsAvailable = inject('natsFailure') === null;

/** A fresh subject prefix, so parallel test files never see each other's events. */
export function uniqueSubjectPrefix(prefix = 't'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}.`;
}
