import { describe, expect, it } from 'vitest';
import { TEST_NATS_URL, natsAvailable, uniqueSubjectPrefix } from '../../test/support/nats.js';
import { describeBusContract } from './contract/busContract.js';
import { MemoryBus } from './memory/index.js';
import { createNatsBus } from './nats/index.js';
import type { BusEvent } from './types.js';

describeBusContract('memory', ({ onError }) => {
  const bus = new MemoryBus({ onError });
  return Promise.resolve({ bus, dispose: () => bus.close() });
});

describeBusContract(
  'nats',
  async ({ onError }) => {
    const bus = await createNatsBus({
      servers: TEST_NATS_URL,
      subjectPrefix: uniqueSubjectPrefix('contract'),
      onError,
    });
    return { bus, dispose: () => bus.close() };
  },
  { skip: !natsAvailable },
);

const event: BusEvent = { type: 'READY', topic: 't', data: null, publishedAt: 0 };

describe.skipIf(!natsAvailable)('NATS bus across connections', () => {
  it('carries events from an API node to a gateway node, and not after close', async () => {
    const subjectPrefix = uniqueSubjectPrefix('nodes');
    const api = await createNatsBus({ servers: TEST_NATS_URL, subjectPrefix });
    const gateway = await createNatsBus({ servers: TEST_NATS_URL, subjectPrefix });
    try {
      const atGateway: string[] = [];
      const atApi: string[] = [];
      await gateway.subscribe('guild.*', (e) => {
        atGateway.push(e.type);
      });
      await api.subscribe('guild.*', (e) => {
        atApi.push(e.type);
      });
      // subscribe() resolved, so the server holds the interest: nothing can be lost here.
      await api.publish('guild.1', { ...event, type: 'one' });
      await expect.poll(() => atGateway, { timeout: 3000 }).toEqual(['one']);
      await gateway.close();
      await api.publish('guild.1', { ...event, type: 'two' });
      await expect.poll(() => atApi, { timeout: 3000 }).toEqual(['one', 'two']);
      expect(atGateway).toEqual(['one']);
    } finally {
      await Promise.all([api.close(), gateway.close()]);
    }
  });

  it('keeps buses with different prefixes apart', async () => {
    const first = await createNatsBus({
      servers: TEST_NATS_URL,
      subjectPrefix: uniqueSubjectPrefix(),
    });
    const second = await createNatsBus({
      servers: TEST_NATS_URL,
      subjectPrefix: uniqueSubjectPrefix(),
    });
    try {
      const atFirst: string[] = [];
      const atSecond: string[] = [];
      await first.subscribe('>', (e) => {
        atFirst.push(e.type);
      });
      await second.subscribe('>', (e) => {
        atSecond.push(e.type);
      });
      await second.publish('a', { ...event, type: 'second' });
      await first.publish('a', { ...event, type: 'first' });
      await expect.poll(() => atFirst, { timeout: 3000 }).toEqual(['first']);
      await expect.poll(() => atSecond, { timeout: 3000 }).toEqual(['second']);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});

describe('createNatsBus', () => {
  it('names the URL, without its password, when it cannot connect', async () => {
    const refused = createNatsBus({
      servers: 'nats://user:secret@127.0.0.1:1',
      connectTimeoutMs: 2000,
    });
    await expect(refused).rejects.toThrow('Cannot connect to NATS at nats://***@127.0.0.1:1');
    await expect(refused).rejects.not.toThrow('secret');
  });

  it('refuses a subject prefix that does not end with a dot', async () => {
    await expect(createNatsBus({ servers: TEST_NATS_URL, subjectPrefix: 'x' })).rejects.toThrow(
      TypeError,
    );
  });
});
