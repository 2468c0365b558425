/**
 * Child process of bench/http.js: a bare Fastify 5 server (logger off, no hooks) answering
 * GET /api/v10/users/@me with the JSON body given as the first argument, so both targets send
 * the same bytes. Reports `{ type: 'ready', apiUrl }` over IPC and closes on `{ type: 'stop' }`.
 */
import console from 'node:console';
import process from 'node:process';
import Fastify from 'fastify';

const rawBody = process.argv[2];
if (rawBody === undefined || process.send === undefined) {
  console.error('bareServer.js is started by bench/http.js (a JSON body and an IPC channel)');
  process.exit(2);
}
process.on('disconnect', () => process.exit(1));

const body = JSON.parse(rawBody);
const app = Fastify({ logger: false });
app.get('/api/v10/users/@me', () => body);

const address = await app.listen({ host: '127.0.0.1', port: 0 });

process.on('message', (message) => {
  if (message?.type !== 'stop') return;
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});

process.send({ type: 'ready', apiUrl: `${address}/api/v10` });
