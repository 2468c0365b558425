import type { BlobStore } from '../blobs/index.js';
import type { Clock } from '../domain/clock.js';
import type { IdGenerator } from '../domain/snowflakes.js';
import type { Revocations } from '../events/revocations.js';
import type { Authenticator } from '../http/authenticator.js';
import type { Storage } from '../storage/index.js';

/** What every service is built from. */
export interface ServiceDeps {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  blobs: BlobStore;
  /** Told when credentials or users change, so cached tokens never outlive them here. */
  authenticator: Pick<Authenticator, 'forgetToken' | 'forgetUser'>;
  /** Ends revoked credentials on every node: auth caches and gateway sessions (close 4004). */
  revocations: Pick<Revocations, 'revoke'>;
}
