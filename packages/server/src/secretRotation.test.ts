import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyKey } from 'discord-interactions';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeDrivers } from '../test/support/drivers.js';
import { guildFixture, type GuildFixture } from '../test/support/guildMembers.js';
import { firstChannelId } from '../test/support/messageFixtures.js';
import {
  TEST_DATABASE_URL,
  acquireSchema,
  copySchemaRows,
  releaseSchema,
} from '../test/support/postgres.js';
import { startTestServer, type TestServer } from '../test/support/testServer.js';
import { startWebhookReceiver } from '../test/support/webhookReceiver.js';
import { UsageError } from './cliFlags.js';
import { ConfigError } from './config.js';
import { manualClock, type Timers } from './domain/clock.js';
import { keyId, keyringOf, parseKeyring, type SecretKeyring } from './domain/keyring.js';
import { SEALED_AS, SecretBoxError, createSecretBox } from './domain/secretBox.js';
import { HOUR_MS } from './domain/time.js';
import { rotateSecretKey } from './secretRotation.js';
import { SECRET_KEY_FILE, sealStoredSecrets, startResealing } from './secrets.js';
import { createPostgresStorage } from './storage/postgres/index.js';
import { backupSqlite, createSqliteStorage } from './storage/sqlite/index.js';
import { SEALED_COLUMNS, type SealedColumn, type Storage } from './storage/index.js';
import { createLogger } from './logger.js';

const NOW = Date.UTC(2026, 11, 5, 10);
/** Tests that start a server on a copied database (PostgreSQL on a busy machine). */
const TWO_STARTS_MS = 60_000;
/** What the seeding server made: a guild with its owner and bot, and a webhook of the guild. */
interface Seeded {
  g: GuildFixture;
  webhook: { id: string; token: string };
}
const SEALED_FOR: Record<SealedColumn, (rowKey: string) => string> = {
  'applications.signing_key': SEALED_AS.applicationSigningKey,
  'oauth_signing_keys.private_jwk': SEALED_AS.idTokenSigningKey,
  'webhooks.token_sealed': SEALED_AS.webhookToken,
  'server_secrets.value': SEALED_AS.serverSecret,
};

