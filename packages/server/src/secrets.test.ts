import { createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyKey } from 'discord-interactions';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeDrivers } from '../test/support/drivers.js';
import { uniqueName } from '../test/support/fileServer.js';
import { acquireSchema, releaseSchema } from '../test/support/postgres.js';
import { seedDeveloper, startTestServer } from '../test/support/testServer.js';
import { startWebhookReceiver } from '../test/support/webhookReceiver.js';
import type { App } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { manualClock } from './domain/clock.js';
import { SEALED_AS, SecretBoxError, createSecretBox } from './domain/secretBox.js';
import { keyringOf } from './domain/keyring.js';
import { SECRET_KEY_FILE, loadKeyring, sealStoredSecrets } from './secrets.js';
import type { Storage } from './storage/index.js';
import { backupSqlite, createSqliteStorage } from './storage/sqlite/index.js';

describe('the secret box', () => {
  const box = createSecretBox(randomBytes(32));
  const aad = SEALED_AS.applicationSigningKey('1');

  it('seals with a fresh IV each time and opens only for the same key and row', () => {
    const sealed = box.seal('private key', aad);
    expect(sealed).toMatch(/^v1:[\w+/]{16}:[\w+/]{22}==:[\w+/=]+$/);
    expect(sealed).not.toContain('private key');
    expect(box.seal('private key', aad)).not.toBe(sealed);
    expect(box.isSealed(sealed)).toBe(true);
    expect(box.isSealed('MC4CAQAwBQYDK2VwBCIEI')).toBe(false);
    expect(box.open(sealed, aad)).toBe('private key');
    // Another row, another key, an altered byte or a plaintext value: none opens.
    expect(() => box.open(sealed, SEALED_AS.applicationSigningKey('2'))).toThrow(SecretBoxError);
    expect(() => createSecretBox(randomBytes(32)).open(sealed, aad)).toThrow(SecretBoxError);
    const altered = `${sealed.slice(0, -3)}${sealed.at(-3) === 'A' ? 'B' : 'A'}${sealed.slice(-2)}`;
    expect(() => box.open(altered, aad)).toThrow(SecretBoxError);
    expect(() => box.open('private key', aad)).toThrow(SecretBoxError);
  });
});

describe('the secret key', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'guildhall-secret-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('comes from GUILDHALL_SECRET_KEY when set (32 bytes of base64, never echoed)', () => {
    const key = randomBytes(32);
    const config = loadConfig({
      GUILDHALL_SECRET_KEY: key.toString('base64'),
      GUILDHALL_DATA_DIR: dataDir,
    });
    expect(config.secretKey).toEqual(keyringOf(key));
    expect(loadKeyring(config)).toEqual({
      keyring: keyringOf(key),
      source: 'GUILDHALL_SECRET_KEY',
      path: null,
      made: false,
    });
    for (const bad of [randomBytes(16).toString('base64'), 'not a key at all']) {
      expect(() => loadConfig({ GUILDHALL_SECRET_KEY: bad })).toThrow(
        /^GUILDHALL_SECRET_KEY must be 32 random bytes in base64.*got "\[hidden\]"\.$/,
      );
    }
  });

  it('is otherwise a key file made at first start, mode 0600, and reused', async () => {
    const path = join(dataDir, 'nested', SECRET_KEY_FILE);
    const first = loadKeyring({ secretKey: null, dataDir: join(dataDir, 'nested') });
    expect(first).toMatchObject({ source: path, path, made: true });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const written = Buffer.from((await readFile(path, 'utf8')).trim(), 'base64');
    expect(first.keyring).toEqual(keyringOf(written));
    const again = loadKeyring({ secretKey: null, dataDir: join(dataDir, 'nested') });
    expect(again.made).toBe(false);
    expect(again.keyring).toEqual(first.keyring);
  });

  it('a key file another process made first is used as it is', async () => {
    const theirs = randomBytes(32);
    await writeFile(join(dataDir, SECRET_KEY_FILE), `${theirs.toString('base64')}\n`, {
      mode: 0o600,
    });
    const loaded = loadKeyring({ secretKey: null, dataDir });
    expect(loaded.made).toBe(false);
    expect(loaded.keyring).toEqual(keyringOf(theirs));
  });

  it('a damaged key file stops the start with what to do', async () => {
    await writeFile(join(dataDir, SECRET_KEY_FILE), 'half a key\n', { mode: 0o600 });
    expect(() => loadKeyring({ secretKey: null, dataDir })).toThrow(ConfigError);
    expect(() => loadKeyring({ secretKey: null, dataDir })).toThrow(
      /secret\.key does not hold a 32-byte base64 key or a keyring \(entry 1 is not a 32-byte base64 key\): restore it from a backup, or set GUILDHALL_SECRET_KEY/,
    );
  });
});

