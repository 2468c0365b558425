/**
 * One proxied request over real sockets, without the platform: a front server hands each request
 * to forwardHttp, and the target drops a pooled connection when it is reused, as a target whose
 * keep-alive ran out does when the proxy's next request crosses its close.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { firedTimers } from '../../test/support/firedTimers.js';
import { DEFAULT_PROXY_LIMITS, forwardHttp, type ProxySettings } from './proxyHttp.js';
import { createAgents } from './proxyUpstream.js';

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('a proxied request on a pooled connection', () => {
  /** Requests the target saw, by path, and how many it dropped. */
  let arrivals: string[] = [];
  let dropped = 0;
  /** Whether the target drops the next request that comes on a connection it answered before. */
  let dropReused = false;
  /** Whether the target drops every request, on any connection. */
  let dropAll = false;
  const served = new WeakMap<Socket, number>();
  const target = createServer((req, res) => {
    arrivals.push(`${req.method ?? ''} ${req.url ?? ''}`);
    const before = served.get(req.socket) ?? 0;
    served.set(req.socket, before + 1);
    if (dropAll || (dropReused && before > 0)) {
      dropReused = false;
      dropped += 1;
      req.socket.destroy();
      return;
    }
    req.resume();
    req.on('end', () => {
      res.end(`answered ${req.url ?? ''}`);
    });
  });
  const settings: ProxySettings = {
    allowLoopback: true,
    limits: { ...DEFAULT_PROXY_LIMITS, maxBodyBytes: 1024 },
    timers: firedTimers().timers,
    agents: createAgents(),
    tunnels: new Set(),
    logger: createLogger('silent'),
  };
  let targetPort = 0;
  const front = createServer((req, res) => {
    forwardHttp(
      { req, res },
      {
        applicationId: '1',
        activityOrigin: 'http://1.activities.localhost',
        target: {
          protocol: 'http:',
          hostname: '127.0.0.1',
          port: targetPort,
          hostHeader: `127.0.0.1:${String(targetPort)}`,
          basePath: '',
        },
        prefix: '',
        path: req.url ?? '/',
        clientAddress: '127.0.0.1',
        frameHeaders: {},
        pageHeaders: {},
        auth: null,
      },
      settings,
    );
  });
  let frontPort = 0;

  /** A request to the front server on a new connection: its status and body. */
  const send = (method: string, path: string, body?: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: frontPort, method, path, agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() });
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  beforeAll(async () => {
    targetPort = await listen(target);
    frontPort = await listen(front);
  });
  afterAll(async () => {
    settings.agents.http.destroy();
    await new Promise((resolve) => front.close(resolve));
    await new Promise((resolve) => target.close(resolve));
  });
  beforeEach(async () => {
    // Each test starts with one pooled connection to the target, which has served a request.
    settings.agents.http.destroy();
    settings.agents = createAgents();
    await expect(send('GET', '/warm')).resolves.toEqual({ status: 200, body: 'answered /warm' });
    arrivals = [];
    dropped = 0;
    dropAll = false;
  });

  it('sends a request without a body again on a new connection when the pooled one is dropped', async () => {
    dropReused = true;
    await expect(send('GET', '/page.js')).resolves.toEqual({
      status: 200,
      body: 'answered /page.js',
    });
    expect(arrivals).toEqual(['GET /page.js', 'GET /page.js']);
    expect(dropped).toBe(1);
  });

  it('does not send a request with a body again: its bytes were streamed once', async () => {
    dropReused = true;
    const answer = await send('POST', '/api/token', '{"code":"abc"}');
    expect(answer.status).toBe(502);
    expect(answer.body).toContain("The activity's server could not be reached.");
    expect(arrivals).toEqual(['POST /api/token']);
  });

  it('sends it again once only: a target that drops the new connection too is a 502', async () => {
    dropAll = true;
    const answer = await send('GET', '/page.js');
    expect(answer.status).toBe(502);
    expect(arrivals).toEqual(['GET /page.js', 'GET /page.js']);
    expect(dropped).toBe(2);
  });
});
