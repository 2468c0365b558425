import { generateKeyPairSync, hash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Credentials: tokens and secrets are random and stored only as SHA-256 hashes (they carry 192+
 * bits of entropy, so a fast hash is safe and keeps per-request auth cheap); passwords, which
 * people choose, are hashed with scrypt.
 */

/** SHA-256 of a token or secret, hex: the only form a credential is stored in. */
export function hashSecret(secret: string): string {
  // The one-shot form costs half of createHash().update().digest() (Node 20.12+).
  return hash('sha256', secret, 'hex');
}

/**
 * A token in the platform's three-part shape: the user id in base64, a timestamp, and 32 random
 * bytes. Libraries that read the bot's id from the first part keep working.
 */
export function generateToken(userId: string, nowMs: number): string {
  const idPart = Buffer.from(userId).toString('base64url');
  const timePart = Buffer.from(Math.floor(nowMs / 1000).toString(16), 'hex').toString('base64url');
  return `${idPart}.${timePart}.${randomBytes(32).toString('base64url')}`;
}

/** A client secret: 32 random bytes, base64url. */
export function generateClientSecret(): string {
  return randomBytes(32).toString('base64url');
}

const SCRYPT = { N: 16384, r: 8, p: 1, keyLength: 32 } as const;

function scryptAsync(password: string, salt: Buffer, params: { N: number; r: number; p: number }) {
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(
      password,
      salt,
      SCRYPT.keyLength,
      { ...params, maxmem: 64 * 1024 * 1024 },
      (err, key) => {
        if (err) reject(err);
        else resolve(key);
      },
    );
  });
}

/** Hashes a password as `scrypt$N$r$p$salt$hash` (base64url parts). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, SCRYPT);
  return [
    'scrypt',
    SCRYPT.N,
    SCRYPT.r,
    SCRYPT.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

/** Checks a password against a stored hash in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** An application's Ed25519 key pair: the public key as hex (`verify_key`), the private as PKCS#8. */
export function generateSigningKeyPair(): { verifyKey: string; signingKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return {
    // The raw 32-byte key is the tail of the SPKI encoding.
    verifyKey: spki.subarray(spki.length - 32).toString('hex'),
    signingKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
  };
}
