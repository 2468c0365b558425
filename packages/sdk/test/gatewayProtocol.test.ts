/**
 * The client's gateway state machine against a scripted gateway: a real `ws` server on a loopback
 * port that plays the platform's side frame by frame, for the cases the real server does not
 * produce on demand (a lost heartbeat ACK, 4009, INVALID_SESSION, op 7, a garbled frame).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  AuthorizationTokenType,
  Client,
  ClientError,
  ClientStatus,
  LoggingSeverity,
} from '../src/node.js';
import { eventually } from './support.js';

interface Frame {
  op: number;
  d: unknown;
}

/** A gateway whose every connection is handed to the test, with the frames it received. */
class ScriptedGateway {
  readonly connections: { socket: WebSocket; frames: Frame[] }[] = [];
  readonly #http: Server;
  readonly #wss: WebSocketServer;

  private constructor(http: Server) {
    this.#http = http;
    this.#wss = new WebSocketServer({ server: http });
    this.#wss.on('connection', (socket) => {
      const connection = { socket, frames: [] as Frame[] };
      this.connections.push(connection);
      socket.on('message', (raw) => {
        const frame = JSON.parse((raw as Buffer).toString('utf8')) as Frame;
        connection.frames.push(frame);
        if (frame.op === 1) socket.send(JSON.stringify({ op: 11, d: null, s: null, t: null }));
      });
    });
  }

  static async start(): Promise<ScriptedGateway> {
    const http = createServer((request, response) => {
      // GET /api/v10/gateway: the socket's own address.
      const { port } = http.address() as AddressInfo;
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ url: `ws://127.0.0.1:${port}`, path: request.url }));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    return new ScriptedGateway(http);
  }

  get apiBase(): string {
    return `http://127.0.0.1:${(this.#http.address() as AddressInfo).port}/api/v10`;
  }

  /** The nth connection once it has sent a frame of `op`. */
  async frame(index: number, op: number): Promise<Frame> {
    return eventually(
      () => this.connections[index]?.frames.find((f) => f.op === op),
      `op ${op} on connection ${index}`,
    );
  }

  /** HELLO with a long interval (the test beats by hand), then READY after the IDENTIFY. */
  async helloAndReady(index: number, seq = 1): Promise<void> {
    const connection = await eventually(() => this.connections[index], `connection ${index}`);
    send(connection.socket, { op: 10, d: { heartbeat_interval: 60_000 } });
    await this.frame(index, 2);
    send(connection.socket, {
      op: 0,
      s: seq,
      t: 'READY',
      d: { session_id: `session-${index}`, user: { id: '1', username: 'ada' }, v: 10 },
    });
  }

  async close(): Promise<void> {
    for (const { socket } of this.connections) socket.terminate();
    this.#wss.close();
    await new Promise((resolve) => this.#http.close(resolve));
  }
}

function socketOf(gateway: ScriptedGateway, index: number): WebSocket {
  const connection = gateway.connections[index];
  if (connection === undefined) throw new Error(`no connection ${index}`);
  return connection.socket;
}

function send(socket: WebSocket, payload: Partial<Frame> & { s?: number; t?: string }): void {
  socket.send(JSON.stringify({ s: null, t: null, ...payload }));
}

