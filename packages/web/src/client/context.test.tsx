import { afterEach, describe, expect, it } from 'vitest';
import { GatewayClient } from '../lib/gateway.js';
import { getToken, setToken } from '../lib/session.js';
import { createStore } from '../lib/store.js';
import { connectStore } from './context.js';
import { initialState } from './state.js';
import { ME } from './test/render.js';

afterEach(() => {
  setToken(null);
});

/** A gateway whose dispatches the test emits (the socket is never opened). */
class FakeGateway extends GatewayClient {
  readonly sent: { op: number; d: unknown }[] = [];
  override send(op: number, d: unknown): void {
    this.sent.push({ op, d });
  }
  dispatch(type: string, data: unknown): void {
    (this as unknown as { emit: (t: string, d: unknown) => void }).emit(type, data);
  }
}

describe('connectStore', () => {
  it('feeds dispatches to the state and says the user is online after READY', () => {
    const gateway = new FakeGateway('t');
    const store = createStore(initialState);
    const stop = connectStore(gateway, store);
    gateway.dispatch('READY', { user: ME, session_id: 's' });
    expect(store.get().me?.id).toBe(ME.id);
    expect(gateway.sent).toEqual([
      { op: 3, d: { since: null, activities: [], status: 'online', afk: false } },
    ]);
    gateway.dispatch('GUILD_CREATE', { id: '1', name: 'g', roles: [], features: [], large: true });
    expect(gateway.sent.slice(1).map((f) => f.op)).toEqual([43, 8]);
    // Op 43 asks for the voice channels' statuses and call start times (the call timer).
    expect(gateway.sent[1]?.d).toEqual({ guild_id: '1', fields: ['status', 'voice_start_time'] });
    stop();
    gateway.dispatch('USER_UPDATE', { ...ME, username: 'changed' });
    expect(store.get().me?.username).toBe(ME.username);
  });

  it('logs out when the gateway refuses the token', () => {
    setToken('old');
    const gateway = new FakeGateway('old');
    const stop = connectStore(gateway, createStore(initialState));
    gateway.dispatch('CLOSED', { code: 4004, reason: 'Authentication failed.' });
    expect(getToken()).toBeNull();
    stop();
  });
});
