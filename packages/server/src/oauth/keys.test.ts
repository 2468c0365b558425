import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeDrivers } from '../../test/support/drivers.js';
import { TEST_DATABASE_URL, dropSchema, uniqueSchema } from '../../test/support/postgres.js';
import { manualClock } from '../domain/clock.js';
import { createSecretBox } from '../domain/secretBox.js';
import type { Storage } from '../storage/index.js';
import { createPostgresStorage } from '../storage/postgres/index.js';
import { createSqliteStorage } from '../storage/sqlite/index.js';
import { createIdTokenKeys, generateIdTokenKeyPair } from './keys.js';

describeDrivers('ID token signing key bootstrap on $driver', (driver) => {
  let dataDir: string;
  let schema: string;
  const opened: Storage[] = [];

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'guildhall-keys-'));
    schema = uniqueSchema('keys');
  });
  afterEach(async () => {
    for (const storage of opened.splice(0)) await storage.close();
    await rm(dataDir, { recursive: true, force: true });
    if (driver === 'postgres') await dropSchema(schema);
  });

  /** One node's connection to the shared database (SQLite: the one connection). */
  const node = async (): Promise<Storage> => {
    if (driver === 'sqlite' && opened[0] !== undefined) return opened[0];
    const storage =
      driver === 'postgres'
        ? await createPostgresStorage({ connectionString: TEST_DATABASE_URL, schema })
        : createSqliteStorage({ filename: join(dataDir, 'guildhall.db') });
    opened.push(storage);
    return storage;
  };

  it('nodes starting together on an empty database share one key', async () => {
    const first = await node();
    const others = await Promise.all([node(), node(), node()]);
    const clock = manualClock(Date.UTC(2026, 10, 22));
    // Nodes sharing a database share the secret key (docs/operations.md).
    const secrets = createSecretBox(randomBytes(32));
    const sets = await Promise.all(
      [first, ...others].map((storage) => createIdTokenKeys({ storage, clock, secrets }).jwks()),
    );
    expect((await first.oauth.listSigningKeys()).length).toBe(1);
    for (const set of sets) expect(set).toEqual(sets[0]);
  });

  it('a given key is stored when the database has none, and signs', async () => {
    const storage = await node();
    const clock = manualClock(Date.UTC(2026, 10, 22));
    const secrets = createSecretBox(randomBytes(32));
    const given = await generateIdTokenKeyPair();
    const keys = createIdTokenKeys({ storage, clock, secrets, initialKey: given });
    const [served] = (await keys.jwks()).keys;
    expect(served).toMatchObject({ kty: 'RSA', n: given.publicJwk.n, alg: 'RS256', use: 'sig' });
    expect(served).not.toHaveProperty('d');
    const verified = await jwtVerify(
      await keys.sign({ sub: '1' }),
      createLocalJWKSet(await keys.jwks()),
    );
    expect(verified.payload.sub).toBe('1');
    // A node without one reads the stored key; a second given key does not replace it.
    const other = await generateIdTokenKeyPair();
    for (const initialKey of [undefined, other]) {
      const again = createIdTokenKeys({ storage, clock, secrets, initialKey });
      expect((await again.jwks()).keys).toEqual([served]);
    }
    expect((await storage.oauth.listSigningKeys()).length).toBe(1);
  });

  it('makes the key at the first signature, inside the transaction that signs', async () => {
    const storage = await node();
    const clock = manualClock(Date.UTC(2026, 10, 22));
    const secrets = createSecretBox(randomBytes(32));
    const keys = createIdTokenKeys({
      storage,
      clock,
      secrets,
      initialKey: await generateIdTokenKeyPair(),
    });
    expect(await storage.oauth.listSigningKeys()).toEqual([]);
    // A rolled-back first signature leaves no key behind, stored or kept.
    const rollBack = new Error('rolled back');
    await expect(
      storage.transaction(async (tx) => {
        await keys.sign({ sub: '1' }, tx);
        throw rollBack;
      }),
    ).rejects.toBe(rollBack);
    expect(await storage.oauth.listSigningKeys()).toEqual([]);
    // On SQLite the transaction holds the one connection: the key is made through it.
    const token = await storage.transaction((tx) => keys.sign({ sub: '2' }, tx));
    expect((await storage.oauth.listSigningKeys()).length).toBe(1);
    const verified = await jwtVerify(token, createLocalJWKSet(await keys.jwks()));
    expect(verified.payload.sub).toBe('2');
  });
});
