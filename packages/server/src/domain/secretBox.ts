/**
 * @module domain/secretBox: secrets the server must read back (the apps' Ed25519 signing keys, the
 * ID token RSA key) are stored sealed with AES-256-GCM under the server's secret key
 * (docs/operations.md). A sealed value is `v1:<iv>:<tag>:<ciphertext>` (base64, a fresh 12-byte IV
 * each time); the row it belongs to is its additional authenticated data, so a value copied to
 * another row, or altered, does not open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export const SECRET_KEY_BYTES = 32;
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
};

export interface SecretBox {
  /** Seals a value for the row `aad` names. */
  seal(plaintext: string, aad: string): string;
  /** @throws SecretBoxError when the value is not sealed, by this key, for this row. */
  open(sealed: string, aad: string): string;
  /** Whether a stored value is sealed (rows written before sealing hold the plaintext). */
  isSealed(value: string): boolean;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== SECRET_KEY_BYTES) {
    throw new RangeError(`a secret key has ${String(SECRET_KEY_BYTES)} bytes`);
  }
  return {
    seal(plaintext, aad) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(aad));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64'));
      return `v1:${parts.join(':')}`;
    },
    open(sealed, aad) {
      const match = ENVELOPE.exec(sealed);
      if (match === null) throw new SecretBoxError('not a sealed value');
      const [, iv = '', tag = '', ciphertext = ''] = match;
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAAD(Buffer.from(aad));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      try {
        const opened = [decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()];
        return Buffer.concat(opened).toString('utf8');
      } catch {
        throw new SecretBoxError('the sealed value does not open with this key for this row');
      }
    },
    isSealed: (value) => value.startsWith('v1:'),
  };
}
