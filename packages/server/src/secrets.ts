/**
 * @module secrets: the server's secret keyring and the stored values sealed with it. The keyring
 * comes from GUILDHALL_SECRET_KEY, else from `<dataDir>/secret.key`, made at first start. At every
 * start the values stored before sealing are sealed in place, those a previous key sealed are
 * sealed again with the current one, and every sealed one must open: a wrong key stops the start
 * with one message saying what to do, rather than failing requests later.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { ConfigError, type Config } from './config.js';
import type { Clock, Timers } from './domain/clock.js';
import { startRepeatingPass, type RepeatingPass } from './domain/repeat.js';
import { MINUTE_MS } from './domain/time.js';
import {
  SECRET_KEY_BYTES,
  formatKeyring,
  keyId,
  parseKeyring,
  type SecretKeyring,
} from './domain/keyring.js';
import { SEALED_AS, SecretBoxError, createSecretBox, type SecretBox } from './domain/secretBox.js';
import { SEALED_COLUMNS, type SealedColumn, type Storage } from './storage/index.js';

export const SECRET_KEY_FILE = 'secret.key';

/** The keyring and where it came from (for messages; never the keys themselves). */
export interface LoadedKeyring {
  keyring: SecretKeyring;
  /** `GUILDHALL_SECRET_KEY` or the key file's path. */
  source: string;
  /** The key file when the keyring is in one; null when it is GUILDHALL_SECRET_KEY. */
  path: string | null;
  /** Whether this start made the key file. */
  made: boolean;
}

function isErrno(err: unknown, code: string): boolean {
  // Not `instanceof Error`: Node's own errors come from another realm when the server runs in a
  // VM context (Jest's ES modules), and would never match.
  return typeof err === 'object' && err !== null && (err as NodeJS.ErrnoException).code === code;
}

/** Writes `text` to a file of its own beside `path` (mode 0600, O_EXCL, synced); its name. */
function writeTemp(path: string, text: string): string {
  const temp = `${path}.${String(process.pid)}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return temp;
}

/**
 * Makes the key file unless it exists; returns whether this call made it. The key is written to a
 * file of its own and then linked into place, which fails if the name exists: of two processes
 * starting together one wins, and the other reads the winner's complete file.
 */
function makeKeyFile(path: string): boolean {
  const temp = writeTemp(path, `${randomBytes(SECRET_KEY_BYTES).toString('base64')}\n`);
  try {
    linkSync(temp, path);
    return true;
  } catch (err) {
    if (isErrno(err, 'EEXIST')) return false;
    throw err;
  } finally {
    unlinkSync(temp);
  }
}

/** Replaces the key file with `keyring` in one step (a reader sees the old file or the new). */
export function writeKeyringFile(path: string, keyring: SecretKeyring): void {
  const temp = writeTemp(path, `${formatKeyring(keyring)}\n`);
  try {
    renameSync(temp, path);
  } catch (err) {
    unlinkSync(temp);
    throw err;
  }
}

/**
 * The configured keyring, else the data folder's key file (made now if absent, unless `make` is
 * false: then a missing file is a ConfigError).
 */
export function loadKeyring(
  config: Pick<Config, 'secretKey' | 'dataDir'>,
  options: { make?: boolean } = {},
): LoadedKeyring {
  if (config.secretKey !== null) {
    return { keyring: config.secretKey, source: 'GUILDHALL_SECRET_KEY', path: null, made: false };
  }
  const path = join(config.dataDir, SECRET_KEY_FILE);
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  let made = false;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (!isErrno(err, 'ENOENT')) throw err;
    if (options.make === false) {
      throw new ConfigError(
        `There is no secret key: GUILDHALL_SECRET_KEY is unset and ${path} does not exist. Start the server once to make one.`,
      );
    }
    made = makeKeyFile(path);
    text = readFileSync(path, 'utf8');
  }
  const parsed = parseKeyring(text);
  if ('error' in parsed) {
    throw new ConfigError(
      `${path} does not hold a ${String(SECRET_KEY_BYTES)}-byte base64 key or a keyring (${parsed.error}): restore it from a backup, or set GUILDHALL_SECRET_KEY to the key the stored signing keys were sealed with.`,
    );
  }
  return { keyring: parsed.keyring, source: path, path, made };
}

/** The stored value a sealed column's row holds, as messages name it. */
const DESCRIBED: Record<SealedColumn, (rowKey: string) => string> = {
  'applications.signing_key': (id) => `signing key of application ${id}`,
  'oauth_signing_keys.private_jwk': (kid) => `ID token signing key ${kid}`,
  'webhooks.token_sealed': (id) => `token of webhook ${id}`,
  'server_secrets.value': (name) => `server secret ${name}`,
};

/** Each sealed column's authenticated data (domain/secretBox.ts SEALED_AS). */
const SEALED_FOR: Record<SealedColumn, (rowKey: string) => string> = {
  'applications.signing_key': SEALED_AS.applicationSigningKey,
  'oauth_signing_keys.private_jwk': SEALED_AS.idTokenSigningKey,
  'webhooks.token_sealed': SEALED_AS.webhookToken,
  'server_secrets.value': SEALED_AS.serverSecret,
};

/** Rows read per query by the sealing pass. */
const PASS_BATCH = 200;

/** What one sealing pass did in a column. */
export interface SealingCounts {
  /** Sealed values that open. */
  checked: number;
  /** Plaintext values sealed now. */
  sealed: number;
  /** Values a previous key sealed, sealed again with the current one. */
  resealed: number;
}

/**
 * Seals the values stored in plaintext (rows from before sealing), seals again those a previous
 * key sealed, and checks that every sealed one opens. Each change replaces the value only if it
 * is unchanged, so a row another node changed meanwhile is left to it, and passes on several
 * nodes at once agree. `onColumn` hears each column's counts as it is done.
 * @throws ConfigError when a stored value does not open with a live key.
 */
export async function sealStoredSecrets(
  storage: Storage,
  box: SecretBox,
  options: {
    keyring: Pick<LoadedKeyring, 'source' | 'made'>;
    onColumn?: (column: SealedColumn, counts: SealingCounts) => void;
  },
): Promise<SealingCounts> {
  const total: SealingCounts = { checked: 0, sealed: 0, resealed: 0 };
  for (const column of SEALED_COLUMNS) {
    const counts: SealingCounts = { checked: 0, sealed: 0, resealed: 0 };
    let after: string | null = null;
    for (;;) {
      const rows = await storage.sealedValues.list(column, after, PASS_BATCH);
      for (const { rowKey, value } of rows) {
        const aad = SEALED_FOR[column](rowKey);
        if (!box.isSealed(value)) {
          const to = box.seal(value, aad);
          if (await storage.sealedValues.replace(column, rowKey, { from: value, to })) {
            counts.sealed += 1;
          }
          continue;
        }
        const row = { sealed: value, aad, what: DESCRIBED[column](rowKey) };
        const to = resealed(box, row, options.keyring);
        counts.checked += 1;
        if (
          to !== null &&
          (await storage.sealedValues.replace(column, rowKey, { from: value, to }))
        ) {
          counts.resealed += 1;
        }
      }
      if (rows.length < PASS_BATCH) break;
      after = rows.at(-1)?.rowKey ?? null;
    }
    options.onColumn?.(column, counts);
    for (const key of ['checked', 'sealed', 'resealed'] as const) total[key] += counts[key];
  }
  return total;
}

/** The value sealed again with the current key, or null when it needs nothing. */
function resealed(
  box: SecretBox,
  row: { sealed: string; aad: string; what: string },
  keyring: Pick<LoadedKeyring, 'source' | 'made'>,
): string | null {
  try {
    return box.reseal(row.sealed, row.aad);
  } catch (err) {
    if (!(err instanceof SecretBoxError)) throw err;
    const made = keyring.made ? ` (it was made by this start: the key file was missing)` : '';
    throw new ConfigError(
      `The stored ${row.what} cannot be decrypted with the secret key from ${keyring.source}${made}. ` +
        'Set GUILDHALL_SECRET_KEY to the key the data was sealed with, or restore the data ' +
        `folder's ${SECRET_KEY_FILE} from a backup, then start again.`,
    );
  }
}