/** `guildhall secrets rotate` (secretRotation.ts) on every driver. */
describeDrivers('secret key rotation on $driver', (driver) => {
  let dataDir: string;
  let database: string;
  const clock = manualClock(NOW);
  const servers: TestServer[] = [];
  const storages: Storage[] = [];
  // What every test rotates: a database a server seeded and left, in a data folder whose key file
  // it made, made once for the block. A rotation changes it: each test rotates a copy of its own.
  let seededFolder: string;
  let seededDatabase: string;
  let seeded: Seeded;
  beforeAll(async () => {
    clock.set(NOW);
    seededFolder = await mkdtemp(join(tmpdir(), 'guildhall-rotate-seeded-'));
    seededDatabase = driver === 'postgres' ? acquireSchema() : join(seededFolder, 'guildhall.db');
    const first = await serverOn({ database: seededDatabase, dataDir: seededFolder }, null);
    try {
      seeded = await seed(first);
    } finally {
      await first.close();
    }
  });
  afterAll(async () => {
    if (driver === 'postgres') await releaseSchema(seededDatabase);
    await rm(seededFolder, { recursive: true, force: true });
  });
  beforeEach(async () => {
    clock.set(NOW);
    dataDir = await mkdtemp(join(tmpdir(), 'guildhall-rotate-'));
    // On PostgreSQL a migrated schema of the worker's pool, emptied again after the test.
    database = driver === 'postgres' ? acquireSchema() : join(dataDir, 'guildhall.db');
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
    for (const storage of storages.splice(0)) await storage.close();
    if (driver === 'postgres') await releaseSchema(database);
    await rm(dataDir, { recursive: true, force: true });
  });

  const keyFile = () => join(dataDir, SECRET_KEY_FILE);
  const fileKeyring = async (path = keyFile()) => {
    const parsed = parseKeyring(await readFile(path, 'utf8'));
    if (!('keyring' in parsed)) throw new Error(parsed.error);
    return parsed.keyring;
  };
  /** A server on this database and data folder; `secretKey` null: the folder's key file. */
  const serverOn = (
    where: { database: string; dataDir: string },
    secretKey: SecretKeyring | null,
  ) =>
    startTestServer({
      storage: driver,
      ...where,
      clock,
      config: { secretKey, allowLocalWebhooks: true },
    });
  /** A server on the test's database and data folder, closed after the test. */
  const start = async (secretKey: SecretKeyring | null = null) => {
    const server = await serverOn({ database, dataDir }, secretKey);
    servers.push(server);
    return server;
  };
  const stop = async (server: TestServer) => {
    servers.splice(servers.indexOf(server), 1);
    await server.close();
  };
  const openStorage = async () => {
    const storage =
      driver === 'postgres'
        ? await createPostgresStorage({ connectionString: TEST_DATABASE_URL, schema: database })
        : createSqliteStorage({ filename: database });
    storages.push(storage);
    return storage;
  };
  /** An app (its signing key), the ID token key, a webhook (its token), the attachment secret. */
  const seed = async (server: TestServer): Promise<Seeded> => {
    const g = await guildFixture(server, { botPermissions: 0n });
    const channelId = await firstChannelId(server.app, g.guildId);
    const hook = await g.call('POST', `/channels/${channelId}/webhooks`, {
      auth: g.owner.token,
      payload: { name: 'hook' },
    });
    expect(hook.statusCode, hook.body).toBe(200);
    await server.app.services.oauth.keys.jwks();
    const webhook = hook.json<{ id: string; token: string }>();
    return { g, webhook };
  };
  /**
   * The seeded database, copied as the test's own and opened for the rotation, with the key it is
   * sealed with: in the test's data folder as the key file the seeding server made (`keyFile`), or
   * for the test to set as GUILDHALL_SECRET_KEY.
   */
  const seededCopy = async (options: { keyFile: boolean }) => {
    const made = join(seededFolder, SECRET_KEY_FILE);
    if (options.keyFile) await copyFile(made, keyFile());
    if (driver === 'sqlite') await backupSqlite(seededDatabase, database);
    // A new schema of the pool is migrated as it opens, before the rows come.
    const storage = await openStorage();
    if (driver === 'postgres') await copySchemaRows(seededDatabase, database);
    return { storage, key: (await fileKeyring(made)).current };
  };
  /** Every sealed value, opened with `keys` (it throws when one does not open). */
  const openedWith = async (storage: Storage, keys: SecretKeyring | Buffer) => {
    const box = createSecretBox(keys, clock);
    const values: Record<string, string> = {};
    for (const column of SEALED_COLUMNS) {
      for (const { rowKey, value } of await storage.sealedValues.list(column, null, 100)) {
        values[`${column}:${rowKey}`] = box.open(value, SEALED_FOR[column](rowKey));
      }
    }
    return values;
  };
  const rotate = (
    storage: Storage,
    options: { stage?: boolean; secretKey?: SecretKeyring } = {},
  ) => {
    const lines: string[] = [];
    const result = rotateSecretKey({
      config: { secretKey: options.secretKey ?? null, dataDir, secretKeyRetireHours: 24 },
      storage,
      clock,
      stage: options.stage ?? false,
      progress: (line) => lines.push(line),
    });
    return { result, lines };
  };
  /** The server still signs webhook events with the app's key, and opens the webhook's token. */
  const expectServes = async (server: TestServer, seeded: Seeded) => {
    const application = await server.app.storage.applications.findById(seeded.g.bot.applicationId);
    if (application === null) throw new Error('app missing');
    const receiver = await startWebhookReceiver();
    try {
      await server.app.services.webhookEvents.verifyUrl(application, receiver.url);
      const [ping] = receiver.received;
      const signature = String(ping?.headers['x-signature-ed25519']);
      const timestamp = String(ping?.headers['x-signature-timestamp']);
      const body = ping?.body ?? '';
      expect(await verifyKey(body, signature, timestamp, application.verifyKey)).toBe(true);
    } finally {
      await receiver.close();
    }
    const got = await server.app.http.inject({
      method: 'GET',
      url: `/api/v10/webhooks/${seeded.webhook.id}`,
      headers: { authorization: seeded.g.owner.token },
    });
    expect(got.json()).toMatchObject({ token: seeded.webhook.token });
  };

  it(
    'makes a new key current, seals everything with it, and the old one opens until it retires',
    async () => {
      const { storage } = await seededCopy({ keyFile: true });
      const old = await fileKeyring();
      const plain = await openedWith(storage, old.current);
      expect(Object.keys(plain)).toHaveLength(4);

      const { result, lines } = rotate(storage);
      const done = await result;
      const rotated = await fileKeyring();
      expect(rotated).toEqual({
        current: expect.any(Buffer) as Buffer,
        next: null,
        previous: [{ key: old.current, retiresAtMs: NOW + 24 * HOUR_MS }],
      });
      expect(done).toEqual({
        outcome: 'rotated',
        current: keyId(rotated.current),
        previous: { key: keyId(old.current), until: '2026-12-06T10:00:00.000Z' },
        resealed: 4,
        path: keyFile(),
        setting: `<key ${keyId(rotated.current)}>, <key ${keyId(old.current)}> until 2026-12-06T10:00:00.000Z`,
      });
      expect(lines).toEqual([
        `Keyring from ${keyFile()}: key ${keyId(old.current)} current.`,
        "Checked applications' signing keys: 1 open.",
        'Checked ID token signing keys: 1 open.',
        'Checked webhook tokens: 1 open.',
        'Checked server secrets: 1 open.',
        `Key ${keyId(rotated.current)} made current in ${keyFile()}.`,
        "Sealed applications' signing keys again: 1.",
        'Sealed ID token signing keys again: 1.',
        'Sealed webhook tokens again: 1.',
        'Sealed server secrets again: 1.',
      ]);
      // Everything is sealed with the new key alone, and holds what it held.
      expect(await openedWith(storage, rotated.current)).toEqual(plain);
      await expect(openedWith(storage, old.current)).rejects.toBeInstanceOf(SecretBoxError);
      // A second rotation's check is a start's pass: nothing left to seal again.
      const pass = { keyring: { source: 'test', made: false } };
      expect(await sealStoredSecrets(storage, createSecretBox(rotated, clock), pass)).toEqual({
        checked: 4,
        sealed: 0,
        resealed: 0,
      });

      const again = await start();
      await expectServes(again, seeded);
    },
    TWO_STARTS_MS,
  );

  it(
    'stages a key every node learns first, then makes that key current',
    async () => {
      const { storage } = await seededCopy({ keyFile: true });
      const old = await fileKeyring();
      const before = await storage.sealedValues.list('applications.signing_key', null, 10);

      const staged = await rotate(storage, { stage: true }).result;
      const withNext = await fileKeyring();
      expect(withNext).toEqual({
        current: old.current,
        next: expect.any(Buffer) as Buffer,
        previous: [],
      });
      expect(staged).toEqual({
        outcome: 'staged',
        next: keyId(withNext.next ?? old.current),
        path: keyFile(),
      });
      // Nothing was sealed with it yet.
      expect(await storage.sealedValues.list('applications.signing_key', null, 10)).toEqual(before);
      await expect(rotate(storage, { stage: true }).result).rejects.toThrow(
        new UsageError(
          `Key ${staged.outcome === 'staged' ? staged.next : ''} is staged already: restart every node with ${keyFile()}, then run \`guildhall secrets rotate\`.`,
        ),
      );

      // A node with the staged keyring opens what a rotated node sealed with the next key...
      const node = await start();
      const [row] = before;
      if (row === undefined || withNext.next === null) throw new Error('no app');
      const aad = SEALED_AS.applicationSigningKey(row.rowKey);
      const signingKey = createSecretBox(old.current).open(row.value, aad);
      await storage.sealedValues.replace('applications.signing_key', row.rowKey, {
        from: row.value,
        to: createSecretBox(withNext.next).seal(signingKey, aad),
      });
      await expectServes(node, seeded);
      // ...and still seals with the current one.
      const channelId = await firstChannelId(node.app, seeded.g.guildId);
      const hook = await node.app.http.inject({
        method: 'POST',
        url: `/api/v10/channels/${channelId}/webhooks`,
        headers: { authorization: seeded.g.owner.token },
        payload: { name: 'later' },
      });
      const later = await storage.webhooks.findById(hook.json<{ id: string }>().id);
      expect(
        createSecretBox(old.current).open(
          later?.tokenSealed ?? '',
          SEALED_AS.webhookToken(later?.id ?? ''),
        ),
      ).toMatch(/./);
      await stop(node);

      const done = await rotate(storage).result;
      expect(done).toMatchObject({ outcome: 'rotated', current: keyId(withNext.next) });
      expect((await fileKeyring()).current).toEqual(withNext.next);
      await openedWith(storage, withNext.next);
    },
    TWO_STARTS_MS,
  );

  it('with GUILDHALL_SECRET_KEY it makes the staged key current and names what to set', async () => {
    const { storage, key: k1 } = await seededCopy({ keyFile: false });
    const k2 = randomBytes(32);
    const plain = await openedWith(storage, k1);

    const unstaged = rotate(storage, { secretKey: keyringOf(k1) });
    await expect(unstaged.result).rejects.toBeInstanceOf(UsageError);
    await expect(rotate(storage, { secretKey: keyringOf(k1), stage: true }).result).rejects.toThrow(
      /^With GUILDHALL_SECRET_KEY, stage a key by adding "<new key> next" to it on every node/,
    );
    expect(await openedWith(storage, k1)).toEqual(plain);

    const done = await rotate(storage, { secretKey: { current: k1, next: k2, previous: [] } })
      .result;
    const setting = `<key ${keyId(k2)}>, <key ${keyId(k1)}> until 2026-12-06T10:00:00.000Z`;
    expect(done).toMatchObject({ outcome: 'rotated', path: null, resealed: 4, setting });
    expect(await openedWith(storage, k2)).toEqual(plain);
    // No key file was made or written.
    await expect(readFile(keyFile(), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('changes nothing when a stored secret does not open', async () => {
    const { storage } = await seededCopy({ keyFile: true });
    const before = await openedWith(storage, (await fileKeyring()).current);
    const stranger = `${randomBytes(32).toString('base64')}\n`;
    await writeFile(keyFile(), stranger, { mode: 0o600 });
    await expect(rotate(storage).result).rejects.toBeInstanceOf(ConfigError);
    expect(await readFile(keyFile(), 'utf8')).toBe(stranger);
    await rm(keyFile());
    await expect(rotate(storage).result).rejects.toThrow(
      `There is no secret key: GUILDHALL_SECRET_KEY is unset and ${keyFile()} does not exist. Start the server once to make one.`,
    );
    expect(Object.keys(before)).toHaveLength(4);
  });

  it('seals again what a node still on the old key sealed, until the old key retires', async () => {
    const { storage, key: k1 } = await seededCopy({ keyFile: false });
    const k2 = randomBytes(32);
    const rotated: SecretKeyring = {
      current: k2,
      next: null,
      previous: [{ key: k1, retiresAtMs: NOW + HOUR_MS }],
    };
    await rotate(storage, { secretKey: { current: k1, next: k2, previous: [] } }).result;
    // A node not yet restarted seals a value with the old key.
    const [row] = await storage.sealedValues.list('applications.signing_key', null, 1);
    if (row === undefined) throw new Error('no app');
    const aad = SEALED_AS.applicationSigningKey(row.rowKey);
    const leftover = createSecretBox(k1).seal(createSecretBox(k2).open(row.value, aad), aad);
    await storage.sealedValues.replace('applications.signing_key', row.rowKey, {
      from: row.value,
      to: leftover,
    });

    let scheduled: (() => void) | null = null;
    const timers: Timers = {
      schedule(fn) {
        scheduled = fn;
        return () => undefined;
      },
    };
    /** Resealing as a node with the rotated keyring starts it. */
    const startRotatedResealing = () =>
      startResealing({
        storage,
        box: createSecretBox(rotated, clock),
        keyring: rotated,
        source: 'GUILDHALL_SECRET_KEY',
        clock,
        timers,
        logger: createLogger('silent'),
      });
    const resealing = startRotatedResealing();
    expect(await resealing?.sweep()).toBe(1);
    await resealing?.stop();
    const [after] = await storage.sealedValues.list('applications.signing_key', null, 1);
    expect(createSecretBox(k2).open(after?.value ?? '', aad)).toMatch(/./);
    expect(scheduled).not.toBeNull();

    // Once the old key has retired, what only it sealed no longer opens, and says so.
    await storage.sealedValues.replace('applications.signing_key', row.rowKey, {
      from: after?.value ?? '',
      to: leftover,
    });
    clock.advance(HOUR_MS);
    const pass = { keyring: { source: 'GUILDHALL_SECRET_KEY', made: false } };
    await expect(sealStoredSecrets(storage, createSecretBox(rotated, clock), pass)).rejects.toThrow(
      new RegExp(`^The stored signing key of application ${row.rowKey} cannot be decrypted`),
    );
    expect(startRotatedResealing()).toBeNull();
  });
});
