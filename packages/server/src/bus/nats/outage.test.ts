/**
 * A NATS bus while its server goes away and comes back: a private nats-server (JetStream, its
 * store on disk) killed with SIGKILL and started again, and a subscriber cut off alone behind a
 * TCP proxy. What was published is delivered once each, in order, or the subscriber is told.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  privateServersAvailable,
  startPrivateNats,
  type PrivateNats,
} from '../../../test/support/privateServers.js';
import { uniqueSubjectPrefix } from '../../../test/support/nats.js';
import { startTcpProxy, type TcpProxy } from '../../../test/support/tcpProxy.js';
import { BusOverflowError } from '../errors.js';
import type { BusEvent, BusGap, EventBus } from '../types.js';
import { createNatsBus, type NatsBusOptions } from './index.js';

const event = (n: number): BusEvent => ({ type: 'E', topic: 't', data: n, publishedAt: 0 });
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
/** How long a test waits for what it expects to arrive. */
const WAIT = { timeout: 15_000, interval: 20 };
const KEPT = { subjects: ['kept.>'], keepMs: 60_000 };

describe.skipIf(!privateServersAvailable)('a NATS bus across outages', () => {
  let nats: PrivateNats;
  let proxy: TcpProxy | null = null;
  const buses: EventBus[] = [];

  beforeAll(async () => {
    nats = await startPrivateNats();
  }, 30_000);
  afterEach(async () => {
    await nats.start();
    proxy?.restore();
    await Promise.all(buses.splice(0).map((bus) => bus.close().catch(() => undefined)));
    await proxy?.close();
    proxy = null;
  });
  afterAll(async () => {
    await nats.remove();
  });

  const open = async (options: Partial<NatsBusOptions> & { subjectPrefix: string }) => {
    const bus = await createNatsBus({ servers: nats.url, reconnectWaitMs: 100, ...options });
    buses.push(bus);
    return bus;
  };
  const recorder = async (bus: EventBus, subject: string) => {
    const received: number[] = [];
    const gaps: BusGap[] = [];
    await bus.subscribe(subject, (e) => void received.push(e.data as number), {
      onGap: (gap) => gaps.push(gap),
    });
    return { received, gaps };
  };
  /** Publishes `from`…`to`-1, a few ms apart; the promises settle when NATS took each. */
  const publishRange = async (bus: EventBus, subject: string, [from, to]: [number, number]) => {
    const taken: Promise<void>[] = [];
    for (const n of range(from, to)) {
      taken.push(bus.publish(subject, event(n)));
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    return taken;
  };

  it('delivers what was published while the server restarted, once each and in order', async () => {
    const subjectPrefix = uniqueSubjectPrefix('restart');
    const publisher = await open({ subjectPrefix, history: KEPT });
    const subscriber = await open({ subjectPrefix, history: KEPT });
    const { received, gaps } = await recorder(subscriber, 'kept.a');

    const before = await publishRange(publisher, 'kept.a', [0, 20]);
    await Promise.all(before);
    await expect.poll(() => received.length, WAIT).toBe(20);
    await nats.stop('kill');
    const during = await publishRange(publisher, 'kept.a', [20, 40]);
    await nats.start();
    const after = await publishRange(publisher, 'kept.a', [40, 60]);
    // Every publish is taken once the server is back: none was refused or dropped.
    await Promise.all([...during, ...after]);

    await expect.poll(() => received.length, WAIT).toBeGreaterThanOrEqual(60);
    await subscriber.ping();
    expect(received).toEqual(range(0, 60));
    expect(gaps).toEqual([]);
  });

  it('hands over thousands of events held through a restart, in order', async () => {
    const subjectPrefix = uniqueSubjectPrefix('many');
    const publisher = await open({ subjectPrefix, history: KEPT });
    const subscriber = await open({ subjectPrefix, history: KEPT });
    const { received, gaps } = await recorder(subscriber, 'kept.many');
    await nats.stop('kill');
    const held = range(0, 3000).map((n) => publisher.publish('kept.many', event(n)));
    await nats.start();
    await Promise.all(held);
    await expect.poll(() => received.length, WAIT).toBeGreaterThanOrEqual(3000);
    await subscriber.ping();
    expect(received).toEqual(range(0, 3000));
    expect(gaps).toEqual([]);
  });

  it('gives a subscriber cut off alone what the history kept meanwhile, then what came live', async () => {
    const subjectPrefix = uniqueSubjectPrefix('cut');
    proxy = await startTcpProxy(nats.port);
    const publisher = await open({ subjectPrefix, history: KEPT });
    const subscriber = await open({
      subjectPrefix,
      history: KEPT,
      servers: `nats://127.0.0.1:${String(proxy.port)}`,
    });
    const { received, gaps } = await recorder(subscriber, 'kept.b');
    // A subject the history does not keep: the subscriber is told it may have missed some.
    const notKept = await recorder(subscriber, 'loose.b');

    await Promise.all(await publishRange(publisher, 'kept.b', [0, 10]));
    await expect.poll(() => received.length, WAIT).toBe(10);
    proxy.cut();
    // Taken by the stream while the subscriber hears nothing.
    await Promise.all(await publishRange(publisher, 'kept.b', [10, 30]));
    await publisher.publish('loose.b', event(0));
    expect(received).toHaveLength(10);
    proxy.restore();
    const live = publishRange(publisher, 'kept.b', [30, 50]);
    await Promise.all(await live);

    await expect.poll(() => received.length, WAIT).toBeGreaterThanOrEqual(50);
    await subscriber.ping();
    expect(received).toEqual(range(0, 50));
    expect(gaps).toEqual([]);
    await expect
      .poll(() => notKept.gaps, WAIT)
      .toEqual([{ subject: 'loose.b', reason: 'the bus keeps no history of the subject' }]);
    expect(notKept.received).toEqual([]);
  });

  it('without a history, tells every subscriber of a restart instead of staying silent', async () => {
    const subjectPrefix = uniqueSubjectPrefix('nohistory');
    const publisher = await open({ subjectPrefix });
    const subscriber = await open({ subjectPrefix });
    const { received, gaps } = await recorder(subscriber, 'plain.*');
    await publisher.publish('plain.a', event(1));
    await expect.poll(() => received, WAIT).toEqual([1]);
    expect(gaps).toEqual([]);

    await nats.stop('kill');
    await nats.start();
    await expect
      .poll(() => gaps, WAIT)
      .toEqual([{ subject: 'plain.*', reason: 'the bus keeps no history of the subject' }]);
    // Delivery goes on.
    await publisher.publish('plain.b', event(2));
    await expect.poll(() => received, WAIT).toEqual([1, 2]);
  });

  it('past its bound drops the oldest held events, refuses their publish and says so', async () => {
    const subjectPrefix = uniqueSubjectPrefix('bound');
    const publisher = await open({ subjectPrefix, history: KEPT, outbox: { maxHeldEvents: 5 } });
    const subscriber = await open({ subjectPrefix, history: KEPT });
    const { received, gaps } = await recorder(subscriber, 'kept.c');
    const other = await recorder(subscriber, 'kept.other');

    await nats.stop('kill');
    const outcomes: Promise<unknown>[] = [];
    for (const n of range(0, 8)) {
      // What each publish ended with: null when taken, else why not.
      outcomes.push(
        publisher.publish('kept.c', event(n)).then(
          () => null,
          (err: unknown) => err,
        ),
      );
    }
    await nats.start();
    const settled = await Promise.all(outcomes);
    expect(settled.map((outcome) => outcome instanceof BusOverflowError)).toEqual([
      ...range(0, 3).map(() => true),
      ...range(3, 8).map(() => false),
    ]);
    expect(settled.slice(3)).toEqual(range(3, 8).map(() => null));

    await expect.poll(() => received, WAIT).toEqual(range(3, 8));
    await expect.poll(() => gaps.length, WAIT).toBe(1);
    expect(gaps[0]?.subject).toBe('kept.c');
    // A subject that lost nothing hears nothing.
    await subscriber.ping();
    expect(other.gaps).toEqual([]);
  });

  it('holds what the history does not store, and says so on ping, until it stores again', async () => {
    const subjectPrefix = uniqueSubjectPrefix('nojs');
    const publisher = await open({ subjectPrefix, history: KEPT });
    const subscriber = await open({ subjectPrefix, history: KEPT });
    const { received } = await recorder(subscriber, 'kept.d');
    await publisher.publish('kept.d', event(0));
    await expect.poll(() => received, WAIT).toEqual([0]);

    // Back without JetStream: connected, but nothing is stored.
    await nats.stop('kill');
    await nats.startWithoutJetStream();
    const held = [publisher.publish('kept.d', event(1)), publisher.publish('kept.d', event(2))];
    await expect
      .poll(
        () =>
          publisher.ping().then(
            () => 'ok',
            (err: unknown) => (err as Error).message,
          ),
        WAIT,
      )
      .toMatch(/^NATS has not stored an event since .*: 2 held$/);

    await nats.stop('kill');
    await nats.start();
    await Promise.all(held);
    await publisher.ping();
    await expect.poll(() => received.length, WAIT).toBeGreaterThanOrEqual(3);
    await subscriber.ping();
    expect(received).toEqual([0, 1, 2]);
  });
});
