/**
 * The activity proxy host over real sockets: the platform listens on a loopback port, targets
 * are local HTTP and WebSocket servers, and requests name the activity origin in an explicit
 * Host header (Node does not resolve *.localhost). The proxy's deadlines run on timers the tests
 * fire, so a hanging target is told apart without waiting.
 */
import {
  Agent,
  createServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { createLogger } from '../logger.js';
import { firedTimers } from '../../test/support/firedTimers.js';
import { seedDeveloper, startTestServer, type TestServer } from '../../test/support/testServer.js';

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

function portOf(server: Server): number {
  return (server.address() as AddressInfo).port;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return portOf(server);
}

/** What the echo target saw of a request. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** The HTTP target: echoes requests as JSON, and a few paths that misbehave on purpose. */
function echoTarget(hung: IncomingMessage[], streams: ServerResponse[]) {
  return createServer((req, res) => {
    const url = req.url ?? '/';
    if (url.endsWith('/stream')) {
      // One chunk, then nothing until the test looks at what the proxy did.
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first chunk');
      streams.push(res);
      return;
    }
    const self = `http://${req.headers.host ?? ''}`;
    if (url.endsWith('/hang')) {
      hung.push(req);
      return;
    }
    if (url.endsWith('/redirect-relative')) {
      res.writeHead(302, { location: 'landing?from=1' }).end();
      return;
    }
    if (url.endsWith('/redirect-target')) {
      res.writeHead(307, { location: `${self}/base/moved?x=1` }).end();
      return;
    }
    if (url.endsWith('/redirect-out')) {
      res.writeHead(302, { location: 'http://elsewhere.test/steal' }).end();
      return;
    }
    if (url.endsWith('/redirect-protocol-relative')) {
      res.writeHead(301, { location: '//elsewhere.test/steal' }).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen: Seen = {
        method: req.method ?? '',
        url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-security-policy': "default-src *; frame-ancestors 'none'",
        'x-frame-options': 'DENY',
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'set-cookie': [
          'sid=abc; Path=/; Domain=activities.localhost; HttpOnly',
          'guildhall_session=forged; Path=/',
          'plain=1',
        ],
        'x-target': 'echo',
      });
      res.end(JSON.stringify(seen));
    });
  });
}

