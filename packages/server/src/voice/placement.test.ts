import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  TEST_REDIS_URL,
  deleteRedisPrefix,
  redisAvailable,
  uniqueRedisPrefix,
} from '../../test/support/redis.js';
import { manualClock } from '../domain/clock.js';
import { createMemorySharedState } from '../sharedState/memory/index.js';
import { openRedisSharedState } from '../sharedState/redis/index.js';
import type { SharedState } from '../sharedState/index.js';
import { createVoicePlacement } from './placement.js';

const T0 = Date.UTC(2026, 10, 24, 12);
const FALLBACK = '127.0.0.1:8081';
const options = { nodeTtlMs: 15_000, callTtlMs: 45_000 };

/** Two processes' views of one shared state: a gateway's and the voice nodes'. */
interface Nodes {
  gateway: SharedState;
  voice: SharedState;
  close(): Promise<void>;
}

async function redisNodes(): Promise<Nodes> {
  const prefix = uniqueRedisPrefix('placement');
  const open = () =>
    openRedisSharedState({
      url: TEST_REDIS_URL,
      keyPrefix: prefix,
      onError: (err) => {
        throw err;
      },
    });
  const [gateway, voice] = [await open(), await open()];
  return {
    gateway,
    voice,
    async close() {
      await Promise.all([gateway.close(), voice.close()]);
      await deleteRedisPrefix(prefix);
    },
  };
}

function memoryNodes(): Promise<Nodes> {
  const state = createMemorySharedState();
  return Promise.resolve({ gateway: state, voice: state, close: () => state.close() });
}

describe.each([
  { name: 'memory', make: memoryNodes, skip: false },
  { name: 'redis', make: redisNodes, skip: !redisAvailable },
])('voice placement ($name)', ({ make, skip }) => {
  let nodes: Nodes;
  const clock = manualClock(T0);
  beforeEach(async () => {
    if (skip) return;
    clock.set(T0);
    nodes = await make();
  });
  afterEach(async () => {
    if (!skip) await nodes.close();
  });

  const gateway = () =>
    createVoicePlacement({
      store: nodes.gateway.voiceNodes,
      clock,
      fallbackEndpoint: FALLBACK,
      options,
    });
  const voiceNode = async (endpoint: string) => {
    const placement = createVoicePlacement({
      store: nodes.voice.voiceNodes,
      clock,
      fallbackEndpoint: endpoint,
      options,
    });
    await placement.register(endpoint);
    return placement;
  };

  it.skipIf(skip)(
    'sends every call to the configured endpoint while no node is listed',
    async () => {
      expect(await gateway().pick('100')).toBe(FALLBACK);
      const only = await voiceNode('10.0.0.1:8081');
      expect(await gateway().pick('100')).toBe('10.0.0.1:8081');
      await only.withdraw();
      expect(await gateway().pick('200')).toBe(FALLBACK);
    },
  );

  it.skipIf(skip)('keeps a call on its node, and puts new calls on the least loaded', async () => {
    const a = await voiceNode('a.example:443');
    const b = await voiceNode('b.example:443');
    await a.heartbeat(5);
    await b.heartbeat(2);
    const picker = gateway();
    expect(await picker.pick('channel-1')).toBe('b.example:443');
    // The load changes, the call stays where its members are; a new call goes to a.
    await b.heartbeat(9, ['channel-1']);
    expect(await picker.pick('channel-1')).toBe('b.example:443');
    expect(await gateway().pick('channel-1')).toBe('b.example:443');
    expect(await picker.pick('lobby-7')).toBe('a.example:443');
    // Released when it ends there: the next join goes to the least loaded again.
    await b.release('channel-1');
    expect(await picker.pick('channel-1')).toBe('a.example:443');
  });

  it.skipIf(skip)(
    'keeps a served call claimed through heartbeats, and moves a dead node’s calls',
    async () => {
      const a = await voiceNode('a:1');
      const b = await voiceNode('b:1');
      await b.heartbeat(10);
      const picker = gateway();
      expect(await picker.pick('call')).toBe('a:1');
      // Heartbeats every 5 s for longer than a claim's TTL: the call stays on a.
      for (let i = 0; i < 12; i++) {
        clock.advance(5000);
        expect(await a.heartbeat(1, ['call'])).toEqual({ lost: [] });
        await b.heartbeat(10);
      }
      expect(await picker.pick('call')).toBe('a:1');
      // a stops: once it drops out of the list, the call moves to b at the next join.
      for (let i = 0; i < 4; i++) {
        clock.advance(5000);
        await b.heartbeat(10);
      }
      expect(await picker.pick('call')).toBe('b:1');
      // a comes back: it learns the call is b's now.
      expect(await a.heartbeat(0, ['call'])).toEqual({ lost: ['call'] });
      expect(await picker.pick('call')).toBe('b:1');
    },
  );

  it.skipIf(skip)('lets racing gateways agree on one node for a new call', async () => {
    await (await voiceNode('a:1')).heartbeat(0);
    await (await voiceNode('b:1')).heartbeat(0);
    const picks = await Promise.all(Array.from({ length: 8 }, () => gateway().pick('race')));
    expect(new Set(picks).size).toBe(1);
  });

  it.skipIf(skip)('refuses a heartbeat before register', async () => {
    const unregistered = createVoicePlacement({
      store: nodes.voice.voiceNodes,
      clock,
      fallbackEndpoint: FALLBACK,
    });
    await expect(unregistered.heartbeat(0)).rejects.toThrow(TypeError);
  });
});
