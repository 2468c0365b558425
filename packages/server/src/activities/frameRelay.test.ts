/**
 * The frame relay on an activity origin, over a real socket: its page and script with the
 * activity frame's headers (frame-ancestors lets the relay frame the activity: 'self'), only for
 * GET and HEAD, and only at its two paths (every other path is the activity's).
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDeveloper, startTestServer, type TestServer } from '../../test/support/testServer.js';
import { FRAME_RELAY_PATH, FRAME_RELAY_SCRIPT_PATH } from './frameRelay.js';

describe('the frame relay', () => {
  let server: TestServer;
  let host = '';
  beforeAll(async () => {
    server = await startTestServer({ listen: true, config: { activityAllowLoopback: true } });
    const dev = await seedDeveloper(server.app);
    host = `${dev.applicationId}.activities.localhost:${new URL(server.baseUrl).port}`;
  });
  afterAll(async () => {
    await server.close();
  });

  const send = (method: string, path: string) =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
      (resolve, reject) => {
        const url = new URL(server.baseUrl);
        const req = request(
          { host: '127.0.0.1', port: url.port, method, path, headers: { host } },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (body += chunk));
            res.on('end', () => {
              resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
            });
          },
        );
        req.on('error', reject);
        req.end();
      },
    );

  it('serves the relay page and its script with the activity frame headers', async () => {
    const page = await send('GET', `${FRAME_RELAY_PATH}?client_origin=x&instance_id=i`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain(`<script src="${FRAME_RELAY_SCRIPT_PATH}" defer></script>`);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/frame-ancestors [^;]*http:\/\/127\.0\.0\.1:\d+[^;]* 'self'$/);
    expect(csp).toContain("script-src 'self'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');

    const script = await send('GET', FRAME_RELAY_SCRIPT_PATH);
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    // It forwards only between the activity's window on its origin and the client it names.
    expect(script.body).toContain('event.origin === location.origin');
    expect(script.body).toContain('event.origin === clientOrigin');

    const head = await send('HEAD', FRAME_RELAY_PATH);
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('leaves every other request to the activity (no config here: 404)', async () => {
    expect((await send('POST', FRAME_RELAY_PATH)).status).toBe(404);
    expect((await send('GET', `${FRAME_RELAY_PATH}/x`)).status).toBe(404);
    expect((await send('GET', '/.guildhall/other')).status).toBe(404);
  });
});
