/**
 * @module secrets: the server's secret key and the stored keys sealed with it. The key comes from
 * GUILDHALL_SECRET_KEY, else from `<dataDir>/secret.key`, made at first start. At every start the
 * signing keys stored before sealing are sealed in place, and every sealed one must open: a wrong
 * key stops the start with one message saying what to do, rather than failing requests later.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { ConfigError, type Config } from './config.js';
import {
  SECRET_KEY_BYTES,
  SEALED_AS,
  SecretBoxError,
  createSecretBox,
  type SecretBox,
} from './domain/secretBox.js';
import type { Storage } from './storage/index.js';

export const SECRET_KEY_FILE = 'secret.key';

/** The secret key and where it came from (for messages; never the key itself). */
export interface SecretKey {
  key: Buffer;
  source: string;
  /** Whether this start made the key file. */
  made: boolean;
}

function isErrno(err: unknown, code: string): boolean {
  return err instanceof Error && (err as NodeJS.ErrnoException).code === code;
}

/**
 * Makes the key file unless it exists; returns whether this call made it. The key is written to a
 * file of its own (mode 0600, O_EXCL) and then linked into place, which fails if the name exists:
 * of two processes starting together one wins, and the other reads the winner's complete file.
 */
function makeKeyFile(path: string): boolean {
  const temp = `${path}.${String(process.pid)}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, `${randomBytes(SECRET_KEY_BYTES).toString('base64')}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
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

/** The configured key, else the data folder's key file (made now if absent). */
export function loadSecretKey(config: Pick<Config, 'secretKey' | 'dataDir'>): SecretKey {
  if (config.secretKey !== null) {
    return { key: config.secretKey, source: 'GUILDHALL_SECRET_KEY', made: false };
  }
  const path = join(config.dataDir, SECRET_KEY_FILE);
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  let made = false;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (!isErrno(err, 'ENOENT')) throw err;
    made = makeKeyFile(path);
    text = readFileSync(path, 'utf8');
  }
  const key = Buffer.from(text.trim(), 'base64');
  if (!/^[A-Za-z0-9+/]{43}=$/.test(text.trim()) || key.length !== SECRET_KEY_BYTES) {
    throw new ConfigError(
      `${path} does not hold a ${String(SECRET_KEY_BYTES)}-byte base64 key: restore it from a backup, or set GUILDHALL_SECRET_KEY to the key the stored signing keys were sealed with.`,
    );
  }
  return { key, source: path, made };
}

/**
 * Seals the signing keys stored in plaintext (rows from before sealing; one transaction, and a row
 * changed meanwhile by another node is left to it) and checks that every sealed one opens.
 * @throws ConfigError when a stored key does not open with this secret key.
 */
export async function sealStoredKeys(
  storage: Storage,
  box: SecretBox,
  secretKey: Pick<SecretKey, 'source' | 'made'>,
): Promise<number> {
  const check = (sealed: string, aad: string, what: string) => {
    try {
      box.open(sealed, aad);
    } catch (err) {
      if (!(err instanceof SecretBoxError)) throw err;
      const made = secretKey.made ? ` (it was made by this start: the key file was missing)` : '';
      throw new ConfigError(
        `The stored ${what} cannot be decrypted with the secret key from ${secretKey.source}${made}. ` +
          'Set GUILDHALL_SECRET_KEY to the key the data was sealed with, or restore the data ' +
          `folder's ${SECRET_KEY_FILE} from a backup, then start again.`,
      );
    }
  };
  return storage.transaction(async (tx) => {
    let sealed = 0;
    for (const app of await tx.applications.listSigningKeys()) {
      const aad = SEALED_AS.applicationSigningKey(app.id);
      if (box.isSealed(app.signingKey)) {
        check(app.signingKey, aad, `signing key of application ${app.id}`);
      } else if (
        await tx.applications.replaceSigningKey(
          app.id,
          app.signingKey,
          box.seal(app.signingKey, aad),
        )
      ) {
        sealed += 1;
      }
    }
    for (const key of await tx.oauth.listSigningKeys()) {
      const aad = SEALED_AS.idTokenSigningKey(key.kid);
      if (box.isSealed(key.privateJwk)) {
        check(key.privateJwk, aad, `ID token signing key ${key.kid}`);
      } else if (
        await tx.oauth.replaceSigningKeyPrivateJwk(
          key.kid,
          key.privateJwk,
          box.seal(key.privateJwk, aad),
        )
      ) {
        sealed += 1;
      }
    }
    return sealed;
  });
}

/** The secret box the services seal and open with, once the stored keys are sealed and open. */
export async function openSecrets(
  config: Pick<Config, 'secretKey' | 'dataDir'>,
  storage: Storage,
  logger: Logger,
): Promise<SecretBox> {
  const secretKey = loadSecretKey(config);
  if (secretKey.made) logger.info({ path: secretKey.source }, 'secret key file made');
  const box = createSecretBox(secretKey.key);
  const sealed = await sealStoredKeys(storage, box, secretKey);
  if (sealed > 0) logger.info({ sealed }, 'stored signing keys sealed with the secret key');
  return box;
}