describe('the SDK gateway state machine', () => {
  let gateway: ScriptedGateway | null = null;
  const clients: Client[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.disconnect();
    await gateway?.close();
    gateway = null;
  });

  async function connected(): Promise<{
    gateway: ScriptedGateway;
    client: Client;
    statuses: [ClientStatus, ClientError, number][];
  }> {
    gateway = await ScriptedGateway.start();
    const client = new Client({ apiBase: gateway.apiBase });
    clients.push(client);
    const statuses: [ClientStatus, ClientError, number][] = [];
    client.setStatusChangedCallback((status, error, detail) => {
      statuses.push([status, error, detail]);
    });
    await client.updateToken(AuthorizationTokenType.Bearer, 'scripted-token-0123456789');
    client.connect();
    await gateway.helloAndReady(0, 5);
    await eventually(() => (client.getStatus() === ClientStatus.Ready ? true : undefined), 'Ready');
    return { gateway, client, statuses };
  }

  it('identifies with the bearer token and reports each status once', async () => {
    const { gateway, statuses } = await connected();
    const identify = await gateway.frame(0, 2);
    expect(identify.d).toMatchObject({
      token: 'Bearer scripted-token-0123456789',
      intents: 0,
      properties: { browser: 'guildhall-social-sdk', os: 'node' },
    });
    expect(statuses).toEqual([
      [ClientStatus.Connecting, ClientError.None, 0],
      [ClientStatus.Connected, ClientError.None, 0],
      [ClientStatus.Ready, ClientError.None, 0],
    ]);
  });

  it('resumes with the last sequence after op 7 RECONNECT', async () => {
    const { gateway, client } = await connected();
    const first = gateway.connections[0];
    if (first === undefined) throw new Error('no connection');
    send(first.socket, { op: 0, s: 6, t: 'MESSAGE_CREATE', d: { id: '9' } });
    send(first.socket, { op: 7, d: null });
    const resumed = await eventually(() => gateway.connections[1], 'a second connection');
    send(resumed.socket, { op: 10, d: { heartbeat_interval: 60_000 } });
    const resume = await gateway.frame(1, 6);
    expect(resume.d).toEqual({
      token: 'Bearer scripted-token-0123456789',
      session_id: 'session-0',
      seq: 6,
    });
    send(resumed.socket, { op: 0, s: 7, t: 'RESUMED', d: null });
    await eventually(() => (client.getStatus() === ClientStatus.Ready ? true : undefined), 'Ready');
  });

  it('identifies anew after close 4009 and after INVALID_SESSION false', async () => {
    const { gateway } = await connected();
    gateway.connections[0]?.socket.close(4009, 'Session timed out.');
    await gateway.helloAndReady(1);
    expect(gateway.connections[1]?.frames.some((f) => f.op === 6)).toBe(false);
    send(socketOf(gateway, 1), { op: 9, d: false });
    await gateway.helloAndReady(2);
    expect(gateway.connections[2]?.frames.some((f) => f.op === 6)).toBe(false);
  });

  it('resumes after INVALID_SESSION true', async () => {
    const { gateway } = await connected();
    send(socketOf(gateway, 0), { op: 9, d: true });
    const next = await eventually(() => gateway.connections[1], 'a second connection');
    send(next.socket, { op: 10, d: { heartbeat_interval: 60_000 } });
    expect((await gateway.frame(1, 6)).d).toMatchObject({ session_id: 'session-0', seq: 5 });
  });

  it('reconnects and resumes when a heartbeat goes unacknowledged', async () => {
    gateway = await ScriptedGateway.start();
    const client = new Client({ apiBase: gateway.apiBase });
    clients.push(client);
    await client.updateToken(AuthorizationTokenType.Bearer, 'scripted-token-0123456789');
    client.connect();
    const first = await eventually(() => gateway?.connections[0], 'a connection');
    // A gateway that stops answering heartbeats: no ACK for the first beat.
    first.socket.removeAllListeners('message');
    first.socket.on('message', (raw) =>
      first.frames.push(JSON.parse((raw as Buffer).toString('utf8')) as Frame),
    );
    send(first.socket, { op: 10, d: { heartbeat_interval: 100 } });
    await gateway.frame(0, 2);
    send(first.socket, {
      op: 0,
      s: 3,
      t: 'READY',
      d: { session_id: 'zombie', user: { id: '1', username: 'ada' } },
    });
    const next = await eventually(() => gateway?.connections[1], 'a reconnect', 5000);
    send(next.socket, { op: 10, d: { heartbeat_interval: 60_000 } });
    expect((await gateway.frame(1, 6)).d).toMatchObject({ session_id: 'zombie', seq: 3 });
  });

  it('reconnects after a frame that is not JSON', async () => {
    const { gateway } = await connected();
    gateway.connections[0]?.socket.send('{not json');
    const next = await eventually(() => gateway.connections[1], 'a reconnect');
    send(next.socket, { op: 10, d: { heartbeat_interval: 60_000 } });
    expect((await gateway.frame(1, 6)).d).toMatchObject({ session_id: 'session-0' });
  });

  it('stops on 4004 with the close code and a line saying what to do', async () => {
    const { gateway, client, statuses } = await connected();
    const lines: string[] = [];
    client.addLogCallback((line) => lines.push(line), LoggingSeverity.Error);
    gateway.connections[0]?.socket.close(4004, 'Authentication failed.');
    await eventually(
      () => (client.getStatus() === ClientStatus.Disconnected ? true : undefined),
      'Disconnected',
    );
    expect(statuses.at(-1)).toEqual([ClientStatus.Disconnected, ClientError.UnexpectedClose, 4004]);
    expect(lines.join('\n')).toMatch(/refused or has been revoked.*updateToken/);
    // No reconnect follows.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(gateway.connections).toHaveLength(1);
  });

  it('disconnect() closes with 1000 and reports Disconnecting then Disconnected', async () => {
    const { gateway, client, statuses } = await connected();
    const closed = new Promise<number>((resolve) =>
      gateway.connections[0]?.socket.on('close', (code) => {
        resolve(code);
      }),
    );
    client.disconnect();
    expect(await closed).toBe(1000);
    expect(statuses.slice(-2)).toEqual([
      [ClientStatus.Disconnecting, ClientError.None, 0],
      [ClientStatus.Disconnected, ClientError.None, 0],
    ]);
  });
});
