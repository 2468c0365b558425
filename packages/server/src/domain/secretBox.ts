/**
 * @module domain/secretBox: secrets the server must read back (the apps' Ed25519 signing keys, the
 * ID token RSA key, webhook tokens, the attachment-signing secret) are stored sealed with
 * AES-256-GCM under the server's secret key (docs/operations.md). A sealed value is
 * `v1:<iv>:<tag>:<ciphertext>` (base64, a fresh 12-byte IV each time); the row it belongs to is
 * its additional authenticated data, so a value copied to another row, or altered, does not open.
 * During a rotation the box seals with the keyring's current key and opens with any live one
 * (domain/keyring.ts).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { systemClock, type Clock } from './clock.js';
import { SECRET_KEY_BYTES, keyringOf, liveKeys, type SecretKeyring } from './keyring.js';

export { SECRET_KEY_BYTES };
const IV_BYTES = 12;
const ENVELOPE = /^v1:([A-Za-z0-9+/]{16}):([A-Za-z0-9+/]{22}==):([A-Za-z0-9+/]*={0,2})$/;

/** A sealed value that does not open: another key sealed it, or it was altered or moved. */
export class SecretBoxError extends Error {
  override readonly name = 'SecretBoxError';
}

/** What a sealed value belongs to (its additional authenticated data). */
export const SEALED_AS = {
  applicationSigningKey: (applicationId: string) => `applications.signing_key:${applicationId}`,
  idTokenSigningKey: (kid: string) => `oauth_signing_keys.private_jwk:${kid}`,
  webhookToken: (webhookId: string) => `webhooks.token_sealed:${webhookId}`,
  serverSecret: (name: string) => `server_secrets.value:${name}`,
};

export interface SecretBox {
  /** Seals a value for the row `aad` names, with the current key. */
  seal(plaintext: string, aad: string): string;
  /** @throws SecretBoxError when the value is not sealed, by a live key, for this row. */
  open(sealed: string, aad: string): string;
  /**
   * The value sealed again with the current key when a previous key sealed it; null when the
   * current key (or the staged next one, which every node knows) did.
   * @throws SecretBoxError as open does.
   */
  reseal(sealed: string, aad: string): string | null;
  /** Whether a stored value is sealed (rows written before sealing hold the plaintext). */
  isSealed(value: string): boolean;
}

function sealWith(key: Buffer, plaintext: string, aad: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64'));
  return `v1:${parts.join(':')}`;
}

/** The plaintext, or null when `key` did not seal this value for this row. */
function openWith(key: Buffer, parts: readonly [Buffer, Buffer, Buffer], aad: string) {
  const [iv, tag, ciphertext] = parts;
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** A box over a keyring (or one key); `clock` says which previous keys have retired. */
export function createSecretBox(
  keys: SecretKeyring | Buffer,
  clock: Clock = systemClock,
): SecretBox {
  const keyring = Buffer.isBuffer(keys) ? keyringOf(keys) : keys;
  for (const key of liveKeys(keyring, -Infinity)) {
    if (key.length !== SECRET_KEY_BYTES) {
      throw new RangeError(`a secret key has ${String(SECRET_KEY_BYTES)} bytes`);
    }
  }
  /** The plaintext and the key that opened it. */
  const opened = (sealed: string, aad: string) => {
    const match = ENVELOPE.exec(sealed);
    if (match === null) throw new SecretBoxError('not a sealed value');
    const [, iv = '', tag = '', ciphertext = ''] = match;
    const parts = [iv, tag, ciphertext].map((b) => Buffer.from(b, 'base64'));
    for (const key of liveKeys(keyring, clock.now())) {
      const plaintext = openWith(key, parts as [Buffer, Buffer, Buffer], aad);
      if (plaintext !== null) return { plaintext, key };
    }
    throw new SecretBoxError('the sealed value does not open with a live key for this row');
  };
  return {
    seal: (plaintext, aad) => sealWith(keyring.current, plaintext, aad),
    open: (sealed, aad) => opened(sealed, aad).plaintext,
    reseal(sealed, aad) {
      const { plaintext, key } = opened(sealed, aad);
      if (key === keyring.current || key === keyring.next) return null;
      return sealWith(keyring.current, plaintext, aad);
    },
    isSealed: (value) => value.startsWith('v1:'),
  };
}
