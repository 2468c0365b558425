/**
 * Child process of bench/http.js: a bare Fastify 5 server (logger off, no hooks) answering
 * GET /api/v10/users/@me with the JSON body given as the first argument, so both targets send
 * the same bytes. Talks to the parent through childIpc.js.
 */
import console from 'node:console';
import process from 'node:process';
import Fastify from 'fastify';
import { serveParent } from './childIpc.js';

const rawBody = process.argv[2];
if (rawBody === undefined || process.send === undefined) {
  console.error('bareServer.js is started by bench/http.js (a JSON body and IPC)');
  process.exit(2);
}

const body = JSON.parse(rawBody);
const app = Fastify({ logger: false });
app.get('/api/v10/users/@me', () => body);

const address = await app.listen({ host: '127.0.0.1', port: 0 });
serveParent({ apiUrl: `${address}/api/v10` }, () => app.close());
