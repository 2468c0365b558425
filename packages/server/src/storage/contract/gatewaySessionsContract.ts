import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayReplayEntry } from '../types/gateway.js';
import type { Storage } from '../types/storage.js';
import type { StorageFixture } from './storageContract.js';

const NOW = Date.UTC(2026, 10, 22, 12);

/** Resumable gateway sessions and their replay entries, on every driver. */
export function describeGatewaySessionsContract(
  name: string,
  makeStorage: () => Promise<StorageFixture>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`Gateway sessions storage contract: ${name}`, () => {
    let fixture: StorageFixture;
    let storage: Storage;
    const session = { id: 's1', userId: '42', state: '{"intents":1}', seq: 0, updatedAt: NOW };
    const entry = (seq: number, sourced = true): GatewayReplayEntry => ({
      sessionId: 's1',
      seq,
      type: 'MESSAGE_CREATE',
      data: `{"n":${String(seq)}}`,
      source: sourced ? { id: `node.${seq.toString(36)}`, publishedAt: NOW + seq } : null,
    });

    beforeEach(async () => {
      fixture = await makeStorage();
      storage = fixture.storage;
    });
    afterEach(async () => {
      await fixture.dispose();
    });

    it('saves a session, finds it, and saves it again over itself', async () => {
      await storage.gateway.saveSession(session);
      expect(await storage.gateway.findSession('s1')).toEqual(session);
      await storage.gateway.saveSession({ ...session, state: '{}', updatedAt: NOW + 1 });
      expect(await storage.gateway.findSession('s1')).toMatchObject({
        state: '{}',
        updatedAt: NOW + 1,
      });
      expect(await storage.gateway.findSession('nope')).toBeNull();
    });

    it('keeps replay entries in order with the dispatch each came from', async () => {
      await storage.gateway.saveSession(session);
      await storage.gateway.appendReplay([entry(2), entry(1), entry(3, false)], 100);
      // An entry written twice (a batch retried) stays once, as first written.
      await storage.gateway.appendReplay([{ ...entry(1), data: '{}' }], 100);
      expect(await storage.gateway.replaySince('s1', -1)).toEqual([
        entry(1),
        entry(2),
        entry(3, false),
      ]);
      expect(await storage.gateway.replaySince('s1', 2)).toEqual([entry(3, false)]);
    });

    it('trims a session to about its last entries, and deletes them with it', async () => {
      await storage.gateway.saveSession(session);
      const many = Array.from({ length: 128 }, (_, i) => entry(i + 1));
      await storage.gateway.appendReplay(many, 10);
      const kept = await storage.gateway.replaySince('s1', -1);
      expect(kept.map((e) => e.seq)).toEqual(Array.from({ length: 10 }, (_, i) => 119 + i));
      await storage.gateway.deleteSession('s1');
      expect(await storage.gateway.findSession('s1')).toBeNull();
      expect(await storage.gateway.replaySince('s1', -1)).toEqual([]);
    });
  });
}