/** Between the passes that seal again what was sealed with a previous key (docs/operations.md). */
export const RESEAL_EVERY_MS = 10 * MINUTE_MS;

/**
 * While the keyring holds a previous key not yet retired, seals again every RESEAL_EVERY_MS what
 * was sealed with it since the start (by a node not yet restarted with the new keyring during a
 * rotation), so nothing is left that only a retiring key opens. Null when there is no such key.
 */
export function startResealing(deps: {
  storage: Storage;
  box: SecretBox;
  keyring: SecretKeyring;
  source: string;
  clock: Clock;
  timers: Timers;
  logger: Logger;
}): RepeatingPass | null {
  const { keyring, clock, logger } = deps;
  const retiring = () => keyring.previous.some((p) => clock.now() < p.retiresAtMs);
  if (!retiring()) return null;
  return startRepeatingPass({
    async pass() {
      if (!retiring()) return 0;
      const options = { keyring: { source: deps.source, made: false } };
      const { resealed } = await sealStoredSecrets(deps.storage, deps.box, options);
      if (resealed > 0)
        logger.info({ resealed }, 'stored secrets sealed again with the current key');
      return resealed;
    },
    timers: deps.timers,
    intervalMs: RESEAL_EVERY_MS,
    onError: (err) => {
      logger.error({ err }, 'stored secrets not sealed again with the current key');
    },
  });
}

/** What the log says of a keyring: key ids, never keys. */
export function describeKeyring(keyring: SecretKeyring) {
  return {
    current: keyId(keyring.current),
    ...(keyring.next === null ? {} : { next: keyId(keyring.next) }),
    previous: keyring.previous.map((p) => ({
      key: keyId(p.key),
      until: new Date(p.retiresAtMs).toISOString(),
    })),
  };
}

/** The keyring and its secret box, once the stored values are sealed with it and open. */
export async function openSecrets(
  deps: { config: Pick<Config, 'secretKey' | 'dataDir'>; storage: Storage; logger: Logger },
  clock: Clock,
): Promise<{ box: SecretBox; keyring: SecretKeyring; source: string }> {
  const { config, storage, logger } = deps;
  const loaded = loadKeyring(config);
  if (loaded.made) logger.info({ path: loaded.source }, 'secret key file made');
  const { keyring } = loaded;
  if (keyring.next !== null || keyring.previous.length > 0) {
    logger.info({ keyring: describeKeyring(keyring) }, 'secret keyring in rotation');
  }
  for (const retired of keyring.previous.filter((p) => p.retiresAtMs <= clock.now())) {
    logger.warn(
      { key: keyId(retired.key), source: loaded.source },
      'a previous secret key has retired: remove it from the keyring',
    );
  }
  const box = createSecretBox(keyring, clock);
  const counts = await sealStoredSecrets(storage, box, { keyring: loaded });
  if (counts.sealed > 0) logger.info({ sealed: counts.sealed }, 'stored secrets sealed');
  if (counts.resealed > 0) {
    logger.info({ resealed: counts.resealed }, 'stored secrets sealed again with the current key');
  }
  return { box, keyring, source: loaded.source };
}
