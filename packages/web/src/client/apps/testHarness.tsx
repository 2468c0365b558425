/**
 * The apps' component tests run the real client context (ClientProvider, GatewayClient, the
 * store and its reducers) over a fake WebSocket and a stubbed fetch: a test delivers gateway
 * frames as the server would and reads the requests the pages sent.
 */
import { act, render, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { APIChannel } from 'discord-api-types/v10';
import { vi } from 'vitest';
import { setToken } from '../../lib/session.js';
import { ClientProvider, useClient } from '../context.js';

export class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static instances: FakeSocket[] = [];
  readyState = FakeSocket.OPEN;
  sent: { op: number; d: unknown }[] = [];
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  seq = 0;
  readonly url: string;

  constructor(url: string) {
    this.url = url;
    FakeSocket.instances.push(this);
  }

  send(data: string) {
    this.sent.push(JSON.parse(data) as { op: number; d: unknown });
  }

  close() {
    this.readyState = FakeSocket.CLOSED;
  }

  /** Delivers a dispatch as the server sends it. */
  dispatch(t: string, d: unknown) {
    this.seq += 1;
    this.onmessage?.({ data: JSON.stringify({ op: 0, t, s: this.seq, d }) });
  }
}

/** One request a page sent: method, API path (after /api/v10) and JSON or multipart body. */
export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
  files: File[];
}

export type Responder = (request: SentRequest) => { status: number; body?: unknown } | undefined;

/** Stubs fetch: GET /gateway answers, then `respond` (204 when it returns nothing). */
export function stubApi(respond: Responder = () => undefined) {
  const requests: SentRequest[] = [];
  const fetch = vi.fn((input: string | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://client.test');
    const path = url.pathname.replace(/^\/api\/v10/, '') + url.search;
    let body: unknown = undefined;
    const files: File[] = [];
    if (init.body instanceof FormData) {
      const payload = init.body.get('payload_json');
      body = typeof payload === 'string' ? JSON.parse(payload) : undefined;
      for (const [key, value] of init.body.entries()) {
        if (key.startsWith('files[') && value instanceof File) files.push(value);
      }
    } else if (typeof init.body === 'string') {
      body = JSON.parse(init.body);
    }
    const request = { method: init.method ?? 'GET', path, body, files };
    if (path === '/gateway') {
      return Promise.resolve(
        new Response(JSON.stringify({ url: 'ws://gateway.test' }), { status: 200 }),
      );
    }
    requests.push(request);
    const answer = respond(request) ?? { status: 204 };
    return Promise.resolve(
      answer.status === 204
        ? new Response(null, { status: 204 })
        : new Response(JSON.stringify(answer.body), {
            status: answer.status,
            headers: { 'content-type': 'application/json' },
          }),
    );
  });
  vi.stubGlobal('fetch', fetch);
  vi.stubGlobal('WebSocket', FakeSocket);
  FakeSocket.instances = [];
  return requests;
}

export const ME = {
  id: '100',
  username: 'ann',
  global_name: 'Ann',
  discriminator: '0',
  avatar: null,
};
export const GUILD_ID = '200';
export const CHANNEL = { id: '300', type: 0, name: 'general', guild_id: GUILD_ID, position: 0 };
/** The channel as components take it (the fixture above is what GUILD_CREATE carries). */
export const TEXT_CHANNEL = CHANNEL as unknown as APIChannel;

/** Renders `ui` inside the real client context, with READY and one guild delivered. */
export async function renderClient(ui: ReactNode, guild: Record<string, unknown> = {}) {
  setToken('session-token');
  let client: ReturnType<typeof useClient> | undefined;
  function Capture() {
    client = useClient();
    return null;
  }
  const view = render(
    <ClientProvider token="session-token">
      <Capture />
      {ui}
    </ClientProvider>,
  );
  await waitFor(() => {
    if (FakeSocket.instances.length === 0) throw new Error('no socket yet');
  });
  const socket = FakeSocket.instances[0];
  if (socket === undefined) throw new Error('no gateway socket');
  act(() => {
    socket.dispatch('READY', {
      v: 10,
      user: ME,
      session_id: 'session-1',
      resume_gateway_url: 'ws://gateway.test',
      guilds: [],
      private_channels: [],
    });
    socket.dispatch('GUILD_CREATE', {
      id: GUILD_ID,
      name: 'Guild',
      roles: [{ id: GUILD_ID, name: '@everyone', permissions: '0', position: 0, color: 0 }],
      channels: [CHANNEL],
      members: [{ user: ME, roles: [], joined_at: '2026-01-01T00:00:00Z' }],
      ...guild,
    });
  });
  if (client === undefined) throw new Error('no client context');
  return { view, socket, client };
}

/** A command index with one app. */
export function commandIndex(commands: Record<string, unknown>[]) {
  return {
    applications: [{ id: '900', name: 'Echo Bot', icon: null, description: '', bot_id: '901' }],
    application_commands: commands.map((c, i) => ({
      id: String(950 + i),
      application_id: '900',
      version: '1',
      type: 1,
      description: 'A command',
      default_member_permissions: null,
      ...c,
    })),
    version: '1',
  };
}

/** The POST /interactions bodies sent so far. */
export function interactionsSent(requests: readonly SentRequest[]) {
  return requests
    .filter((r) => r.method === 'POST' && r.path === '/interactions')
    .map(
      (r) => r.body as Record<string, unknown> & { nonce: string; data: Record<string, unknown> },
    );
}
