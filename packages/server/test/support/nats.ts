import { randomBytes } from 'node:crypto';
import { connect } from 'nats';
import { inject } from 'vitest';
import { TEST_NATS_URL } from './serviceUrls.js';

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

/** Deletes a JetStream stream (a bus history a test made); nothing when it does not exist. */
export async function deleteStream(name: string): Promise<void> {
  const nc = await connect({ servers: TEST_NATS_URL });
  try {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(name).catch((err: unknown) => {
      if (!(err instanceof Error && /not found/i.test(err.message))) throw err;
    });
  } finally {
    await nc.close();
  }
}
