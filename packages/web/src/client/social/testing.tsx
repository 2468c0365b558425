/**
 * Test helpers of client/social: a gateway driven by hand, a state, users, the fake API, and a
 * component rendered in the client's context at a path.
 */
import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import type { APIUser } from 'discord-api-types/v10';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { GatewayClient } from '../../lib/gateway.js';
import { answerFetch, json } from '../../test/fetch.js';
import { createStore } from '../../lib/store.js';
import { ClientValueProvider } from '../context.js';
import { initialState, type ClientState } from '../state.js';

type Handler = (data: unknown, type: string) => void;

/**
 * The part of GatewayClient the reducers use (`on`, with '*' for every dispatch), and `dispatch`
 * to play a server's events.
 */
export function fakeGateway() {
  const handlers = new Map<string, Set<Handler>>();
  return {
    on(type: string, handler: Handler) {
      const set = handlers.get(type) ?? new Set<Handler>();
      handlers.set(type, set);
      set.add(handler);
      return () => set.delete(handler);
    },
    dispatch(type: string, data: unknown) {
      for (const key of [type, '*']) {
        for (const handler of handlers.get(key) ?? []) handler(data, type);
      }
    },
  };
}

/** The chat's initial state, logged in as ada, with what a test gives. */
export function socialState(overrides: Partial<ClientState> = {}): ClientState {
  return { ...initialState, me: user('10', 'ada'), ready: true, ...overrides };
}

export function user(id: string, username: string): APIUser {
  return { id, username, discriminator: '0', global_name: null, avatar: null };
}

/** One answer of the fake API: a status and a JSON body (none for 204). */
export interface Answer {
  status: number;
  body?: unknown;
}

/**
 * Stubs `fetch` with answers by "METHOD /path" (the path under /api/v10, without the query), and
 * records every call with its parsed JSON body. A request nobody answers fails the test.
 */
export function fakeApi(routes: Record<string, Answer | (() => Answer)>) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  answerFetch((url, init) => {
    const method = init.method ?? 'GET';
    const path = new URL(url, 'http://localhost').pathname.replace(/^\/api\/v10/, '');
    calls.push({
      method,
      path,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    });
    const route = routes[`${method} ${path}`];
    if (route === undefined) throw new Error(`unexpected ${method} ${path}`);
    const answer = typeof route === 'function' ? route() : route;
    return json(answer.status, answer.body ?? {});
  });
  return calls;
}

/**
 * Renders `ui` inside the client's context (a store from `state`, a gateway never connected) and
 * a router at `path` that records where the page goes.
 */
export function renderInClient(ui: ReactNode, options: { path: string; state: ClientState }) {
  const store = createStore(options.state);
  const location = memoryLocation({ path: options.path, record: true });
  render(
    <ClientValueProvider value={{ store, gateway: new GatewayClient('test-token') }}>
      <Router hook={location.hook}>{ui}</Router>
    </ClientValueProvider>,
  );
  return { store, location };
}
