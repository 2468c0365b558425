import { connect } from 'nats';
import { describe, expect, it } from 'vitest';
import {
  TEST_NATS_URL,
  deleteStream,
  natsAvailable,
  uniqueSubjectPrefix,
} from '../../test/support/nats.js';
import { describeBusContract } from './contract/busContract.js';
import { describeHistoryContract } from './contract/historyContract.js';
import { MemoryBus } from './memory/index.js';
import { createNatsBus, historyStreamName } from './nats/index.js';
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

describeHistoryContract(
  'nats',
  async () => {
    const subjectPrefix = uniqueSubjectPrefix('history');
    const history = { subjects: ['kept.>', 'also.*'], keepMs: 60_000 };
    const bus = await createNatsBus({ servers: TEST_NATS_URL, subjectPrefix, history });
    // A node without a history of its own (an older one, say): its publishes are kept all the same.
    const publisher = await createNatsBus({ servers: TEST_NATS_URL, subjectPrefix });
    return {
      bus,
      publisher,
      dispose: async () => {
        await Promise.all([bus.close(), publisher.close()]);
        await deleteStream(historyStreamName(subjectPrefix));
      },
    };
  },
  { skip: !natsAvailable },
);

const event: BusEvent = { type: 'READY', topic: 't', data: null, publishedAt: 0 };

describe('bus history', () => {
  it('is kept by neither the memory bus nor a NATS bus not asked to', async () => {
    expect(new MemoryBus().history).toBeNull();
    if (!natsAvailable) return;
    const bus = await createNatsBus({
      servers: TEST_NATS_URL,
      subjectPrefix: uniqueSubjectPrefix(),
    });
    expect(bus.history).toBeNull();
    await bus.close();
  });

  it('names its stream after the subject prefix', () => {
    expect(historyStreamName('guildhall.')).toBe('guildhall_history');
    expect(historyStreamName('a.b-c.')).toBe('a_b-c_history');
    expect(historyStreamName('')).toBe('history');
  });

  it.skipIf(!natsAvailable)(
    'is shared by the nodes of one prefix, kept apart from other prefixes',
    async () => {
      const prefixes = [uniqueSubjectPrefix(), uniqueSubjectPrefix()];
      const open = (subjectPrefix: string, keepMs: number) =>
        createNatsBus({
          servers: TEST_NATS_URL,
          subjectPrefix,
          history: { subjects: ['kept.>'], keepMs },
        });
      const [first, again, other] = [
        await open(prefixes[0] ?? '', 60_000),
        // A node started with another keep time brings the stream to it.
        await open(prefixes[0] ?? '', 90_000),
        await open(prefixes[1] ?? '', 60_000),
      ];
      try {
        const since = Date.now() - 1000;
        await first.publish('kept.a', { ...event, type: 'first' });
        await other.publish('kept.a', { ...event, type: 'other' });
        await Promise.all([first.ping(), other.ping()]);
        const read = await again.history?.read(['kept.a'], since);
        expect(read?.map((k) => k.event.type)).toEqual(['first']);
        const nc = await connect({ servers: TEST_NATS_URL });
        const info = await (
          await nc.jetstreamManager()
        ).streams.info(historyStreamName(prefixes[0] ?? ''));
        await nc.close();
        expect(info.config.max_age).toBe(90_000 * 1_000_000);
      } finally {
        await Promise.all([first.close(), again.close(), other.close()]);
        for (const prefix of prefixes) await deleteStream(historyStreamName(prefix));
      }
    },
  );

  it.skipIf(!natsAvailable)('refuses to start when another stream holds the subjects', async () => {
    const subjectPrefix = uniqueSubjectPrefix();
    const taken = `${historyStreamName(subjectPrefix)}_taken`;
    const nc = await connect({ servers: TEST_NATS_URL });
    try {
      const jsm = await nc.jetstreamManager();
      await jsm.streams.add({ name: taken, subjects: [`${subjectPrefix}kept.>`] });
      const refused = createNatsBus({
        servers: TEST_NATS_URL,
        subjectPrefix,
        history: { subjects: ['kept.>'], keepMs: 60_000 },
      });
      await expect(refused).rejects.toThrow(
        `Cannot keep the bus history in JetStream stream ${historyStreamName(subjectPrefix)} at`,
      );
      await expect(refused).rejects.toThrow('subjects overlap with an existing stream');
    } finally {
      await nc.close();
      await deleteStream(taken);
    }
  });
});

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
    await expect(refused).rejects.toThrow('NATS at nats://***@127.0.0.1:1 cannot be reached');
    await expect(refused).rejects.not.toThrow('secret');
  });

  it('refuses a subject prefix that does not end with a dot', async () => {
    await expect(createNatsBus({ servers: TEST_NATS_URL, subjectPrefix: 'x' })).rejects.toThrow(
      TypeError,
    );
  });
});
