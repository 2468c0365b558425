import { afterEach, beforeEach, expect, it } from 'vitest';
import type { GatewayReplayEntry } from '../types/gateway.js';
import type { Storage } from '../types/storage.js';
import type { StorageFixture } from './storageContract.js';

const NOW = Date.UTC(2026, 10, 22, 12);

/** Resumable gateway sessions and their replay entries, on every driver. */
export function describeGatewaySessionsContract(makeStorage: () => Promise<StorageFixture>): void {
  let fixture: StorageFixture;
  let storage: Storage;
  const session = {
    id: 's1',
    userId: '42',
    state: '{"intents":1}',
    seq: 0,
    updatedAt: NOW,
    node: 'node-a',
  };
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

  it("sweeps the sessions of nodes silent since the cutoff, in batches, then the nodes' rows", async () => {
    await storage.gateway.heartbeatNode('node-a', NOW);
    await storage.gateway.heartbeatNode('node-b', NOW + 100);
    for (let i = 0; i < 5; i++) {
      await storage.gateway.saveSession({ ...session, id: `a${String(i)}` });
    }
    await storage.gateway.saveSession({ ...session, id: 'b1', node: 'node-b' });
    // A node that never wrote a heartbeat: its sessions count from when they were saved.
    await storage.gateway.saveSession({ ...session, id: 'u1', node: 'node-u', updatedAt: NOW });
    await storage.gateway.saveSession({
      ...session,
      id: 'u2',
      node: 'node-u',
      updatedAt: NOW + 200,
    });
    await storage.gateway.appendReplay([{ ...entry(1), sessionId: 'a0' }], 100);
    // Before anyone's cutoff: nothing goes.
    expect(await storage.gateway.sweepDeadNodes(NOW, 10)).toBe(0);
    // node-a and u1 are dead at NOW + 50; node-b and u2 are not. Batches of 2.
    const batches = [];
    for (;;) {
      const n = await storage.gateway.sweepDeadNodes(NOW + 50, 2);
      batches.push(n);
      if (n < 2) break;
    }
    expect(batches).toEqual([2, 2, 2, 0]);
    for (const id of ['a0', 'a4', 'u1']) expect(await storage.gateway.findSession(id)).toBeNull();
    expect(await storage.gateway.replaySince('a0', -1)).toEqual([]);
    for (const id of ['b1', 'u2']) expect(await storage.gateway.findSession(id)).not.toBeNull();
    // node-a's row went with its last session: a heartbeat now is a new node's first.
    await storage.gateway.saveSession({ ...session, id: 'a9', updatedAt: NOW + 300 });
    expect(await storage.gateway.sweepDeadNodes(NOW + 50, 10)).toBe(0);
    expect(await storage.gateway.findSession('a9')).not.toBeNull();
    // A session taken over by a live node is that node's.
    await storage.gateway.saveSession({ ...session, id: 'u2', node: 'node-b' });
    await storage.gateway.heartbeatNode('node-b', NOW + 2000);
    expect(await storage.gateway.sweepDeadNodes(NOW + 1000, 10)).toBe(1);
    expect(await storage.gateway.findSession('u2')).toMatchObject({ node: 'node-b' });
    expect(await storage.gateway.findSession('a9')).toBeNull();
  });
}
