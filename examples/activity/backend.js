#!/usr/bin/env node
// An activity's backend, as small as it gets (docs/activities.md#the-example-activity). It serves
// the activity's page (public/) and the official embedded app SDK's ESM build (at /sdk/), and it
// exchanges the code the page got from AUTHORIZE for an access token at /oauth2/token with the
// client secret, which never leaves this process. The web client reaches it through the proxy
// host (`http://<application id>.activities.localhost:<port>/`, the root URL mapping naming this
// server), so the page calls it on its own origin: `/.proxy/api/token` or `/api/token`. With the
// app's public key it also checks proxy authentication's signed headers, as the platform's
// documentation shows (`/api/whoami`: who the proxy says the request is from).
//
//   CLIENT_ID=… CLIENT_SECRET=… PUBLIC_KEY=… API_URL=http://127.0.0.1:8080/api/v10 \
//     node examples/activity/backend.js [--port 3000]
import { Buffer } from 'node:buffer';
import console from 'node:console';
import { existsSync, readFileSync } from 'node:fs';
import { createPublicKey, verify } from 'node:crypto';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join, normalize, sep } from 'node:path';
import process from 'node:process';
import { URL, URLSearchParams, fileURLToPath } from 'node:url';

const PAGE_DIR = fileURLToPath(new URL('./public/', import.meta.url));
/** The SDK's self-contained ESM build (`output/index.mjs` and the files it imports). */
const SDK_DIR = join(
  dirname(createRequire(import.meta.url).resolve('@discord/embedded-app-sdk/package.json')),
  'output',
);
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
/** A code is a short string: a bigger body is not one. */
const MAX_BODY_BYTES = 4096;
/** How long the platform may take to answer the exchange. */
const EXCHANGE_TIMEOUT_MS = 10_000;

/** A file under `root` for a URL path, or null (no `..` escapes, only known types). */
function fileUnder(root, path) {
  const file = normalize(join(root, decodeURIComponent(path)));
  if (!file.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
  if (TYPES[extname(file)] === undefined || !existsSync(file)) return null;
  return file;
}

function send(res, status, { type, body }) {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-cache' });
  res.end(body);
}

function sendJson(res, status, value) {
  send(res, status, { type: 'application/json', body: JSON.stringify(value) });
}

/** The request's JSON body (at most MAX_BODY_BYTES), or null. */
async function readJson(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return null;
  }
}

/** POST {apiUrl}/oauth2/token: the code for an access token (no redirect_uri: AUTHORIZE gave it). */
async function exchange(options, code) {
  const response = await globalThis.fetch(`${options.apiUrl}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: options.clientId,
      client_secret: options.clientSecret,
      grant_type: 'authorization_code',
      code,
    }),
    redirect: 'error',
    signal: globalThis.AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
  });
  const body = await response.json().catch(() => ({}));
  return { status: response.status, body };
}

/**
 * Who a request through the proxy comes from, checked as "Validating Proxy Request Headers" in
 * the platform's documentation does: `{user_id}`, or `{error}` saying what failed.
 */
function proxyUser(publicKeyHex, headers) {
  const signature = headers['x-signature-ed25519'];
  const timestamp = headers['x-signature-timestamp'];
  const payload = headers['x-discord-proxy-payload'];
  if (!signature || !timestamp || !payload) return { error: 'no proxy authentication headers' };
  const payloadBytes = Buffer.from(payload, 'base64');
  let data;
  try {
    data = JSON.parse(payloadBytes.toString('utf-8'));
  } catch {
    return { error: 'invalid proxy payload' };
  }
  if (String(data.created_at) !== timestamp) return { error: 'invalid request timestamp' };
  if (data.expires_at < Math.floor(Date.now() / 1000)) return { error: 'expired proxy token' };
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKeyHex, 'hex').toString('base64url') },
    format: 'jwk',
  });
  if (!verify(null, payloadBytes, key, Buffer.from(signature, 'base64'))) {
    return { error: 'invalid request signature' };
  }
  return { user_id: data.user_id };
}

async function handle(options, req, res) {
  const url = new URL(req.url ?? '/', 'http://activity.invalid');
  // The page may call its backend with or without the proxy's `/.proxy` prefix.
  const path = url.pathname.startsWith('/.proxy/') ? url.pathname.slice(7) : url.pathname;
  if (path === '/api/config' && req.method === 'GET') {
    return sendJson(res, 200, { client_id: options.clientId, checks_proxy: !!options.publicKey });
  }
  if (path === '/api/whoami' && req.method === 'GET') {
    if (!options.publicKey) return sendJson(res, 404, { error: 'PUBLIC_KEY is not set' });
    const who = proxyUser(options.publicKey, req.headers);
    return sendJson(res, who.error === undefined ? 200 : 401, who);
  }
  if (path === '/api/token' && req.method === 'POST') {
    const body = await readJson(req);
    if (typeof body?.code !== 'string' || body.code === '') {
      return sendJson(res, 400, { error: 'invalid_request' });
    }
    const { status, body: answer } = await exchange(options, body.code);
    if (status !== 200 || typeof answer.access_token !== 'string') {
      return sendJson(res, 502, { error: answer.error ?? 'exchange_failed' });
    }
    // The page needs only the access token (for AUTHENTICATE); the refresh token stays here.
    return sendJson(res, 200, { access_token: answer.access_token });
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'method' });
  const file = path.startsWith('/sdk/')
    ? fileUnder(SDK_DIR, path.slice(4))
    : fileUnder(PAGE_DIR, path === '/' ? '/index.html' : path);
  if (file === null) return send(res, 404, { type: 'text/plain', body: 'Not found' });
  return send(res, 200, { type: TYPES[extname(file)], body: readFileSync(file) });
}

/**
 * Starts the backend; resolves with its port and `close`.
 * @param {{clientId: string, clientSecret: string, apiUrl: string, publicKey?: string, port?: number, host?: string}} options
 */
export function startActivityBackend(options) {
  const server = createServer((req, res) => {
    handle(options, req, res).catch((error) => {
      console.error('activity backend:', error instanceof Error ? error.message : error);
      if (!res.headersSent) sendJson(res, 502, { error: 'exchange_failed' });
      else res.destroy();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3000, options.host ?? '127.0.0.1', () => {
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address !== null ? address.port : 0,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { CLIENT_ID, CLIENT_SECRET, PUBLIC_KEY, API_URL } = process.env;
  const portArg = process.argv.indexOf('--port');
  const port = portArg === -1 ? 3000 : Number(process.argv[portArg + 1]);
  if (!CLIENT_ID || !CLIENT_SECRET || !Number.isInteger(port)) {
    console.error(
      'Usage: CLIENT_ID=… CLIENT_SECRET=… [PUBLIC_KEY=…] [API_URL=http://127.0.0.1:8080/api/v10] ' +
        'node examples/activity/backend.js [--port 3000]',
    );
    process.exit(2);
  }
  const apiUrl = API_URL ?? 'http://127.0.0.1:8080/api/v10';
  const { port: bound } = await startActivityBackend({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    publicKey: PUBLIC_KEY,
    apiUrl,
    port,
  });
  console.log(`The activity's backend is on http://127.0.0.1:${bound}/ (API: ${apiUrl}).`);
  console.log(`Map "/" to 127.0.0.1:${bound} in the app's Activities settings.`);
}
