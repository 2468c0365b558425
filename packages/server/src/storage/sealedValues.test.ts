import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeDrivers } from '../../test/support/drivers.js';
import { openTestStorage, type TestStorage } from '../../test/support/testStorage.js';
import type { Storage } from './index.js';

const NOW = Date.UTC(2026, 11, 5, 10);

/** The sealed columns read in pages and replaced only when unchanged (secrets.ts's pass). */
describeDrivers('Sealed values storage: $driver', (driver) => {
  let fixture: TestStorage;
  let storage: Storage;
  beforeEach(async () => {
    fixture = await openTestStorage(driver, { prefix: 'sealed' });
    storage = fixture.storage;
    await storage.users.create({ id: '900', username: 'owner', createdAt: NOW });
    // Ids whose text order is not their numeric order.
    for (const id of ['9', '10', '100', '1000000000000000001']) {
      await storage.applications.create({
        id,
        name: `app ${id}`,
        ownerId: '900',
        botUserId: null,
        verifyKey: `verify-${id}`,
        signingKey: `signing-${id}`,
        clientSecretHash: 'x',
        createdAt: NOW,
      });
    }
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it('pages through a column in row key order', async () => {
    const column = 'applications.signing_key';
    const first = await storage.sealedValues.list(column, null, 2);
    expect(first).toEqual([
      { rowKey: '9', value: 'signing-9' },
      { rowKey: '10', value: 'signing-10' },
    ]);
    const rest = await storage.sealedValues.list(column, '10', 2);
    expect(rest.map((row) => row.rowKey)).toEqual(['100', '1000000000000000001']);
    expect(await storage.sealedValues.list(column, '1000000000000000001', 2)).toEqual([]);
    // Text keys too; null values are left out.
    await storage.serverSecrets.getOrCreate('b', 'two', NOW);
    await storage.serverSecrets.getOrCreate('a', 'one', NOW);
    expect(await storage.sealedValues.list('server_secrets.value', null, 10)).toEqual([
      { rowKey: 'a', value: 'one' },
      { rowKey: 'b', value: 'two' },
    ]);
    expect(await storage.sealedValues.list('webhooks.token_sealed', null, 10)).toEqual([]);
  });

  it('replaces a value only while it is what was read', async () => {
    const column = 'applications.signing_key';
    expect(
      await storage.sealedValues.replace(column, '10', { from: 'signing-10', to: 'v1:x' }),
    ).toBe(true);
    // Another node changed it since: nothing is written over theirs.
    expect(
      await storage.sealedValues.replace(column, '10', { from: 'signing-10', to: 'v1:y' }),
    ).toBe(false);
    expect((await storage.applications.findById('10'))?.signingKey).toBe('v1:x');
    expect((await storage.applications.findById('9'))?.signingKey).toBe('signing-9');
  });
});
