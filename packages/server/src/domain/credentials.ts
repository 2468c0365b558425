import {
  createPrivateKey,
  createPublicKey,
  hash,
  randomBytes,
  scrypt,
  timingSafeEqual,
} from 'node:crypto';
import { systemEntropy, type Entropy } from './seeded.js';
import { unixSeconds } from './time.js';

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
 * bytes. Libraries that read the bot's id from the first part keep working. The bytes and the
 * time come from `entropy` (a world's seed while it loads, domain/seeded.ts).
 */
export function generateToken(
  userId: string,
  nowMs: number,
  entropy: Entropy = systemEntropy,
): string {
  const idPart = Buffer.from(userId).toString('base64url');
  const timePart = Buffer.from(unixSeconds(entropy.tokenTime(nowMs)).toString(16), 'hex');
  return `${idPart}.${timePart.toString('base64url')}.${entropy.bytes(32).toString('base64url')}`;
}

/** A client secret: 32 random bytes, base64url. */
export function generateClientSecret(entropy: Entropy = systemEntropy): string {
  return entropy.bytes(32).toString('base64url');
}

/** scrypt's cost: N = 2^log2N, block size r, parallelism p. */
export interface ScryptCost {
  log2N: number;
  r: number;
  p: number;
}

/**
 * OWASP's Password Storage Cheat Sheet (cheatsheetseries.owasp.org, "Password Storage Cheat
 * Sheet", scrypt section, current since 2023): "a minimum CPU/memory cost parameter of (2^17), a
 * minimum block size of 8 (1024 bytes), and a parallelization parameter of 1". One hash at this
 * cost takes 128 MiB (128 * N * r bytes) for a few hundred milliseconds.
 */
export const DEFAULT_SCRYPT_COST: ScryptCost = { log2N: 17, r: 8, p: 1 };

const KEY_LENGTH = 32;
/** The highest parameters a stored hash may name: a damaged row must not allocate gigabytes. */
/** scrypt's working memory is 128 * N * r * p bytes (RFC 7914). */
const SCRYPT_BLOCK_BYTES = 128;
/** Room over that working memory for scrypt's own bookkeeping. */
const SCRYPT_MEMORY_HEADROOM_BYTES = 1024 * 1024;
const MAX_LOG2N = 20;
const MAX_R = 16;
const MAX_P = 4;

function scryptAsync(password: string, salt: Buffer, cost: ScryptCost) {
  const N = 2 ** cost.log2N;
  return new Promise<Buffer>((resolve, reject) => {
    // Node refuses more than 32 MiB by default; 2^17 needs 128 MiB (128 * N * r), and a little more.
    const maxmem = SCRYPT_BLOCK_BYTES * N * cost.r * cost.p + SCRYPT_MEMORY_HEADROOM_BYTES;
    scrypt(password, salt, KEY_LENGTH, { N, r: cost.r, p: cost.p, maxmem }, (err, key) => {
      if (err) reject(err);
      else resolve(key);
    });
  });
}

/** Hashes a password as `scrypt$N$r$p$salt$hash` (base64url salt and hash): the cost travels with it. */
export async function hashPassword(
  password: string,
  cost: ScryptCost = DEFAULT_SCRYPT_COST,
): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, cost);
  return [
    'scrypt',
    2 ** cost.log2N,
    cost.r,
    cost.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

/** The cost a stored hash was made with, or null when it is not a hash this module made. */
function storedCost(stored: string): { cost: ScryptCost; salt: string; hash: string } | null {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined) return null;
  const log2N = Math.log2(Number(n));
  const cost = { log2N, r: Number(r), p: Number(p) };
  const valid =
    Number.isInteger(log2N) &&
    log2N >= 1 &&
    log2N <= MAX_LOG2N &&
    Number.isInteger(cost.r) &&
    cost.r >= 1 &&
    cost.r <= MAX_R &&
    Number.isInteger(cost.p) &&
    cost.p >= 1 &&
    cost.p <= MAX_P;
  return valid ? { cost, salt, hash } : null;
}

/** Checks a password against a stored hash in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = storedCost(stored);
  if (parsed === null) return false;
  const expected = Buffer.from(parsed.hash, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(parsed.salt, 'base64url'), parsed.cost);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Whether a stored hash was made at another cost than `cost` (it is rehashed on the next login). */
export function passwordNeedsRehash(stored: string, cost: ScryptCost): boolean {
  const parsed = storedCost(stored)?.cost;
  return parsed?.log2N !== cost.log2N || parsed.r !== cost.r || parsed.p !== cost.p;
}

/** PKCS#8's wrapping of a raw 32-byte Ed25519 private key (RFC 8410), before the key. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * An application's Ed25519 key pair: the public key as hex (`verify_key`), the private as PKCS#8.
 * The private key is 32 bytes of `entropy` (RFC 8032: any 32 bytes are a key).
 */
export function generateSigningKeyPair(entropy: Entropy = systemEntropy): {
  verifyKey: string;
  signingKey: string;
} {
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, entropy.bytes(32)]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = createPublicKey(privateKey);
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return {
    // The raw 32-byte key is the tail of the SPKI encoding.
    verifyKey: spki.subarray(spki.length - 32).toString('hex'),
    signingKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
  };
}
