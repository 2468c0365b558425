import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { JetStreamClient, NatsConnection } from 'nats';
import { describe, expect, it } from 'vitest';
import { BusOverflowError } from '../errors.js';
import { createOutbox, type OutboxLimits } from './outbox.js';

const LIMITS: OutboxLimits = {
  maxHeldEvents: 100_000,
  maxHeldBytes: 1 << 30,
  ackTimeoutMs: 1000,
  retryMs: 10,
};

/** An outbox over a connection that records what it publishes (core NATS only). */
function recordingOutbox(limits: Partial<OutboxLimits> = {}) {
  const published: string[] = [];
  const decoder = new TextDecoder();
  const nc = {
    publish(subject: string, payload: Uint8Array) {
      published.push(`${subject} ${decoder.decode(payload)}`);
    },
  } as unknown as NatsConnection;
  const outbox = createOutbox({
    nc,
    js: {} as JetStreamClient,
    subjectPrefix: 'p.',
    limits: { ...LIMITS, ...limits },
    report: () => undefined,
    covers: () => false,
    ensureStream: () => Promise.resolve(),
  });
  return { outbox, published };
}

/** One JetStream publish awaiting its acknowledgement, which the test gives or fails. */
interface Pending {
  text: string;
  ack: () => void;
  fail: (err: Error) => void;
}

/**
 * An outbox over a JetStream that keeps every subject and acknowledges only when told: `pending`
 * lists each publish in order (a publish sent again is listed again). It keeps no payload: `sent`
 * holds a weak reference to each, to see what the outbox itself retains.
 */
function jetStreamOutbox(limits: Partial<OutboxLimits> = {}) {
  const pending: Pending[] = [];
  const sent: WeakRef<Uint8Array>[] = [];
  const decoder = new TextDecoder();
  const js = {
    publish(subject: string, payload: Uint8Array) {
      sent.push(new WeakRef(payload));
      const text = `${subject} ${decoder.decode(payload)}`;
      return new Promise((resolve, reject) => {
        pending.push({
          text,
          ack: () => {
            resolve({});
          },
          fail: reject,
        });
      });
    },
  } as unknown as JetStreamClient;
  const outbox = createOutbox({
    nc: {} as NatsConnection,
    js,
    subjectPrefix: 'p.',
    limits: { ...LIMITS, ...limits },
    report: () => undefined,
    covers: () => true,
    ensureStream: () => Promise.resolve(),
  });
  return { outbox, pending, sent };
}

/** Each publish's outcome so far: `undefined` while pending, null once taken, else its error. */
function outcomes(published: Promise<void>[]) {
  const settled: unknown[] = published.map(() => undefined);
  published.forEach((publish, n) => {
    publish.then(
      () => (settled[n] = null),
      (err: unknown) => (settled[n] = err),
    );
  });
  return settled;
}