describeDrivers('signing keys at rest on $driver', (driver) => {
  // The block's server: the first start on the block's database and data folder, without
  // GUILDHALL_SECRET_KEY, so it made the folder's key file. Each test seeds its own developer on
  // it; the starts a test needs after it are made on the block's database (nextDatabase).
  let dataDir: string;
  let schema: string;
  let server: App | undefined;
  const running: App[] = [];

  /**
   * A server on `database` with `secretKey` (null: the data folder's key file), in the block's
   * data folder, as a restarted server (or another node) finds it, or in one of its own.
   */
  const open = async (
    secretKey: Buffer | null,
    database: string,
    { ownFolder = false }: { ownFolder?: boolean } = {},
  ) => {
    const { app } = await startTestServer({
      storage: driver,
      database,
      ...(ownFolder ? {} : { dataDir }),
      config: { allowLocalWebhooks: true, secretKey: secretKey && keyringOf(secretKey) },
      clock: manualClock(Date.UTC(2026, 10, 24)),
    });
    return app;
  };
  /** A start of this test's, closed after it. */
  const start = async (...args: Parameters<typeof open>) => {
    const app = await open(...args);
    running.push(app);
    return app;
  };
  const stop = async (app: App) => {
    running.splice(running.indexOf(app), 1);
    await app.close();
  };
  const blockServer = () => server ?? expect.fail('the block has no server');

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'guildhall-sealed-'));
    // On PostgreSQL a migrated schema of the worker's pool, emptied again after the block.
    schema = driver === 'postgres' ? acquireSchema() : '';
    server = await open(null, driver === 'postgres' ? schema : join(dataDir, 'guildhall.db'));
  });
  afterEach(async () => {
    for (const app of running.splice(0)) await app.close();
  });
  afterAll(async () => {
    await server?.close();
    server = undefined;
    await rm(dataDir, { recursive: true, force: true });
    if (driver === 'postgres') await releaseSchema(schema);
  });

  /**
   * The block's database for another start, once `change` (given a storage on it) has changed it:
   * on PostgreSQL the database itself, which nodes share; on SQLite, whose file one process
   * serves, a copy of it made now, the block's server going on with the original.
   */
  const nextDatabase = async (change?: (storage: Storage) => Promise<void>) => {
    if (driver === 'postgres') {
      await change?.(blockServer().storage);
      return schema;
    }
    const copy = join(dataDir, `${uniqueName('copy')}.db`);
    await backupSqlite(join(dataDir, 'guildhall.db'), copy);
    if (change !== undefined) {
      const storage = createSqliteStorage({ filename: copy });
      try {
        await change(storage);
      } finally {
        await storage.close();
      }
    }
    return copy;
  };
  /** The key of the data folder's key file, which the block's server made. */
  const fileKey = async () =>
    Buffer.from((await readFile(join(dataDir, SECRET_KEY_FILE), 'utf8')).trim(), 'base64');
  /** A developer of this test's on the block's server, and the ID token key made. */
  const seeded = async (name: string) => {
    const seed = await seedDeveloper(blockServer(), uniqueName(name));
    await blockServer().services.oauth.keys.jwks();
    return seed;
  };

  /** The stored rows: an app's signing key and the ID token key's private JWK. */
  const storedKeys = async (storage: Storage, applicationId: string) => {
    const stored = await storage.applications.findById(applicationId);
    const [oidc] = await storage.oauth.listSigningKeys();
    if (stored === null || oidc === undefined) throw new Error('keys missing');
    return { signingKey: stored.signingKey, verifyKey: stored.verifyKey, oidc };
  };
  const opened = (key: Buffer, stored: Awaited<ReturnType<typeof storedKeys>>, appId: string) => {
    const box = createSecretBox(key);
    return {
      signingKey: box.open(stored.signingKey, SEALED_AS.applicationSigningKey(appId)),
      privateJwk: box.open(stored.oidc.privateJwk, SEALED_AS.idTokenSigningKey(stored.oidc.kid)),
    };
  };

  /** Writes the keys back in plaintext, as a database from before sealing holds them. */
  const unseal = async (
    storage: Storage,
    keys: {
      seed: { applicationId: string };
      sealed: Awaited<ReturnType<typeof storedKeys>>;
      plain: ReturnType<typeof opened>;
    },
  ) => {
    const { seed, sealed, plain } = keys;
    await storage.sealedValues.replace('applications.signing_key', seed.applicationId, {
      from: sealed.signingKey,
      to: plain.signingKey,
    });
    await storage.sealedValues.replace('oauth_signing_keys.private_jwk', sealed.oidc.kid, {
      from: sealed.oidc.privateJwk,
      to: plain.privateJwk,
    });
  };

  /** The app's signed PING verifies with its public key, and an ID token with the JWKS. */
  const expectSigning = async (app: App, applicationId: string) => {
    const receiver = await startWebhookReceiver();
    try {
      const application = await app.storage.applications.findById(applicationId);
      if (application === null) throw new Error('app missing');
      await app.services.webhookEvents.verifyUrl(application, receiver.url);
      const [ping] = receiver.received;
      const signature = String(ping?.headers['x-signature-ed25519']);
      const timestamp = String(ping?.headers['x-signature-timestamp']);
      expect(await verifyKey(ping?.body ?? '', signature, timestamp, application.verifyKey)).toBe(
        true,
      );
    } finally {
      await receiver.close();
    }
    const res = await app.http.inject({ method: 'GET', url: '/api/v10/oauth2/keys' });
    const jwks = createLocalJWKSet(res.json());
    const token = await app.services.oauth.keys.sign({ sub: '42', aud: 'client', iss: 'test' });
    const { payload } = await jwtVerify(token, jwks, { audience: 'client', issuer: 'test' });
    expect(payload.sub).toBe('42');
  };

  it('stores both kinds sealed, never the plaintext, and signs with them', async () => {
    const key = await fileKey();
    const seed = await seeded('sealed');
    const stored = await storedKeys(blockServer().storage, seed.applicationId);
    const plain = opened(key, stored, seed.applicationId);
    // What was sealed is the app's real key pair and an RSA private JWK.
    const publicDer = createPublicKey(
      createPrivateKey({
        key: Buffer.from(plain.signingKey, 'base64'),
        format: 'der',
        type: 'pkcs8',
      }),
    ).export({ format: 'der', type: 'spki' });
    expect(publicDer.subarray(-32).toString('hex')).toBe(stored.verifyKey);
    const { d } = JSON.parse(plain.privateJwk) as { d: string };
    expect(d.length).toBeGreaterThan(300);
    for (const [sealed, secret] of [
      [stored.signingKey, plain.signingKey],
      [stored.oidc.privateJwk, plain.privateJwk],
      [stored.oidc.privateJwk, d],
    ] as const) {
      expect(sealed).toMatch(/^v1:/);
      expect(sealed).not.toContain(secret);
      expect(sealed).not.toContain(secret.slice(8, 40));
    }
    await expectSigning(blockServer(), seed.applicationId);
  });

  it('seals plaintext rows from before at the next start, once', async () => {
    const key = await fileKey();
    const seed = await seeded('legacy');
    const sealed = await storedKeys(blockServer().storage, seed.applicationId);
    const plain = opened(key, sealed, seed.applicationId);
    // As a database written before sealing holds them.
    const database = await nextDatabase(async (storage) => {
      await unseal(storage, { seed, sealed, plain });
      expect((await storedKeys(storage, seed.applicationId)).signingKey).toBe(plain.signingKey);
    });

    const after = await start(key, database);
    const migrated = await storedKeys(after.storage, seed.applicationId);
    expect(migrated.signingKey).toMatch(/^v1:/);
    expect(migrated.oidc.privateJwk).toMatch(/^v1:/);
    expect(opened(key, migrated, seed.applicationId)).toEqual(plain);
    await expectSigning(after, seed.applicationId);
    // Already sealed: another pass changes nothing.
    const pass = { keyring: { source: 'test', made: false } };
    expect(await sealStoredSecrets(after.storage, createSecretBox(key), pass)).toMatchObject({
      sealed: 0,
      resealed: 0,
    });
    expect(await storedKeys(after.storage, seed.applicationId)).toEqual(migrated);
  });

  it('a wrong key stops the start with one message saying what to do', async () => {
    await seeded('wrong');
    const failure = start(randomBytes(32), await nextDatabase());
    await expect(failure).rejects.toBeInstanceOf(ConfigError);
    await expect(failure).rejects.toThrow(
      /^The stored signing key of application \d+ cannot be decrypted with the secret key from GUILDHALL_SECRET_KEY\. Set GUILDHALL_SECRET_KEY to the key the data was sealed with, or restore the data folder's secret\.key from a backup, then start again\.$/,
    );
  });

  it('without GUILDHALL_SECRET_KEY the key file is made, kept 0600 and reused', async () => {
    // The block's server was the first start, without it, in a data folder with no key file.
    const seed = await seeded('file');
    const path = join(dataDir, SECRET_KEY_FILE);
    const text = await readFile(path, 'utf8');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    opened(
      Buffer.from(text.trim(), 'base64'),
      await storedKeys(blockServer().storage, seed.applicationId),
      seed.applicationId,
    );

    const again = await start(null, await nextDatabase());
    expect(await readFile(path, 'utf8')).toBe(text);
    await expectSigning(again, seed.applicationId);
    await stop(again);

    // A lost key file (a data folder without one) is not silently replaced by a new key that
    // opens nothing.
    await expect(start(null, await nextDatabase(), { ownFolder: true })).rejects.toThrow(
      /cannot be decrypted with the secret key from .*secret\.key \(it was made by this start: the key file was missing\)\. Set GUILDHALL_SECRET_KEY/,
    );
  });

  it.skipIf(driver !== 'postgres')(
    'nodes starting together seal the same rows once and agree',
    async () => {
      const key = await fileKey();
      const seed = await seeded('nodes');
      const plain = opened(
        key,
        await storedKeys(blockServer().storage, seed.applicationId),
        seed.applicationId,
      );
      const sealed = await storedKeys(blockServer().storage, seed.applicationId);
      const database = await nextDatabase((storage) => unseal(storage, { seed, sealed, plain }));
      const nodes = await Promise.all([
        start(key, database),
        start(key, database),
        start(key, database),
      ]);
      const rows = await Promise.all(
        nodes.map((node) => storedKeys(node.storage, seed.applicationId)),
      );
      for (const row of rows) {
        expect(row).toEqual(rows[0]);
        expect(opened(key, row, seed.applicationId)).toEqual(plain);
      }
    },
  );
});