describe('the activity proxy host', () => {
  const fired = firedTimers();
  const logLines: Record<string, unknown>[] = [];
  const logSink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        logLines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  const hung: IncomingMessage[] = [];
  const streams: ServerResponse[] = [];
  const target = echoTarget(hung, streams);
  const wsServer = createServer();
  const wss = new WebSocketServer({ server: wsServer });
  let server: TestServer;
  let port: number;
  let targetPort: number;
  let closedPort: number;
  let appId: string;
  let bareAppId: string;
  let host: string;

  /** Sends a request to the platform's listener with this Host header. */
  const send = (options: {
    path: string;
    host?: string;
    method?: string;
    headers?: Record<string, string | string[]>;
    body?: string | Buffer;
    chunked?: boolean;
  }) =>
    new Promise<Answer>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: options.method ?? 'GET',
          path: options.path,
          headers: { host: options.host ?? host, ...options.headers },
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString(),
            });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (options.body !== undefined && options.chunked === true) {
        req.write(options.body);
        req.end();
      } else req.end(options.body);
    });

  /** Writes raw bytes to the platform's listener and reads until it closes. */
  const raw = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(text));
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('close', () => {
        resolve(Buffer.concat(chunks).toString());
      });
      socket.on('error', reject);
    });

  const seen = (answer: Answer) => JSON.parse(answer.body) as Seen;

  /** A WebSocket upgrade request on the activity host, as raw bytes. */
  const upgradeRequest = (path: string) =>
    `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`;

  beforeAll(async () => {
    wss.on('connection', (ws, req) => {
      ws.send(`hello ${req.url ?? ''} ${req.headers.host ?? ''}`);
      ws.on('message', (data: Buffer) => {
        ws.send(`echo ${data.toString()}`);
      });
    });
    targetPort = await listen(target);
    const wsPort = await listen(wsServer);
    const closed = createServer();
    closedPort = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    server = await startTestServer({
      listen: true,
      config: { activityAllowLoopback: true, activityMaxBodyBytes: 4096 },
      activityProxy: { timers: fired.timers },
      logger: createLogger('info', logSink),
    });
    port = Number(new URL(server.baseUrl).port);
    const dev = await seedDeveloper(server.app);
    appId = dev.applicationId;
    bareAppId = (await seedDeveloper(server.app, 'bare')).applicationId;
    host = `${appId}.activities.localhost:${String(port)}`;
    await server.app.storage.activities.saveConfig({
      applicationId: appId,
      urlMappings: [
        { prefix: '/', target: `127.0.0.1:${String(targetPort)}` },
        { prefix: '/api', target: `127.0.0.1:${String(targetPort)}/base` },
        { prefix: '/socket', target: `localhost:${String(wsPort)}/rt` },
        { prefix: '/down', target: `127.0.0.1:${String(closedPort)}` },
        { prefix: '/private', target: '10.1.2.3:8080' },
        { prefix: '/linklocal', target: '[fe80::1]:80' },
        { prefix: '/creds', target: `user:pw@127.0.0.1:${String(targetPort)}` },
        { prefix: '/loop', target: `${appId}.activities.localhost:${String(port)}` },
      ],
      supportedPlatforms: ['web'],
      defaultOrientationLockState: null,
      tabletDefaultOrientationLockState: null,
      requiresAgeGate: false,
      updatedAt: Date.now(),
    });
    await server.app.storage.activities.saveConfig({
      applicationId: bareAppId,
      urlMappings: [{ prefix: '/only', target: `127.0.0.1:${String(targetPort)}` }],
      supportedPlatforms: ['web'],
      defaultOrientationLockState: null,
      tabletDefaultOrientationLockState: null,
      requiresAgeGate: false,
      updatedAt: Date.now(),
    });
  });

  let serverClosed = false;

  afterAll(async () => {
    for (const req of hung) req.socket.destroy();
    for (const res of streams) res.destroy();
    if (!serverClosed) await server.close();
    await new Promise((resolve) => target.close(resolve));
    wss.close();
    await new Promise((resolve) => wsServer.close(resolve));
  });

  it('forwards the bare and the /.proxy/ forms to the root mapping, query kept', async () => {
    for (const path of ['/index.html?a=1&b=%20', '/.proxy/index.html?a=1&b=%20']) {
      const answer = await send({ path });
      expect(answer.status).toBe(200);
      expect(seen(answer)).toMatchObject({ method: 'GET', url: '/index.html?a=1&b=%20' });
    }
    expect(seen(await send({ path: '/.proxy' })).url).toBe('/');
    expect(seen(await send({ path: '/' })).url).toBe('/');
  });

  it('logs one line per request, without its query', async () => {
    await send({ path: '/.proxy/logged?code=secret-code' });
    const logged = () => logLines.find((line) => line['path'] === '/.proxy/logged');
    while (logged() === undefined) await new Promise((resolve) => setImmediate(resolve));
    expect(logged()).toMatchObject({
      msg: 'activity request completed',
      applicationId: appId,
      method: 'GET',
      statusCode: 200,
    });
    expect(JSON.stringify(logLines)).not.toContain('secret-code');
  });

  it('picks the longest prefix on segment boundaries and appends the rest to its path', async () => {
    expect(seen(await send({ path: '/api/token?code=x' })).url).toBe('/base/token?code=x');
    expect(seen(await send({ path: '/.proxy/api' })).url).toBe('/base');
    expect(seen(await send({ path: '/apix/y' })).url).toBe('/apix/y');
    // Unreserved characters spelled as escapes mean the same path.
    expect(seen(await send({ path: '/%61pi/%7Euser' })).url).toBe('/base/~user');
  });

  it('streams a body to the target and rewrites the forwarding headers', async () => {
    const answer = await send({
      path: '/api/token',
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        connection: 'keep-alive, x-hop',
        'x-hop': 'secret',
        'x-forwarded-for': '6.6.6.6',
        'proxy-authorization': 'Basic abc',
        cookie: 'guildhall_session=tok; theme=dark; guildhall_csrf=c',
        authorization: 'Bearer activity-token',
      },
      body: '{"code":"abc"}',
    });
    const got = seen(answer);
    expect(got.method).toBe('POST');
    expect(got.body).toBe('{"code":"abc"}');
    expect(got.headers).toMatchObject({
      host: `127.0.0.1:${String(targetPort)}`,
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-host': host,
      'x-forwarded-proto': 'http',
      via: '1.1 guildhall-activities',
      cookie: 'theme=dark',
      authorization: 'Bearer activity-token',
    });
    expect(got.headers['x-hop']).toBeUndefined();
    expect(got.headers['proxy-authorization']).toBeUndefined();
  });

  it("puts the activity frame's headers on answers and keeps cookies to the activity", async () => {
    const answer = await send({ path: '/page' });
    const csp = String(answer.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain(`connect-src 'self' ws://${host} http://127.0.0.1:${String(port)}/api/`);
    expect(csp).toContain(
      `frame-ancestors http://127.0.0.1:${String(port)} http://localhost:${String(port)}`,
    );
    expect(csp).not.toContain("'none'; frame-ancestors 'none'");
    expect(answer.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      'x-target': 'echo',
      'set-cookie': ['sid=abc; Path=/; HttpOnly', 'plain=1'],
    });
    expect(answer.headers['x-frame-options']).toBeUndefined();
    expect(answer.headers['strict-transport-security']).toBeUndefined();
  });

  it('passes redirects that stay on the activity origin and refuses the others', async () => {
    const relative = await send({ path: '/app/redirect-relative' });
    expect(relative.status).toBe(302);
    expect(relative.headers.location).toBe('landing?from=1');
    const toTarget = await send({ path: '/api/redirect-target' });
    expect(toTarget.status).toBe(307);
    expect(toTarget.headers.location).toBe(`http://${host}/api/moved?x=1`);
    for (const path of ['/redirect-out', '/redirect-protocol-relative']) {
      const out = await send({ path });
      expect(out.status).toBe(502);
      expect(out.body).toContain('redirected outside the activity');
      expect(out.headers.location).toBeUndefined();
    }
  });

  it('answers 404 pages for no activity, an unknown host and no mapping', async () => {
    const cases = [
      { host: `1.activities.localhost:${String(port)}`, path: '/' },
      { host: `www.activities.localhost:${String(port)}`, path: '/' },
      { host: `activities.localhost:${String(port)}`, path: '/api/v10/gateway' },
      { host: `${bareAppId}.activities.localhost`, path: '/elsewhere' },
    ];
    for (const { host: named, path } of cases) {
      const answer = await send({ host: named, path });
      expect(answer.status).toBe(404);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
      // The relay page on the activity origin frames the activity: 'self' lets the page show.
      expect(answer.headers['content-security-policy']).toMatch(
        /frame-ancestors http:\/\/127\.0\.0\.1:\d+ http:\/\/localhost:\d+ 'self'$/,
      );
      expect(answer.body).toContain('404 Not Found');
    }
    expect(
      (await send({ host: `${bareAppId}.activities.localhost`, path: '/only/x' })).status,
    ).toBe(200);
  });

  it.each([
    ['/a/../b'],
    ['/a/%2e%2E/b'],
    ['/.proxy/..%2fadmin'],
    ['/a/%2F/b'],
    ['/a/%5c/b'],
    ['/a/%00'],
    ['/a/%zz'],
    ['/a/./b'],
    ['http://127.0.0.1:1/x'],
    ['http://1234.activities.localhost/'],
    ['*'],
  ])('refuses the request target %s', async (path) => {
    const answer = await send({ path });
    expect(answer.status).toBe(400);
  });

  it('refuses TRACE, CONNECT, two Host headers and a request that looped', async () => {
    expect((await send({ path: '/', method: 'TRACE' })).status).toBe(405);
    // Nothing listens for CONNECT: the socket closes without an answer.
    expect(await raw(`CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: ${host}\r\n\r\n`)).toBe('');
    const twice = await raw(
      `GET / HTTP/1.1\r\nHost: ${host}\r\nHost: 127.0.0.1:${String(port)}\r\nConnection: close\r\n\r\n`,
    );
    expect(twice).toMatch(/^HTTP\/1\.1 400 /);
    expect((await send({ path: '/', headers: { via: '1.1 guildhall-activities' } })).status).toBe(
      508,
    );
  });

  it('refuses mapping targets with credentials, private addresses or the proxy itself', async () => {
    for (const path of ['/creds/x', '/private/x', '/linklocal/x', '/loop/x']) {
      const answer = await send({ path });
      expect(answer.status).toBe(502);
      expect(answer.body).not.toContain('10.1.2.3');
    }
  });

  it('answers 502 for a target that is down and 504 for one that hangs', async () => {
    const down = await send({ path: '/down/x' });
    expect(down.status).toBe(502);
    expect(down.body).toContain('could not be reached');
    const before = hung.length;
    const pending = send({ path: '/hang' });
    while (hung.length === before) await new Promise((resolve) => setImmediate(resolve));
    fired.fire();
    const answer = await pending;
    expect(answer.status).toBe(504);
    for (const page of [down, answer]) {
      expect(page.headers['content-security-policy']).toMatch(/frame-ancestors [^;]* 'self'$/);
    }
  });

  it('streams answers, and stops fetching when the browser goes away', async () => {
    const targetClosed = new Promise<string>((resolve) => {
      const req = request(
        { host: '127.0.0.1', port, path: '/stream', headers: { host }, agent: false },
        (res) => {
          // The first chunk arrives while the target still holds the answer open.
          res.once('data', (chunk: Buffer) => {
            streams.at(-1)?.once('close', () => {
              resolve(chunk.toString());
            });
            req.destroy();
          });
        },
      );
      req.on('error', () => undefined);
      req.end();
    });
    expect(await targetClosed).toBe('first chunk');

    // Before any answer: the target's request is dropped too.
    const before = hung.length;
    const req = request({ host: '127.0.0.1', port, path: '/gone/hang', headers: { host } });
    req.on('error', () => undefined);
    req.end();
    while (hung.length === before) await new Promise((resolve) => setImmediate(resolve));
    const waiting = hung.at(-1);
    const dropped = new Promise<void>((resolve) => waiting?.socket.once('close', resolve));
    req.destroy();
    await dropped;
  });

  it('lets a long answer stream while bytes flow, and ends one that stalls', async () => {
    const read = (path: string) =>
      new Promise<{ chunks: string[]; complete: boolean }>((resolve) => {
        const chunks: string[] = [];
        const req = request(
          { host: '127.0.0.1', port, path, headers: { host }, agent: false },
          (res) => {
            res.on('data', (chunk: Buffer) => {
              chunks.push(chunk.toString());
              if (chunks.length === 1) {
                // The answer's deadline is behind it: a period with bytes passes.
                fired.fire();
                streams.at(-1)?.end('second chunk');
              }
            });
            res.on('end', () => {
              resolve({ chunks, complete: true });
            });
            res.on('error', () => {
              resolve({ chunks, complete: false });
            });
          },
        );
        req.end();
      });
    expect(await read('/long/stream')).toEqual({
      chunks: ['first chunk', 'second chunk'],
      complete: true,
    });

    // Two periods without a byte: the proxy ends the answer.
    const stalled = new Promise<boolean>((resolve) => {
      const req = request(
        { host: '127.0.0.1', port, path: '/stalled/stream', headers: { host }, agent: false },
        (res) => {
          res.once('data', () => {
            fired.fire();
            fired.fire();
          });
          res.on('end', () => {
            resolve(res.complete);
          });
          res.on('error', () => {
            resolve(false);
          });
        },
      );
      req.end();
    });
    expect(await stalled).toBe(false);
  });

  it('keeps the browser connection alive across proxied requests', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    for (let i = 0; i < 3; i++) {
      const status = await new Promise<number>((resolve, reject) => {
        request(
          { host: '127.0.0.1', port, path: `/k${String(i)}`, headers: { host }, agent },
          (res) => {
            sockets.add(res.socket);
            res.resume();
            res.on('end', () => {
              resolve(res.statusCode ?? 0);
            });
          },
        )
          .on('error', reject)
          .end();
      });
      expect(status).toBe(200);
    }
    expect(sockets.size).toBe(1);
    agent.destroy();
  });

  it('refuses an oversized body, announced or streamed', async () => {
    const big = Buffer.alloc(5000, 'x');
    const announced = await send({ path: '/upload', method: 'POST', body: big });
    expect(announced.status).toBe(413);
    const streamed = await send({ path: '/upload', method: 'PUT', body: big, chunked: true });
    expect(streamed.status).toBe(413);
    const fits = await send({ path: '/upload', method: 'PUT', body: Buffer.alloc(4096, 'y') });
    expect(seen(fits).body).toHaveLength(4096);
  });

  it('proxies WebSocket upgrades, both forms, to the mapped target', async () => {
    for (const path of ['/socket/chat', '/.proxy/socket/chat']) {
      const ws = new WebSocket(`ws://127.0.0.1:${String(port)}${path}`, {
        headers: { host },
      });
      const messages: string[] = [];
      await new Promise<void>((resolve, reject) => {
        ws.on('message', (data: Buffer) => {
          messages.push(data.toString());
          if (messages.length === 1) ws.send('ping');
          else resolve();
        });
        ws.on('error', reject);
      });
      expect(messages).toEqual([`hello /rt/chat localhost:${String(wsServerPort())}`, 'echo ping']);
      ws.close();
    }
  });

  it('refuses upgrades to no mapping and other protocols', async () => {
    const none = await raw(
      `GET /x HTTP/1.1\r\nHost: ${bareAppId}.activities.localhost\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    );
    expect(none).toMatch(/^HTTP\/1\.1 404 /);
    const h2c = await raw(
      `GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n`,
    );
    expect(h2c).toMatch(/^HTTP\/1\.1 400 /);
    const post = await raw(upgradeRequest('/socket/x').replace(/^GET/, 'POST'));
    expect(post).toMatch(/^HTTP\/1\.1 405 /);
  });

  it('answers an upgrade the target refuses, cannot take or leaves hanging', async () => {
    // The echo target has no WebSocket: it answers 200, which is no upgrade.
    expect(await raw(upgradeRequest('/plain'))).toMatch(/^HTTP\/1\.1 502 /);
    expect(await raw(upgradeRequest('/down/socket'))).toMatch(/^HTTP\/1\.1 502 /);
    expect(await raw(upgradeRequest('/private/socket'))).toMatch(/^HTTP\/1\.1 502 /);
    const before = hung.length;
    const pending = raw(upgradeRequest('/socket-wait/hang'));
    while (hung.length === before) await new Promise((resolve) => setImmediate(resolve));
    fired.fire();
    expect(await pending).toMatch(/^HTTP\/1\.1 504 /);
  });

  it('leaves every other host to the API and the gateway on the same port', async () => {
    const api = await send({ host: `127.0.0.1:${String(port)}`, path: '/api/v10/gateway' });
    expect(api.status).toBe(200);
    expect(JSON.parse(api.body)).toHaveProperty('url');
    const evil = await send({
      host: `${appId}.activities.localhost.evil.test`,
      path: '/api/v10/gateway',
    });
    expect(evil.status).toBe(200);
    const gateway = new WebSocket(`ws://127.0.0.1:${String(port)}/gateway?v=10&encoding=json`);
    const hello = await new Promise<string>((resolve, reject) => {
      gateway.once('message', (data: Buffer) => {
        resolve(data.toString());
      });
      gateway.on('error', reject);
    });
    expect(JSON.parse(hello)).toMatchObject({ op: 10 });
    gateway.close();
    // On an activity host, /gateway is the activity's path, not the platform's gateway.
    expect(seen(await send({ path: '/gateway' })).url).toBe('/gateway');
  });

  it('ends proxied WebSockets when the server closes (they do not hold it open)', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${String(port)}/socket/open`, { headers: { host } });
    await new Promise<void>((resolve, reject) => {
      ws.once('message', () => {
        resolve();
      });
      ws.on('error', reject);
    });
    const ended = new Promise<number>((resolve) => {
      ws.on('close', resolve);
    });
    serverClosed = true;
    await server.close();
    expect(await ended).toBe(1006);
  });

  function wsServerPort(): number {
    return portOf(wsServer);
  }
});

describe('the activity proxy host without --activity-allow-loopback', () => {
  let server: TestServer;
  const target = createServer((_req, res) => res.end('reached'));

  beforeAll(async () => {
    const targetPort = await listen(target);
    server = await startTestServer({ listen: true });
    const { applicationId } = await seedDeveloper(server.app);
    await server.app.storage.activities.saveConfig({
      applicationId,
      urlMappings: [
        { prefix: '/', target: `127.0.0.1:${String(targetPort)}` },
        { prefix: '/named', target: `localhost:${String(targetPort)}` },
        { prefix: '/v6', target: `[::ffff:127.0.0.1]:${String(targetPort)}` },
      ],
      supportedPlatforms: ['web'],
      defaultOrientationLockState: null,
      tabletDefaultOrientationLockState: null,
      requiresAgeGate: false,
      updatedAt: Date.now(),
    });
    (server as TestServer & { appId?: string }).appId = applicationId;
  });

  afterAll(async () => {
    await server.close();
    await new Promise((resolve) => target.close(resolve));
  });

  it('refuses loopback targets, by address or by name', async () => {
    const port = Number(new URL(server.baseUrl).port);
    const appId = (server as TestServer & { appId?: string }).appId ?? '';
    for (const path of ['/x', '/named/x', '/v6/x']) {
      const answer = await new Promise<Answer>((resolve, reject) => {
        request(
          {
            host: '127.0.0.1',
            port,
            path,
            headers: { host: `${appId}.activities.localhost:${String(port)}` },
            agent: false,
          },
          (res) => {
            let body = '';
            res.on('data', (chunk: Buffer) => (body += chunk.toString()));
            res.on('end', () => {
              resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
            });
          },
        )
          .on('error', reject)
          .end();
      });
      expect(answer.status).toBe(502);
      expect(answer.body).toContain('not a public address');
    }
  });
});
