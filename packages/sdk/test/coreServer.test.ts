/**
 * The SDK core against a real Guildhall server: RESUME after a dropped connection with the missed
 * events replayed, a revoked token, rate limits waited out per `retry_after`, the HTTP timeout,
 * and the log never showing a token.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  Client,
  ClientError,
  ClientStatus,
  ErrorType,
  LoggingSeverity,
  SdkError,
  type ClientOptions,
  type WebSocketConstructor,
} from '../src/node.js';
import {
  connectReady,
  describeDrivers,
  eventually,
  useSdkWorld,
  type Player,
  type SdkWorld,
} from './support.js';

/** A client whose core the test may reach (its HTTP client, its dispatch handlers). */
class CoreClient extends Client {
  get testCore() {
    return this.core;
  }
}

async function coreClient(
  apiBase: string,
  player: Player,
  options: ClientOptions = {},
): Promise<CoreClient> {
  const client = new CoreClient({ apiBase, ...options });
  await client.updateToken(1, player.token);
  return client;
}

/** Makes two players game friends (a request and its acceptance), so they may DM. */
async function befriend(world: SdkWorld, a: Player, b: Player): Promise<void> {
  for (const [from, to] of [
    [a, b],
    [b, a],
  ] as const) {
    const answer = await world.api('PUT', `/users/@me/game-relationships/${to.id}`, {
      auth: `Bearer ${from.token}`,
      json: {},
    });
    expect(answer.status).toBe(204);
  }
}

describeDrivers('the SDK core on a real server ($driver)', (driver) => {
  const world = useSdkWorld(driver);

  it('resumes after the connection drops and receives what it missed', async () => {
    const [ada, bob] = [await world().player('Ada'), await world().player('Bob')];
    await befriend(world(), ada, bob);
    const sockets: WebSocket[] = [];
    class TrackedSocket extends WebSocket {
      constructor(url: string) {
        super(url);
        sockets.push(this);
      }
    }
    const client = await coreClient(world().apiBase, ada, {
      platform: {
        WebSocket: TrackedSocket as unknown as WebSocketConstructor,
      },
    });
    const received: string[] = [];
    client.testCore.on('MESSAGE_CREATE', (data) =>
      received.push((data as { content: string }).content),
    );
    const statuses: ClientStatus[] = [];
    await connectReady(client);
    client.setStatusChangedCallback((status) => statuses.push(status));
    try {
      sockets[0]?.terminate();
      // Sent while Ada's connection is down: the gateway buffers it for her session.
      const sent = await world().api('POST', `/users/${ada.id}/messages`, {
        auth: `Bearer ${bob.token}`,
        json: { content: 'while you were away' },
      });
      expect(sent.status).toBe(200);
      await eventually(
        () => (received.includes('while you were away') ? true : undefined),
        'the replayed DM',
      );
      expect(statuses).toContain(ClientStatus.Reconnecting);
      expect(statuses.at(-1)).toBe(ClientStatus.Ready);
      expect(sockets).toHaveLength(2);
    } finally {
      client.disconnect();
    }
  });

  it('goes Disconnected with close 4004 when the token is revoked, and says so', async () => {
    const ada = await world().player('Ada');
    const client = await coreClient(world().apiBase, ada);
    const lines: string[] = [];
    client.addLogCallback((line) => lines.push(line), LoggingSeverity.Verbose);
    await connectReady(client);
    const ended = new Promise<[ClientStatus, ClientError, number]>((resolve) => {
      client.setStatusChangedCallback((...args) => {
        if (args[0] === ClientStatus.Disconnected) resolve(args);
      });
    });
    const { applicationId, clientSecret } = world().dev;
    const revoked = await fetch(`${world().apiBase}/oauth2/token/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: ada.token,
        client_id: applicationId,
        client_secret: clientSecret,
      }).toString(),
    });
    expect(revoked.status).toBe(200);
    expect(await ended).toEqual([ClientStatus.Disconnected, ClientError.UnexpectedClose, 4004]);
    const failure = await client.testCore.http.get('/users/@me').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SdkError);
    expect(failure).toMatchObject({ type: ErrorType.AuthorizationFailed, status: 401 });
    expect(lines.join('\n')).toMatch(/\(4004\): the token was refused or has been revoked/);
    expect(lines.join('\n')).not.toContain(ada.token);
  });
});

describe('the SDK core and rate limits', () => {
  const world = useSdkWorld('sqlite', { config: { routeRateLimit: { limit: 2, windowMs: 1000 } } });

  it('waits a 429 out per retry_after and then succeeds', async () => {
    const ada = await world().player('Ada');
    const client = await coreClient(world().apiBase, ada);
    const lines: string[] = [];
    client.addLogCallback((line) => lines.push(line), LoggingSeverity.Warning);
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => client.testCore.http.get<{ id: string }>('/users/@me')),
    );
    expect(answers.map((a) => a.id)).toEqual([ada.id, ada.id, ada.id, ada.id]);
    expect(
      lines.some((line) => /GET \/users\/@me was rate limited: retrying in \d+ ms/.test(line)),
    ).toBe(true);
  });

  it('shows HttpWait while connect() waits for the gateway address', async () => {
    const ada = await world().player('Ada');
    for (let i = 0; i < 3; i++) await fetch(`${world().apiBase}/gateway`);
    const client = await coreClient(world().apiBase, ada);
    const statuses: ClientStatus[] = [];
    client.setStatusChangedCallback((status) => statuses.push(status));
    client.connect();
    await eventually(() => (client.getStatus() === ClientStatus.Ready ? true : undefined), 'Ready');
    expect(statuses).toEqual([
      ClientStatus.Connecting,
      ClientStatus.HttpWait,
      ClientStatus.Connecting,
      ClientStatus.Connected,
      ClientStatus.Ready,
    ]);
    client.disconnect();
  });
});

describe('the SDK core and long rate limits', () => {
  const world = useSdkWorld('sqlite', {
    config: { routeRateLimit: { limit: 1, windowMs: 300_000 } },
  });

  it('returns a 429 that asks for more than a minute as a retryable error', async () => {
    const ada = await world().player('Ada');
    const client = await coreClient(world().apiBase, ada);
    // Minting the player read /users/@me once already: the window's one request is spent.
    const failure = await client.testCore.http.get('/users/@me').catch((e: unknown) => e);
    expect(failure).toMatchObject({ type: ErrorType.HTTPError, status: 429, retryable: true });
    expect((failure as SdkError).retryAfter).toBeGreaterThan(60);
  });
});

describe('the SDK core and timeouts', () => {
  it('gives up on a request after setHttpRequestTimeout', async () => {
    const silent = createServer(() => {
      // Never answers.
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      const client = new CoreClient({ apiBase: `http://127.0.0.1:${port}/api/v10` });
      client.setHttpRequestTimeout(150);
      const failure = await client.testCore.http.get('/users/@me').catch((e: unknown) => e);
      expect(failure).toMatchObject({ type: ErrorType.NetworkError, retryable: true });
      expect((failure as Error).message).toMatch(
        /no answer within 150 ms \(setHttpRequestTimeout\)/,
      );
      expect(() => {
        client.setHttpRequestTimeout(0);
      }).toThrow(/positive whole number/);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
