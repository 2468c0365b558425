import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeDrivers } from '../../test/support/drivers.js';
import { openTestStorage, type TestStorage } from '../../test/support/testStorage.js';
import type { Storage } from './index.js';

const NOW = Date.UTC(2026, 10, 24, 13);
const HOUR = 60 * 60 * 1000;

/** One-time login links (migration 0027), on every driver. */
describeDrivers('Login links storage: $driver', (driver) => {
  let fixture: TestStorage;
  let storage: Storage;
  beforeEach(async () => {
    fixture = await openTestStorage(driver, { prefix: 'loginlinks' });
    storage = fixture.storage;
    for (const [id, username] of [
      ['101', 'ada'],
      ['102', 'bob'],
    ] as const) {
      await storage.users.create({ id, username, createdAt: NOW });
    }
  });
  afterEach(async () => {
    await fixture.dispose();
  });
  const link = (hash: string, userId: string, createdAt = NOW) => ({
    hash,
    userId,
    createdAt,
    expiresAt: createdAt + HOUR,
  });

  it('uses a link once, and only before it expires', async () => {
    await storage.loginLinks.create(link('h1', '101'));
    await storage.loginLinks.create(link('h2', '102'));
    expect(await storage.loginLinks.consume('h1', NOW + 1)).toBe('101');
    expect(await storage.loginLinks.consume('h1', NOW + 2)).toBeNull();
    expect(await storage.loginLinks.consume('unknown', NOW)).toBeNull();
    // At its expiry it no longer works, and it is gone.
    expect(await storage.loginLinks.consume('h2', NOW + HOUR)).toBeNull();
  });

  it('keeps one live link per person and drops expired ones', async () => {
    await storage.loginLinks.create(link('old', '101'));
    await storage.loginLinks.create(link('stale', '102'));
    await storage.loginLinks.create(link('new', '101', NOW + HOUR));
    expect(await storage.loginLinks.consume('old', NOW + 1)).toBeNull();
    // Bob's expired link went when Ada's new one was stored: even an earlier clock finds nothing.
    expect(await storage.loginLinks.consume('stale', NOW + 1)).toBeNull();
    expect(await storage.loginLinks.consume('new', NOW + HOUR + 1)).toBe('101');
  });

  it('of many uses of one link at once, exactly one gets its person', async () => {
    await storage.loginLinks.create(link('race', '102'));
    const results = await Promise.all(
      Array.from({ length: 8 }, () => storage.loginLinks.consume('race', NOW + 1)),
    );
    expect(results.filter((r) => r === '102')).toHaveLength(1);
  });
});
