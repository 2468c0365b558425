import { describe, expect, it } from 'vitest';
import type { BusEvent } from '../bus/index.js';
import { MemoryBus } from '../bus/memory/index.js';
import { manualClock } from '../domain/clock.js';
import {
  ALL_DISPATCHES,
  createBusDispatcher,
  type AnyDispatch,
  type DispatchEnvelope,
} from './dispatcher.js';

describe('createBusDispatcher', () => {
  const setup = async () => {
    const bus = new MemoryBus();
    const seen: { subject: string; event: BusEvent }[] = [];
    await bus.subscribe(ALL_DISPATCHES, (event, subject) => {
      seen.push({ subject, event });
    });
    const failures: AnyDispatch[] = [];
    const dispatcher = createBusDispatcher<AnyDispatch>({
      bus,
      clock: manualClock(1_700_000_000_000),
      onError: (_err, event) => failures.push(event),
    });
    return { bus, seen, failures, dispatcher };
  };

  it("carries the trace of the batch's request on every subject, and none without one", async () => {
    const bus = new MemoryBus();
    const seen: BusEvent[] = [];
    await bus.subscribe(ALL_DISPATCHES, (event) => {
      seen.push(event);
    });
    const traces = ['00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', undefined];
    const traced = createBusDispatcher<AnyDispatch>({
      bus,
      clock: manualClock(0),
      onError: () => undefined,
      traceparent: () => traces.shift(),
    });
    const event = { type: 'GUILD_MEMBER_ADD', guildId: '1', userIds: ['5'], data: {} };
    traced.dispatch(event);
    traced.dispatch(event);
    createBusDispatcher<AnyDispatch>({
      bus,
      clock: manualClock(0),
      onError: () => undefined,
    }).dispatch(event);
    await bus.close();
    expect(seen.map((e) => e.trace)).toEqual([
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(seen.some((e) => 'trace' in e && e.trace === undefined)).toBe(false);
  });

  it('publishes a guild event once, on the guild subject, with its channel', async () => {
    const { bus, seen, dispatcher } = await setup();
    dispatcher.dispatch({
      type: 'MESSAGE_CREATE',
      guildId: '1',
      channelId: '2',
      data: { id: '3' },
    });
    await bus.close();
    expect(seen).toEqual([
      {
        subject: 'dispatch.guild.1',
        event: {
          type: 'MESSAGE_CREATE',
          topic: 'dispatch.guild.1',
          publishedAt: 1_700_000_000_000,
          data: {
            id: expect.any(String) as string,
            guildId: '1',
            channelId: '2',
            userIds: [],
            data: { id: '3' },
          },
        },
      },
    ]);
  });

  it('publishes a user event on each recipient subject, in order', async () => {
    const { bus, seen, dispatcher } = await setup();
    dispatcher.dispatch([
      { type: 'USER_UPDATE', guildId: null, userIds: ['5', '6'], data: { id: '5' } },
      { type: 'TYPING_START', guildId: null, channelId: '9', userIds: ['6'], data: {} },
    ]);
    await bus.close();
    expect(seen.map(({ subject, event }) => `${event.type}@${subject}`)).toEqual([
      'USER_UPDATE@dispatch.user.5',
      'USER_UPDATE@dispatch.user.6',
      'TYPING_START@dispatch.user.6',
    ]);
  });

  it('publishes a guild event naming users on their subjects too, under one id', async () => {
    const { bus, seen, dispatcher } = await setup();
    dispatcher.dispatch([
      { type: 'GUILD_MEMBER_ADD', guildId: '1', userIds: ['7'], data: {} },
      { type: 'GUILD_MEMBER_REMOVE', guildId: '1', data: {} },
    ]);
    await bus.close();
    expect(seen.map(({ subject, event }) => `${event.type}@${subject}`)).toEqual([
      'GUILD_MEMBER_ADD@dispatch.guild.1',
      'GUILD_MEMBER_ADD@dispatch.user.7',
      'GUILD_MEMBER_REMOVE@dispatch.guild.1',
    ]);
    const ids = seen.map(({ event }) => (event.data as DispatchEnvelope).id);
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).not.toBe(ids[0]);
  });

  it('carries the application of a game’s user event; none when not scoped', async () => {
    const { bus, seen, dispatcher } = await setup();
    dispatcher.dispatch([
      { type: 'LOBBY_UPDATE', guildId: null, userIds: ['5'], applicationId: '7', data: {} },
      { type: 'USER_UPDATE', guildId: null, userIds: ['5'], data: {} },
    ]);
    await bus.close();
    const envelopes = seen.map((s) => s.event.data as DispatchEnvelope);
    expect(envelopes[0]?.applicationId).toBe('7');
    expect(envelopes[1]).not.toHaveProperty('applicationId');
  });

  it('reports a publish that fails instead of throwing at the caller', async () => {
    const { bus, failures, dispatcher } = await setup();
    await bus.close();
    const event = { type: 'GUILD_UPDATE', guildId: '1', data: {} };
    expect(() => {
      dispatcher.dispatch(event);
    }).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(failures).toEqual([event]);
  });
});
