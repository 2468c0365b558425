import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BusClosedError } from '../errors.js';
import type { BusEvent, EventBus, EventHistory } from '../types.js';

/**
 * A bus whose history keeps `kept.>` and `also.*`, another connection publishing on the same
 * subjects (with or without a history of its own), and how to dispose of both.
 */
export interface HistoryFixture {
  bus: EventBus;
  publisher: EventBus;
  dispose(): Promise<void>;
}

const event = (type: string, data: unknown = null): BusEvent => ({
  type,
  topic: 'topic',
  data,
  publishedAt: 1_700_000_000_000,
});

/** Lets the bus server's clock move past what was published so far. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

/**
 * The suite every bus with a history passes (NATS with JetStream). The memory bus, one process,
 * keeps none: its `history` is null.
 */
export function describeHistoryContract(
  name: string,
  makeFixture: () => Promise<HistoryFixture>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`EventHistory contract: ${name}`, () => {
    let fixture: HistoryFixture;
    let history: EventHistory;

    beforeEach(async () => {
      fixture = await makeFixture();
      const kept = fixture.bus.history;
      if (kept === null) throw new Error('the bus under test keeps no history');
      history = kept;
    });
    afterEach(async () => {
      await fixture.dispose();
    });

    /** Publishes on the other connection and waits until the bus answers after it. */
    const publish = async (items: [string, BusEvent][]) => {
      for (const [subject, e] of items) await fixture.publisher.publish(subject, e);
      await fixture.publisher.ping();
    };

    it('reads back the events of the subjects asked, in the order they were published', async () => {
      const since = Date.now() - 1000;
      const data = { id: '1234567890123456789', nested: [1, 'two', null] };
      await publish([
        ['kept.a', event('one', data)],
        ['kept.b', event('two')],
        ['also.x', event('three')],
        ['kept.a', event('four')],
        ['kept.c', event('elsewhere')],
      ]);
      const read = await history.read(['kept.a', 'kept.b', 'also.x'], since);
      expect(read.map((k) => [k.subject, k.event.type])).toEqual([
        ['kept.a', 'one'],
        ['kept.b', 'two'],
        ['also.x', 'three'],
        ['kept.a', 'four'],
      ]);
      expect(read[0]?.event).toEqual(event('one', data));
      expect(await history.read(['kept.c'], since)).toHaveLength(1);
      expect(await history.read(['kept.never'], since)).toEqual([]);
      expect(await history.read([], since)).toEqual([]);
    });

    it('reads only what was published at or after the time asked', async () => {
      await publish([['kept.a', event('before')]]);
      await tick();
      const since = Date.now();
      await tick();
      await publish([['kept.a', event('after')]]);
      const read = await history.read(['kept.a'], since);
      expect(read.map((k) => k.event.type)).toEqual(['after']);
    });

    it('reads a long history whole, a subject asked twice once', async () => {
      const since = Date.now() - 1000;
      const count = 2500;
      await publish(
        Array.from({ length: count }, (_, i): [string, BusEvent] => [
          i % 2 === 0 ? 'kept.a' : 'kept.b',
          event(`e${String(i)}`),
        ]),
      );
      const read = await history.read(['kept.a', 'kept.b', 'kept.a'], since);
      expect(read.map((k) => k.event.type)).toEqual(
        Array.from({ length: count }, (_, i) => `e${String(i)}`),
      );
    });

    it('says which subjects it keeps, and refuses to read others', async () => {
      expect(history.keepMs).toBeGreaterThan(0);
      expect(history.covers('kept.a')).toBe(true);
      expect(history.covers('kept.a.b')).toBe(true);
      expect(history.covers('also.x')).toBe(true);
      expect(history.covers('also.x.y')).toBe(false);
      expect(history.covers('other')).toBe(false);
      expect(() => history.covers('kept.*')).toThrow(TypeError);
      await expect(history.read(['other'], 0)).rejects.toThrow(TypeError);
      await expect(history.read(['kept.*'], 0)).rejects.toThrow(TypeError);
      await expect(history.read(['kept.>'], 0)).rejects.toThrow(TypeError);
    });

    it('rejects with BusClosedError once the bus is closed', async () => {
      await fixture.bus.close();
      await expect(history.read(['kept.a'], 0)).rejects.toBeInstanceOf(BusClosedError);
    });
  });
}
