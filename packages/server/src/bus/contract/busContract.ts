import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BusClosedError } from '../errors.js';
import type { BusErrorHandler, BusEvent, EventBus } from '../types.js';

/** A bus under test and how to dispose of it. */
export interface BusFixture {
  bus: EventBus;
  dispose(): Promise<void>;
}

/** How long a test waits for deliveries before it fails. */
const WAIT_MS = 3000;

const event = (type: string, data: unknown = null): BusEvent => ({
  type,
  topic: 'topic',
  data,
  publishedAt: 1_700_000_000_000,
});

/** A handler that records what it receives, and lets a test wait for a number of events. */
function recorder() {
  const received: { type: string; subject: string }[] = [];
  const waiters: (() => void)[] = [];
  const handler = (e: BusEvent, subject: string): void => {
    received.push({ type: e.type, subject });
    for (const wake of waiters.splice(0)) wake();
  };
  async function waitFor(count: number): Promise<string[]> {
    const deadline = Date.now() + WAIT_MS;
    while (received.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`waited ${WAIT_MS} ms for ${count} events, got ${received.length}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return received.map((r) => r.type);
  }
  return { handler, received, waitFor };
}

/**
 * The one suite every bus driver passes. Each test gets a fresh bus from `makeBus`, whose
 * `onError` the suite observes. Negative checks ("nothing else arrived") wait for a later event
 * from the same publisher, since each subscriber sees one publisher's events in order.
 */
export function describeBusContract(
  name: string,
  makeBus: (options: { onError: BusErrorHandler }) => Promise<BusFixture>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`EventBus contract: ${name}`, () => {
    let fixture: BusFixture;
    let bus: EventBus;
    let errors: unknown[];

    beforeEach(async () => {
      errors = [];
      fixture = await makeBus({ onError: (err) => errors.push(err) });
      bus = fixture.bus;
    });
    afterEach(async () => {
      await fixture.dispose();
    });

    it('delivers a published event to a subscriber, as a JSON copy', async () => {
      const got: { event: BusEvent; subject: string }[] = [];
      const rec = recorder();
      await bus.subscribe('guild.1.events', (e, subject) => {
        got.push({ event: e, subject });
        rec.handler(e, subject);
      });
      const data = { id: '1234567890123456789', nested: { list: [1, 'two', null] } };
      const sent = { type: 'MESSAGE_CREATE', topic: '1', data, publishedAt: 42 };
      await bus.publish('guild.1.events', sent);
      data.nested.list.push(4);
      await rec.waitFor(1);
      expect(got).toEqual([
        {
          event: {
            type: 'MESSAGE_CREATE',
            topic: '1',
            data: { id: '1234567890123456789', nested: { list: [1, 'two', null] } },
            publishedAt: 42,
          },
          subject: 'guild.1.events',
        },
      ]);
      expect(got[0]?.event.data).not.toBe(data);
    });

    it("carries an event's trace context, and none when it has none", async () => {
      const got: BusEvent[] = [];
      const rec = recorder();
      await bus.subscribe('guild.2.events', (e, subject) => {
        got.push(e);
        rec.handler(e, subject);
      });
      const trace = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
      await bus.publish('guild.2.events', { ...event('TRACED'), trace });
      await bus.publish('guild.2.events', event('UNTRACED'));
      await rec.waitFor(2);
      expect(got.map((e) => [e.type, e.trace])).toEqual([
        ['TRACED', trace],
        ['UNTRACED', undefined],
      ]);
      expect('trace' in (got[1] ?? {})).toBe(false);
    });

    it('delivers asynchronously: publish never runs subscriber code', async () => {
      const rec = recorder();
      await bus.subscribe('a', rec.handler);
      const publishing = bus.publish('a', event('x'));
      expect(rec.received).toEqual([]);
      await publishing;
      expect(await rec.waitFor(1)).toEqual(['x']);
    });

    it('matches `*` against exactly one token', async () => {
      const rec = recorder();
      await bus.subscribe('guild.*.events', rec.handler);
      for (const subject of [
        'guild.events',
        'guild.1.2.events',
        'guild.1.event',
        'guilds.1.events',
      ])
        await bus.publish(subject, event(`miss ${subject}`));
      await bus.publish('guild.1.events', event('hit 1'));
      await bus.publish('guild.22.events', event('hit 22'));
      expect(await rec.waitFor(2)).toEqual(['hit 1', 'hit 22']);
      expect(rec.received.map((r) => r.subject)).toEqual(['guild.1.events', 'guild.22.events']);
    });

    it('matches `>` against one or more trailing tokens', async () => {
      const rec = recorder();
      await bus.subscribe('guild.>', rec.handler);
      await bus.publish('guild', event('miss guild'));
      await bus.publish('other.1', event('miss other'));
      await bus.publish('guild.1', event('hit 1'));
      await bus.publish('guild.1.events.x', event('hit deep'));
      expect(await rec.waitFor(2)).toEqual(['hit 1', 'hit deep']);
    });

    it('rejects malformed subjects with TypeError', async () => {
      const noop = () => undefined;
      for (const subject of ['', 'a..b', 'a.', '.a', 'a b', 'a.>.b', 'a.b*'])
        await expect(bus.subscribe(subject, noop), subject).rejects.toBeInstanceOf(TypeError);
      for (const subject of ['', 'a.*', 'a.>', 'a..b', 'a b'])
        await expect(bus.publish(subject, event('x')), subject).rejects.toBeInstanceOf(TypeError);
    });

    it('rejects data JSON cannot carry', async () => {
      await expect(bus.publish('a', event('x', { n: 1n }))).rejects.toBeInstanceOf(TypeError);
    });

    it('stops delivery after unsubscribe, even of events already published', async () => {
      const gone = recorder();
      const stays = recorder();
      const subscription = await bus.subscribe('a.b', gone.handler);
      await bus.subscribe('a.b', stays.handler);
      await bus.publish('a.b', event('1'));
      expect(await gone.waitFor(1)).toEqual(['1']);
      const publishing = bus.publish('a.b', event('2'));
      subscription.unsubscribe();
      await publishing;
      subscription.unsubscribe();
      await bus.publish('a.b', event('3'));
      expect(await stays.waitFor(3)).toEqual(['1', '2', '3']);
      expect(gone.received.map((r) => r.type)).toEqual(['1']);
      expect(subscription.subject).toBe('a.b');
    });

    it('keeps publish order for 100 events', async () => {
      const rec = recorder();
      await bus.subscribe('order.*', rec.handler);
      const types = Array.from({ length: 100 }, (_, i) => String(i));
      await Promise.all(types.map((type, i) => bus.publish(`order.${i % 3}`, event(type))));
      expect(await rec.waitFor(100)).toEqual(types);
    });

    it('delivers every event to each of two subscribers', async () => {
      const first = recorder();
      const second = recorder();
      await bus.subscribe('x.*', first.handler);
      await bus.subscribe('x.>', second.handler);
      await bus.publish('x.1', event('1'));
      await bus.publish('x.2', event('2'));
      expect(await first.waitFor(2)).toEqual(['1', '2']);
      expect(await second.waitFor(2)).toEqual(['1', '2']);
    });

    it('reports a throwing or rejecting handler to onError and goes on delivering', async () => {
      const rec = recorder();
      await bus.subscribe('e', () => {
        throw new Error('thrown');
      });
      await bus.subscribe('e', () => Promise.reject(new Error('rejected')));
      await bus.subscribe('e', rec.handler);
      await bus.publish('e', event('1'));
      await bus.publish('e', event('2'));
      expect(await rec.waitFor(2)).toEqual(['1', '2']);
      await expect.poll(() => errors.length, { timeout: WAIT_MS }).toBe(4);
      expect(errors.map((err) => (err as Error).message).sort()).toEqual([
        'rejected',
        'rejected',
        'thrown',
        'thrown',
      ]);
    });

    it('does not deliver events published before the subscription', async () => {
      await bus.publish('early', event('before'));
      const rec = recorder();
      await bus.subscribe('early', rec.handler);
      await bus.publish('early', event('after'));
      expect(await rec.waitFor(1)).toEqual(['after']);
      expect(rec.received).toHaveLength(1);
    });

    it('delivers events a handler publishes', async () => {
      const rec = recorder();
      await bus.subscribe('chain.*', (e, subject) => {
        rec.handler(e, subject);
        if (e.type === 'first') void bus.publish('chain.b', event('from handler'));
      });
      await bus.publish('chain.a', event('first'));
      await bus.publish('chain.a', event('second'));
      const types = await rec.waitFor(3);
      expect([...types].sort()).toEqual(['first', 'from handler', 'second']);
      expect(types.indexOf('first')).toBeLessThan(types.indexOf('from handler'));
    });

    it('delivers what was published before close(), then refuses more', async () => {
      const rec = recorder();
      await bus.subscribe('c', rec.handler);
      await bus.publish('c', event('1'));
      await bus.publish('c', event('2'));
      await Promise.all([bus.close(), bus.close()]);
      expect(rec.received.map((r) => r.type)).toEqual(['1', '2']);
      await expect(bus.publish('c', event('3'))).rejects.toBeInstanceOf(BusClosedError);
      await expect(bus.subscribe('c', rec.handler)).rejects.toBeInstanceOf(BusClosedError);
      await bus.close();
      expect(rec.received).toHaveLength(2);
    });

    it('answers ping while open, and refuses it once closed', async () => {
      await expect(bus.ping()).resolves.toBeUndefined();
      await bus.close();
      await expect(bus.ping()).rejects.toBeInstanceOf(BusClosedError);
    });
  });
}
