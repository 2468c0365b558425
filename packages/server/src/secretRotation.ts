/**
 * @module secretRotation: `guildhall secrets rotate` (docs/operations.md, Rotating the secret
 * key). A rotation makes the staged key (or a new one) current, keeps the old one opening and
 * verifying for `secretKeyRetireHours`, and seals every stored secret again with the new key.
 * Nothing is sealed with a key before the keyring holding it is written where the nodes read
 * it, so a rotation that stops half-way loses nothing.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { UsageError } from './cliFlags.js';
import { ConfigError, type Config } from './config.js';
import type { Clock } from './domain/clock.js';
import {
  SECRET_KEY_BYTES,
  formatKeyring,
  keyId,
  parseKeyring,
  rotateKeyring,
  type SecretKeyring,
} from './domain/keyring.js';
import { createSecretBox } from './domain/secretBox.js';
import { HOUR_MS } from './domain/time.js';
import { loadKeyring, sealStoredSecrets, writeKeyringFile, type SealingCounts } from './secrets.js';
import type { SealedColumn, Storage } from './storage/index.js';

/** What a rotation did. */
export type RotationResult =
  | { outcome: 'staged'; next: string; path: string }
  | {
      outcome: 'rotated';
      /** The new current key's id. */
      current: string;
      /** The old key's id and when it retires (ISO time). */
      previous: { key: string; until: string };
      /** Values sealed again with the new key. */
      resealed: number;
      /** The key file written, or null: GUILDHALL_SECRET_KEY is to be set as `setting` says. */
      path: string | null;
      /** The variable's new value, keys named by id (`<key ab12cd34>`), never written out. */
      setting: string;
    };

/** How the progress lines name each sealed column. */
const COLUMN_NAMES: Record<SealedColumn, string> = {
  'applications.signing_key': "applications' signing keys",
  'oauth_signing_keys.private_jwk': 'ID token signing keys',
  'webhooks.token_sealed': 'webhook tokens',
  'server_secrets.value': 'server secrets',
};

/** The keyring's text with each key replaced by its id. */
const redacted = (keyring: SecretKeyring) =>
  formatKeyring(keyring, ', ').replace(
    /[A-Za-z0-9+/]{43}=/g,
    (key) => `<key ${keyId(Buffer.from(key, 'base64'))}>`,
  );

/** Writes the key file unless it changed since it was read (another rotation, an operator). */
function replaceKeyFile(path: string, before: SecretKeyring, after: SecretKeyring) {
  const found = parseKeyring(readFileSync(path, 'utf8'));
  if (!('keyring' in found) || formatKeyring(found.keyring) !== formatKeyring(before)) {
    throw new ConfigError(`${path} changed while rotating, and was not written. Run it again.`);
  }
  writeKeyringFile(path, after);
}

/** Why a rotation cannot go as asked (checked before anything is read or written), or null. */
function refusal(keyring: SecretKeyring, path: string | null, stage: boolean): string | null {
  if (stage && path === null) {
    return 'With GUILDHALL_SECRET_KEY, stage a key by adding "<new key> next" to it on every node (a new key from `openssl rand -base64 32`), then restart them.';
  }
  if (stage && keyring.next !== null) {
    return `Key ${keyId(keyring.next)} is staged already: restart every node with ${String(path)}, then run \`guildhall secrets rotate\`.`;
  }
  if (path === null && keyring.next === null) {
    return 'GUILDHALL_SECRET_KEY has no staged key. Add one on every node ("<current key>, <new key> next", the new key from `openssl rand -base64 32`), restart them, then run `guildhall secrets rotate` again.';
  }
  return null;
}

/**
 * Rotates the secret key, or with `stage` makes the next key only (written to the key file,
 * sealing nothing: every node learns it at its next start, before any seals with it).
 * `progress` hears a line per step.
 * @throws ConfigError when a stored value does not open (nothing is changed); UsageError
 *   when the keyring is in GUILDHALL_SECRET_KEY and has no staged key, or one is staged already.
 */
export async function rotateSecretKey(deps: {
  config: Pick<Config, 'secretKey' | 'dataDir' | 'secretKeyRetireHours'>;
  storage: Storage;
  clock: Clock;
  stage: boolean;
  progress: (line: string) => void;
}): Promise<RotationResult> {
  const { config, storage, clock, progress } = deps;
  const loaded = loadKeyring(config, { make: false });
  const { keyring, path } = loaded;
  const refused = refusal(keyring, path, deps.stage);
  if (refused !== null) throw new UsageError(refused);
  const staged = keyring.next === null ? '' : `, key ${keyId(keyring.next)} staged`;
  progress(`Keyring from ${loaded.source}: key ${keyId(keyring.current)} current${staged}.`);

  // Everything stored must open before anything changes.
  const check = (column: SealedColumn, counts: SealingCounts) => {
    progress(`Checked ${COLUMN_NAMES[column]}: ${String(counts.checked + counts.sealed)} open.`);
  };
  await sealStoredSecrets(storage, createSecretBox(keyring, clock), {
    keyring: loaded,
    onColumn: check,
  });

  if (deps.stage && path !== null) {
    const next = randomBytes(SECRET_KEY_BYTES);
    replaceKeyFile(path, keyring, { ...keyring, next });
    progress(`Key ${keyId(next)} staged in ${path}.`);
    return { outcome: 'staged', next: keyId(next), path };
  }

  const now = clock.now();
  const rotated = rotateKeyring(keyring, {
    fresh: randomBytes(SECRET_KEY_BYTES),
    nowMs: now,
    retireAfterMs: config.secretKeyRetireHours * HOUR_MS,
  });
  if (path !== null) {
    replaceKeyFile(path, keyring, rotated);
    progress(`Key ${keyId(rotated.current)} made current in ${path}.`);
  }
  const reseal = (column: SealedColumn, counts: SealingCounts) => {
    progress(`Sealed ${COLUMN_NAMES[column]} again: ${String(counts.resealed)}.`);
  };
  const counts = await sealStoredSecrets(storage, createSecretBox(rotated, clock), {
    keyring: { source: path ?? 'the new keyring', made: false },
    onColumn: reseal,
  });
  return {
    outcome: 'rotated',
    current: keyId(rotated.current),
    previous: {
      key: keyId(keyring.current),
      until: new Date(now + config.secretKeyRetireHours * HOUR_MS).toISOString(),
    },
    resealed: counts.resealed + counts.sealed,
    path,
    setting: redacted(rotated),
  };
}
