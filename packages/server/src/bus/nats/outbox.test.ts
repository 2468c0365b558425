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
});
