/**
 * @module domain/keyring: the server's secret keys during a rotation (docs/operations.md,
 * Rotating the secret key). The current key seals and signs; a staged next key, made before a
 * rotation and known to every node before any of them seals with it, and previous keys until
 * they retire, only open and verify. A keyring is written one key an entry, the current first:
 *
 * ```
 * <current key, 32 bytes of base64>
 * <key> next
 * <key> until 2026-12-06T10:00:00.000Z
 * ```
 *
 * in the key file one entry a line, in GUILDHALL_SECRET_KEY separated by commas. A single key is
 * a keyring of one.
 */
import { createHmac } from 'node:crypto';

export const SECRET_KEY_BYTES = 32;

/** A key that no longer seals or signs, and opens and verifies until `retiresAtMs`. */
export interface RetiringKey {
  key: Buffer;
  /** Epoch ms. */
  retiresAtMs: number;
}

export interface SecretKeyring {
  /** Seals and signs; opens and verifies. */
  current: Buffer;
  /** Staged for the next rotation: opens and verifies, seals and signs nothing yet. */
  next: Buffer | null;
  /** Earlier keys, newest first. */
  previous: readonly RetiringKey[];
}

/** A keyring of one key. */
export function keyringOf(key: Buffer): SecretKeyring {
  return { current: key, next: null, previous: [] };
}

/**
 * The keys that open and verify at `nowMs`: the current one first, then the staged one, then
 * the previous ones not yet retired.
 */
export function liveKeys(keyring: SecretKeyring, nowMs: number): Buffer[] {
  const previous = keyring.previous.filter((p) => nowMs < p.retiresAtMs).map((p) => p.key);
  return [keyring.current, ...(keyring.next === null ? [] : [keyring.next]), ...previous];
}

/** A key's name for messages and logs: 8 hex characters that reveal nothing of it. */
export function keyId(key: Buffer): string {
  return createHmac('sha256', key).update('guildhall secret key id').digest('hex').slice(0, 8);
}

const KEY = /^[A-Za-z0-9+/_-]{43}=?$/;
const ENTRY = /^(\S+)(?:\s+(next|until\s+(\S+)))?$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;

/** A keyring's text: what is wrong with it says which entry, never the key. */
export type ParsedKeyring = { keyring: SecretKeyring } | { error: string };

/** Reads a keyring from its text (entries separated by newlines or commas). */
export function parseKeyring(text: string): ParsedKeyring {
  const entries = text
    .split(/[\n,]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  let current: Buffer | null = null;
  let next: Buffer | null = null;
  const previous: RetiringKey[] = [];
  const seen = new Set<string>();
  for (const [i, entry] of entries.entries()) {
    const where = `entry ${String(i + 1)}`;
    const [, keyText = '', word, until] = ENTRY.exec(entry) ?? [];
    const key = Buffer.from(keyText, 'base64');
    if (!KEY.test(keyText) || key.length !== SECRET_KEY_BYTES) {
      return { error: `${where} is not a ${String(SECRET_KEY_BYTES)}-byte base64 key` };
    }
    if (seen.has(keyText)) return { error: `${where} repeats a key` };
    seen.add(keyText);
    if (word === undefined) {
      if (current !== null) return { error: `${where}: only one key is current (no word after)` };
      current = key;
    } else if (word === 'next') {
      if (next !== null) return { error: `${where}: only one key is staged (next)` };
      next = key;
    } else {
      const retiresAtMs = ISO_TIME.test(until ?? '') ? Date.parse(until ?? '') : NaN;
      if (Number.isNaN(retiresAtMs)) {
        return { error: `${where}: "until" takes a UTC time such as 2026-12-06T10:00:00Z` };
      }
      previous.push({ key, retiresAtMs });
    }
  }
  if (current === null) return { error: 'no current key (an entry with no word after its key)' };
  previous.sort((a, b) => b.retiresAtMs - a.retiresAtMs);
  return { keyring: { current, next, previous } };
}

/** A keyring's text, one entry a line (the key file's form); `separator` `, ` for the variable. */
export function formatKeyring(keyring: SecretKeyring, separator = '\n'): string {
  return [
    keyring.current.toString('base64'),
    ...(keyring.next === null ? [] : [`${keyring.next.toString('base64')} next`]),
    ...keyring.previous.map(
      (p) => `${p.key.toString('base64')} until ${new Date(p.retiresAtMs).toISOString()}`,
    ),
  ].join(separator);
}

/**
 * The keyring after a rotation at `nowMs`: the staged key (else `fresh`) becomes current, the
 * current one retires `retireAfterMs` later, and previous keys already retired are dropped.
 */
export function rotateKeyring(
  keyring: SecretKeyring,
  rotation: { fresh: Buffer; nowMs: number; retireAfterMs: number },
): SecretKeyring {
  const { fresh, nowMs, retireAfterMs } = rotation;
  return {
    current: keyring.next ?? fresh,
    next: null,
    previous: [
      { key: keyring.current, retiresAtMs: nowMs + retireAfterMs },
      ...keyring.previous.filter((p) => nowMs < p.retiresAtMs),
    ],
  };
}