/** Lets every callback already due run (acknowledgements, the outbox's reactions to them). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** The collector, reachable once V8 is told to expose it (a flag it reads at any time). */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('the NATS outbox', () => {
  it('holds what is published while the connection is down and sends it all, in order, once back', async () => {
    const { outbox, published } = recordingOutbox();
    outbox.connectionLost();
    // Enough that the queue compacts itself while it is sent.
    const taken = range(5000).map((n) => outbox.push('a', String(n)));
    expect(published).toEqual([]);
    expect(outbox.held().events).toBe(5000);
    outbox.connectionBack();
    await Promise.all(taken);
    expect(published).toEqual(range(5000).map((n) => `p.a ${String(n)}`));
    expect(outbox.held()).toEqual({ events: 0, bytes: 0 });
    expect(outbox.stalledSince()).toBeNull();
  });

  it('past its bound drops the oldest, and announces the subjects once back', async () => {
    const { outbox, published } = recordingOutbox({ maxHeldEvents: 3 });
    outbox.connectionLost();
    const outcomes = ['a', 'b', 'a', 'c', 'c'].map((subject, n) =>
      outbox.push(subject, String(n)).then(
        () => null,
        (err: unknown) => err,
      ),
    );
    outbox.connectionBack();
    const settled = await Promise.all(outcomes);
    expect(settled.map((outcome) => outcome instanceof BusOverflowError)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    await expect.poll(() => published.length).toBe(4);
    expect(published.slice(0, 3)).toEqual(['p.a 2', 'p.c 3', 'p.c 4']);
    expect(published[3]).toMatch(/^p\._bus\.lost .*"subjects":\["a","b"\]/);
  });

  it('refuses what is pushed after close, and rejects what it still held', async () => {
    const { outbox } = recordingOutbox();
    outbox.connectionLost();
    const held = outbox.push('a', 'x').then(
      () => null,
      (err: unknown) => (err as Error).name,
    );
    await outbox.close(10);
    expect(await held).toBe('BusClosedError');
    await expect(outbox.push('a', 'y')).rejects.toThrow('the bus is closed');
  });

  it('neither refuses nor drops what waits for a slow acknowledgement while NATS takes events', async () => {
    const { outbox, pending } = jetStreamOutbox({ maxHeldEvents: 1000 });
    const settled = outcomes(range(5000).map((n) => outbox.push('a', String(n))));
    await settle();
    // All sent, none refused: in flight is not held.
    expect(pending).toHaveLength(5000);
    expect(settled.every((outcome) => outcome === undefined)).toBe(true);
    expect(outbox.stalledSince()).toBeNull();
    for (const publish of pending) publish.ack();
    await settle();
    expect(settled.every((outcome) => outcome === null)).toBe(true);
    expect(outbox.held()).toEqual({ events: 0, bytes: 0 });
    // Nothing was lost, so nothing is announced.
    expect(pending.some((publish) => publish.text.startsWith('p._bus.lost'))).toBe(false);
  });

  it('sends again an event whose acknowledgement fails after later ones were sent', async () => {
    const { outbox, pending } = jetStreamOutbox({ maxHeldEvents: 2 });
    const settled = outcomes(['0', '1', '2'].map((text) => outbox.push('a', text)));
    await settle();
    expect(pending.map((publish) => publish.text)).toEqual(['p.a 0', 'p.a 1', 'p.a 2']);
    expect(settled).toEqual([undefined, undefined, undefined]);
    pending[1]?.ack();
    pending[2]?.ack();
    pending[0]?.fail(new Error('timeout'));
    await settle();
    expect(outbox.stalledSince()).not.toBeNull();
    expect(settled).toEqual([undefined, null, null]);
    // Sent again once NATS answers, and taken then.
    await expect.poll(() => pending.length).toBe(4);
    expect(pending[3]?.text).toBe('p.a 0');
    pending[3]?.ack();
    await settle();
    expect(settled).toEqual([null, null, null]);
    expect(outbox.stalledSince()).toBeNull();
    expect(outbox.held()).toEqual({ events: 0, bytes: 0 });
  });

  it('once acknowledgements fail, drops the oldest past its bound and announces their subjects', async () => {
    const { outbox, pending } = jetStreamOutbox({ maxHeldEvents: 3 });
    const subjects = ['a', 'b', 'a', 'c', 'c'];
    const settled = outcomes(subjects.map((subject, n) => outbox.push(subject, String(n))));
    await settle();
    expect(pending).toHaveLength(5);
    expect(settled.every((outcome) => outcome === undefined)).toBe(true);
    for (const publish of pending) publish.fail(new Error('timeout'));
    await settle();
    // Now held, past the bound: the two oldest are dropped.
    expect(settled.map((outcome) => outcome instanceof BusOverflowError)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(outbox.held().events).toBe(3);
    // The oldest kept is sent again alone, then the rest, then the notice of the loss.
    await expect.poll(() => pending.length).toBe(6);
    expect(pending[5]?.text).toBe('p.a 2');
    pending[5]?.ack();
    await expect.poll(() => pending.length).toBe(9);
    expect(pending.slice(6, 8).map((publish) => publish.text)).toEqual(['p.c 3', 'p.c 4']);
    expect(pending[8]?.text).toMatch(/^p\._bus\.lost .*"subjects":\["a","b"\]/);
    for (const publish of pending.slice(6)) publish.ack();
    await settle();
    expect(settled.slice(2)).toEqual([null, null, null]);
    expect(outbox.held()).toEqual({ events: 0, bytes: 0 });
  });

  it('lets go of what was taken while an older event still waits for its acknowledgement', async () => {
    const gc = collector();
    const { outbox, pending, sent } = jetStreamOutbox();
    const first = outbox.push('a', 'first');
    const rest = range(3000).map((n) => outbox.push('a', `${String(n)} ${'x'.repeat(1000)}`));
    await settle();
    for (const publish of pending.slice(1)) publish.ack();
    await Promise.all(rest);
    // One event is not yet taken, and only its bytes count.
    expect(outbox.held()).toEqual({ events: 1, bytes: 'first'.length });
    await settle();
    gc();
    // Only the payload of the event still waiting is kept.
    expect(sent.filter((ref) => ref.deref() !== undefined)).toHaveLength(1);
    expect(sent[0]?.deref()).toBeDefined();
    pending[0]?.ack();
    await first;
    expect(outbox.held()).toEqual({ events: 0, bytes: 0 });
  });

  it('when a notice of a loss is dropped too, the next one names every subject', async () => {
    const { outbox, pending } = jetStreamOutbox({ maxHeldEvents: 1 });
    outbox.connectionLost();
    const settled = outcomes([outbox.push('a', '0'), outbox.push('b', '1')]);
    outbox.connectionBack();
    await expect.poll(() => pending.length).toBe(1);
    pending[0]?.ack();
    // The notice of the loss on a goes out, and more after it.
    await expect.poll(() => pending.length).toBe(2);
    expect(pending[1]?.text).toMatch(/^p\._bus\.lost .*"subjects":\["a"\]/);
    const later = outcomes([outbox.push('c', '2'), outbox.push('d', '3')]);
    await settle();
    pending[1]?.fail(new Error('timeout'));
    await settle();
    // Held now, past the bound: the notice and c are dropped.
    expect([...settled, ...later].map((outcome) => outcome instanceof BusOverflowError)).toEqual([
      true,
      false,
      true,
      false,
    ]);
    await expect.poll(() => pending.length).toBe(5);
    expect(pending[4]?.text).toBe('p.d 3');
    pending[4]?.ack();
    await expect.poll(() => pending.length).toBe(6);
    expect(pending[5]?.text).toMatch(/^p\._bus\.lost .*"subjects":null/);
  });
});
