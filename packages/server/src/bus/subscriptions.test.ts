import { describe, expect, it } from 'vitest';
import { BusClosedError, type BusEvent } from './index.js';
import { MemoryBus } from './memory/index.js';
import { createSubjectSubscriptions } from './subscriptions.js';

const event = (type: string): BusEvent => ({ type, topic: 't', data: null, publishedAt: 0 });

function setup() {
  const bus = new MemoryBus();
  const seen: string[] = [];
  const subscriptions = createSubjectSubscriptions({
    bus,
    handler: (e, subject) => {
      seen.push(`${e.type}@${subject}`);
    },
  });
  /** Publishes, then waits for the memory bus to deliver. */
  const publish = async (subject: string, type: string) => {
    await bus.publish(subject, event(type));
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { bus, seen, subscriptions, publish };
}

describe('createSubjectSubscriptions', () => {
  it('watches a subject while it has holders, and only it', async () => {
    const { seen, subscriptions, publish } = setup();
    await subscriptions.acquire('dispatch.guild.1');
    await subscriptions.acquire('dispatch.guild.1');
    await publish('dispatch.guild.1', 'one');
    await publish('dispatch.guild.2', 'elsewhere');
    subscriptions.release('dispatch.guild.1');
    expect(subscriptions.watches('dispatch.guild.1')).toBe(true);
    await publish('dispatch.guild.1', 'two');
    subscriptions.release('dispatch.guild.1');
    expect(subscriptions.watches('dispatch.guild.1')).toBe(false);
    await publish('dispatch.guild.1', 'after');
    expect(seen).toEqual(['one@dispatch.guild.1', 'two@dispatch.guild.1']);
  });

  it('delivers once when a subject is let go and taken again before the bus answered', async () => {
    const { seen, subscriptions, publish } = setup();
    const first = subscriptions.acquire('dispatch.user.5');
    subscriptions.release('dispatch.user.5');
    const second = subscriptions.acquire('dispatch.user.5');
    await Promise.all([first, second]);
    await publish('dispatch.user.5', 'once');
    expect(seen).toEqual(['once@dispatch.user.5']);
    subscriptions.release('dispatch.user.5');
    await publish('dispatch.user.5', 'never');
    expect(seen).toEqual(['once@dispatch.user.5']);
  });

  it('rejects every holder when the bus refuses; their releases end the watch', async () => {
    const { bus, subscriptions } = setup();
    await bus.close();
    const holders = [
      subscriptions.acquire('dispatch.guild.3'),
      subscriptions.acquire('dispatch.guild.3'),
    ];
    for (const holder of holders) await expect(holder).rejects.toThrow(BusClosedError);
    subscriptions.release('dispatch.guild.3');
    expect(subscriptions.watches('dispatch.guild.3')).toBe(true);
    subscriptions.release('dispatch.guild.3');
    expect(subscriptions.watches('dispatch.guild.3')).toBe(false);
  });

  it('ends every subscription on close', async () => {
    const { seen, subscriptions, publish } = setup();
    await subscriptions.acquire('dispatch.guild.1');
    await subscriptions.acquire('dispatch.user.2');
    subscriptions.close();
    await publish('dispatch.guild.1', 'a');
    await publish('dispatch.user.2', 'b');
    expect(seen).toEqual([]);
    expect(subscriptions.watches('dispatch.guild.1')).toBe(false);
  });
});
