import { describe, expect, it } from 'vitest';
import { createLifecycle, type Component } from './lifecycle.js';

/** A part that writes its start and stop into `events`. */
function part(events: string[], name: string, withStart = true): Component {
  return {
    name,
    ...(withStart
      ? {
          start: () => {
            events.push(`start ${name}`);
          },
        }
      : {}),
    stop: async () => {
      await Promise.resolve();
      events.push(`stop ${name}`);
    },
  };
}

describe('createLifecycle', () => {
  it('starts the parts in order and stops them in reverse order', async () => {
    const events: string[] = [];
    const lifecycle = createLifecycle();
    lifecycle.add(part(events, 'storage', false));
    lifecycle.add(part(events, 'bus'));
    // A part with nothing to stop is started and left alone on close.
    lifecycle.add({
      name: 'cache',
      start: () => {
        events.push('start cache');
      },
    });
    lifecycle.add(part(events, 'gateway'));
    await lifecycle.start();
    await lifecycle.close();
    expect(events).toEqual([
      'start bus',
      'start cache',
      'start gateway',
      'stop gateway',
      'stop bus',
      'stop storage',
    ]);
  });

  it('starts only the parts added since the last start', async () => {
    const events: string[] = [];
    const lifecycle = createLifecycle();
    lifecycle.add(part(events, 'bus'));
    await lifecycle.start();
    lifecycle.add(part(events, 'gateway'));
    await lifecycle.start();
    expect(events).toEqual(['start bus', 'start gateway']);
  });

  it('runs every stop when one fails, then rejects with its error', async () => {
    const events: string[] = [];
    const reported: string[] = [];
    const lifecycle = createLifecycle((_err, name) => reported.push(name));
    lifecycle.add(part(events, 'storage', false));
    const failure = new Error('bus will not close');
    lifecycle.add({
      name: 'bus',
      stop: () => {
        throw failure;
      },
    });
    lifecycle.add(part(events, 'gateway', false));
    await expect(lifecycle.close()).rejects.toBe(failure);
    expect(events).toEqual(['stop gateway', 'stop storage']);
    expect(reported).toEqual(['bus']);
  });

  it('rejects with every failure when several stops fail', async () => {
    const lifecycle = createLifecycle();
    lifecycle.add({ name: 'a', stop: () => Promise.reject(new Error('a')) });
    lifecycle.add({ name: 'b', stop: () => Promise.reject(new Error('b')) });
    const err: unknown = await lifecycle.close().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AggregateError);
    expect((err as AggregateError).errors.map((e) => (e as Error).message)).toEqual(['b', 'a']);
  });

  it('stops each part once, however often it is closed', async () => {
    const events: string[] = [];
    const lifecycle = createLifecycle();
    lifecycle.add(part(events, 'bus', false));
    await Promise.all([lifecycle.close(), lifecycle.close()]);
    await lifecycle.close();
    expect(events).toEqual(['stop bus']);
    expect(() => {
      lifecycle.add(part(events, 'late', false));
    }).toThrow('late was added after the app closed');
  });

  it('stops no part that never started: a failed start, and those after it', async () => {
    const events: string[] = [];
    const lifecycle = createLifecycle();
    lifecycle.add(part(events, 'bus'));
    lifecycle.add({
      name: 'listener',
      start: () => Promise.reject(new Error('port taken')),
      stop: () => {
        events.push('stop listener');
      },
    });
    lifecycle.add(part(events, 'gateway'));
    await expect(lifecycle.start()).rejects.toThrow('port taken');
    await lifecycle.close();
    expect(events).toEqual(['start bus', 'stop bus']);
  });
});
