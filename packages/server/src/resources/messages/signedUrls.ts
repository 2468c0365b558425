/**
 * Signed, expiring attachment URLs, in the platform's query shape: `?ex=…&is=…&hm=…&`, where
 * `ex` is when the link expires and `is` when it was issued (hex Unix seconds) and `hm` is an
 * HMAC-SHA256 (hex) of the path, `ex` and `is` under a server secret every node shares. A link
 * the API did not hand out, or one past its `ex`, opens nothing.
 * @module
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../domain/clock.js';
import { SEALED_AS, type SecretBox } from '../../domain/secretBox.js';
import type { Repositories } from '../../storage/index.js';
import { SECOND_MS, unixSeconds } from '../../domain/time.js';

/** The name of the signing secret in server_secrets (its value sealed, SEALED_AS.serverSecret). */
export const ATTACHMENT_SECRET = 'attachment_url_hmac';

export interface AttachmentSigner {
  /** `path` (as it appears in the URL) with a fresh signature query. */
  sign(path: string): string;
  /** Whether the query signs `path` and has not expired. */
  verify(path: string, query: Readonly<Record<string, unknown>>): boolean;
}

const HEX_SECONDS = /^[0-9a-f]{1,12}$/;
const HEX_MAC = /^[0-9a-f]{64}$/;

/** A signer over `secret` (raw bytes); links live `lifetimeMs`. */
export function createAttachmentSigner(deps: {
  secret: Buffer;
  clock: Clock;
  lifetimeMs: number;
}): AttachmentSigner {
  const mac = (path: string, ex: string, is: string) =>
    createHmac('sha256', deps.secret).update(`${path}\n${ex}\n${is}`).digest();
  return {
    sign(path) {
      const now = deps.clock.now();
      const is = unixSeconds(now).toString(16);
      const ex = unixSeconds(now + deps.lifetimeMs).toString(16);
      return `${path}?ex=${ex}&is=${is}&hm=${mac(path, ex, is).toString('hex')}&`;
    },
    verify(path, query) {
      const { ex, is, hm } = query;
      if (typeof ex !== 'string' || typeof is !== 'string' || typeof hm !== 'string') return false;
      if (!HEX_SECONDS.test(ex) || !HEX_SECONDS.test(is) || !HEX_MAC.test(hm)) return false;
      const valid = timingSafeEqual(mac(path, ex, is), Buffer.from(hm, 'hex'));
      return valid && parseInt(ex, 16) * SECOND_MS > deps.clock.now();
    },
  };
}

/**
 * The signer of this deployment: its secret is made at first start and kept in the database,
 * sealed with the server's secret key (domain/secretBox.ts), so every node (PostgreSQL) signs and
 * checks with the same one, links survive a restart, and a copy of the database alone cannot
 * forge a link. A rotation of the secret key seals it again and leaves it as it is: no link
 * handed out stops working. A value from before sealing is used as it is (the next start seals it).
 */
export async function loadAttachmentSigner(deps: {
  storage: Repositories;
  clock: Clock;
  lifetimeMs: number;
  secrets: SecretBox;
}): Promise<AttachmentSigner> {
  const { secrets } = deps;
  const aad = SEALED_AS.serverSecret(ATTACHMENT_SECRET);
  const stored = await deps.storage.serverSecrets.getOrCreate(
    ATTACHMENT_SECRET,
    secrets.seal(randomBytes(32).toString('base64'), aad),
    deps.clock.now(),
  );
  const secret = secrets.isSealed(stored) ? secrets.open(stored, aad) : stored;
  return createAttachmentSigner({ ...deps, secret: Buffer.from(secret, 'base64') });
}
