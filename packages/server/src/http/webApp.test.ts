import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { startTestServer, type TestServer } from '../../test/support/testServer.js';
import { pageCsp } from './webApp.js';

const INDEX =
  '<!doctype html><title>Guildhall</title><script type="module" src="/assets/index-Ab1_x.js"></script>';
const SCRIPT = 'document.title = "ok";';

/** The platform's 404 body, which every path that is not a page keeps answering. */
function expectPlatform404(response: { statusCode: number; json: () => unknown }) {
  expect(response.statusCode).toBe(404);
  expect(response.json()).toMatchObject({ code: 0, message: '404: Not Found' });
}

describe('the web pages, built', () => {
  let webDir: string;
  let server: TestServer;
  beforeAll(async () => {
    webDir = await mkdtemp(join(tmpdir(), 'guildhall-web-'));
    await mkdir(join(webDir, 'assets'));
    await writeFile(join(webDir, 'index.html'), INDEX);
    await writeFile(join(webDir, 'assets', 'index-Ab1_x.js'), SCRIPT);
    await writeFile(join(webDir, 'assets', 'index-Ab1_x.js.br'), brotliCompressSync(SCRIPT));
    await writeFile(join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    server = await startTestServer({ config: { webDir } });
  });
  afterAll(async () => {
    await server.close();
    await rm(webDir, { recursive: true, force: true });
  });
  const get = (url: string) => server.app.http.inject({ method: 'GET', url });

  it('answers index.html, never cached without revalidation, on every page path', async () => {
    for (const url of [
      '/',
      '/login',
      '/register?next=%2Fchannels%2F%40me',
      '/channels/@me',
      '/channels/123/456',
      '/invite/abc',
      '/settings/connected-games',
      '/developers',
      '/developers/login',
      '/developers/applications/123/bot',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toBe(INDEX);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it("sends the build's Brotli copy to a browser that accepts it, the file to one that does not", async () => {
    const url = '/assets/index-Ab1_x.js';
    const compressed = await server.app.http.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers.vary).toBe('Accept-Encoding');
    expect(compressed.headers['content-type']).toMatch(/javascript/);
    expect(brotliDecompressSync(compressed.rawPayload).toString()).toBe(SCRIPT);
    // No gzip copy here: a gzip-only browser gets the file as it is.
    const plain = await server.app.http.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('sends a strict CSP and the security headers with a page', async () => {
    const response = await get('/developers');
    const csp = String(response.headers['content-security-policy']);
    expect(csp.split('; ')).toEqual(
      expect.arrayContaining([
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data: blob:",
        "frame-ancestors 'none'",
        "base-uri 'none'",
      ]),
    );
    // The gateway the page connects to (this server's /gateway, over ws:).
    const gatewayOrigin = new URL(server.app.gatewayUrl()).origin;
    expect(csp).toContain(`connect-src 'self' ${gatewayOrigin}`);
    // Only activities are framed: every activity origin, and nothing else.
    expect(csp.split('; ')).toContainEqual(
      expect.stringMatching(/^frame-src http:\/\/\*\.activities\.localhost:\d+$/),
    );
    expect(csp).not.toContain('unsafe');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-frame-options']).toBe('DENY');
  });

  it('serves hashed assets as immutable, and nothing outside assets/', async () => {
    const asset = await get('/assets/index-Ab1_x.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe(SCRIPT);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
    // A missing asset is a 404, not index.html (a script must never receive a page).
    expectPlatform404(await get('/assets/index-missing.js'));
    expectPlatform404(await get('/assets/..%2Findex.html'));
    expectPlatform404(await get('/assets/sub/dir.js'));
    // A file at the top of the build (Vite's public/ folder) is served by its name.
    expect((await get('/favicon.svg')).statusCode).toBe(200);
  });

  it('leaves every other path to the platform: API, CDN, health, unknown', async () => {
    expectPlatform404(await get('/nothing-here'));
    expectPlatform404(await get('/index.html.bak'));
    expectPlatform404(await get('/settings/other'));
    expectPlatform404(await get('/avatars/1/a.png'));
    expect((await get('/healthz')).statusCode).toBe(200);
    const api = await get('/api/v10/users/@me');
    expect(api.statusCode).toBe(401);
    expect(api.headers['content-security-policy']).toBeUndefined();
    // The OAuth2 consent page keeps its own page and headers.
    const authorize = await get('/oauth2/authorize');
    expect(String(authorize.headers['content-security-policy'])).toContain('nonce-');
  });
});

describe('the web pages, not built', () => {
  it('answers a page saying how to build them, and 404 for assets', async () => {
    const webDir = join(tmpdir(), 'guildhall-web-missing-dist');
    await using server = await startTestServer({ config: { webDir } });
    const response = await server.app.http.inject({ method: 'GET', url: '/developers' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('npm run build');
    expect(response.body).toContain('guildhall-web-missing-dist');
    expectPlatform404(await server.app.http.inject({ method: 'GET', url: '/assets/a-b.js' }));
  });
});

describe('where the pages are served', () => {
  it('not by a gateway-only process', async () => {
    await using server = await startTestServer({ config: { role: 'gateway' } });
    const response = await server.app.http.inject({ method: 'GET', url: '/' });
    expectPlatform404(response);
  });

  it('from GUILDHALL_WEB_DIR or --web-dir, else packages/web/dist', () => {
    expect(loadConfig({}).webDir).toMatch(/packages\/web\/dist$/);
    expect(loadConfig({ GUILDHALL_WEB_DIR: '/srv/web' }).webDir).toBe('/srv/web');
    expect(loadConfig({}, ['--web-dir', '/srv/other']).webDir).toBe('/srv/other');
  });

  it('lets the page reach a gateway elsewhere and images at the public URL', () => {
    const csp = pageCsp({
      gatewayUrl: 'wss://gateway.example.com/gateway',
      publicUrl: 'https://chat.example.com',
    });
    expect(csp).toContain("connect-src 'self' wss://gateway.example.com https://chat.example.com");
    expect(csp).toContain("img-src 'self' data: blob: https://chat.example.com");
    expect(csp).toContain("frame-src 'none'");
    const framing = pageCsp({
      gatewayUrl: 'wss://gateway.example.com/gateway',
      publicUrl: 'https://chat.example.com',
      activityFrameSource: 'https://*.activities.example.com',
    });
    expect(framing).toContain('frame-src https://*.activities.example.com;');
  });
});
