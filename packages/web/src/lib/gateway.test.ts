import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GatewayClient, Op } from './gateway.js';

/** The browser's WebSocket, as far as GatewayClient uses it. */
class FakeSocket {
  static readonly OPEN = 1;
  static instances: FakeSocket[] = [];
  readonly url: string;
  readonly sent: { op: number; d: unknown }[] = [];
  readyState = FakeSocket.OPEN;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;

  constructor(url: URL) {
    this.url = String(url);
    FakeSocket.instances.push(this);
  }

  send(text: string) {
    this.sent.push(JSON.parse(text) as { op: number; d: unknown });
  }

  close() {
    this.readyState = 3;
  }

  /** The server's side: a frame to the client, or a close. */
  frame(frame: { op: number; d: unknown; s?: number; t?: string }) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }

  serverClose(code: number) {
    this.readyState = 3;
    this.onclose?.({ code, reason: '' });
  }
}

beforeEach(() => {
  FakeSocket.instances = [];
  vi.useFakeTimers();
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const latest = () => {
  const socket = FakeSocket.instances.at(-1);
  if (socket === undefined) throw new Error('no socket');
  return socket;
};
const hello = () => {
  latest().frame({ op: Op.Hello, d: { heartbeat_interval: 45_000 } });
};

describe('GatewayClient', () => {
  it('resumes after a drop, and identifies afresh after 4007 (invalid seq)', async () => {
    const gateway = new GatewayClient('token', { url: 'ws://gateway.test/gateway' });
    await gateway.connect();
    hello();
    expect(latest().sent.at(-1)?.op).toBe(Op.Identify);
    latest().frame({
      op: Op.Dispatch,
      t: 'READY',
      s: 1,
      d: { session_id: 'one', resume_gateway_url: 'ws://gateway.test/resume' },
    });

    latest().serverClose(1006);
    await vi.runOnlyPendingTimersAsync();
    expect(latest().url).toMatch(/^ws:\/\/gateway\.test\/resume\?v=10/);
    hello();
    expect(latest().sent.at(-1)).toEqual({
      op: Op.Resume,
      d: { token: 'token', session_id: 'one', seq: 1 },
    });

    latest().serverClose(4007);
    await vi.runOnlyPendingTimersAsync();
    expect(latest().url).toMatch(/^ws:\/\/gateway\.test\/gateway\?v=10/);
    hello();
    expect(latest().sent.at(-1)?.op).toBe(Op.Identify);
    gateway.close();
  });
});
