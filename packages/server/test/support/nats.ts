import { randomBytes } from 'node:crypto';
import { connect } from 'nats';

/**
 * The NATS server the tests use. Under CI=true it is mandatory: an unreachable server fails the
 * run. Elsewhere the NATS tests skip, saying why.
 */
export const TEST_NATS_URL = process.env['GUILDHALL_TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';

async function probe(): Promise<string | null> {
  try {
    const nc = await connect({ servers: TEST_NATS_URL, timeout: 2000, reconnect: false });
    await nc.close();
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

const failure = await probe();
if (failure !== null && process.env['CI'] === 'true') {
  throw new Error(`NATS at ${TEST_NATS_URL} is required under CI=true but unreachable: ${failure}`);
}
if (failure !== null) {
  process.stderr.write(
    `Skipping NATS tests: ${TEST_NATS_URL} is unreachable (${failure}). Set GUILDHALL_TEST_NATS_URL or start nats-server to run them.\n`,
  );
}

/** Whether the NATS tests run in this process. */
export const natsAvailable = failure === null;

/** A fresh subject prefix, so parallel test files never see each other's events. */
export function uniqueSubjectPrefix(prefix = 't'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}.`;
}
