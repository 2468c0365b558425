/**
 * Child process of bench/gateway.js: the server side of one measurement, started with
 * `--expose-gc` so its memory per session can be read after a collection.
 *
 * - `guildhall <dataDir>`: the real app (SQLite, rate limits off, logs at warn, identify limits
 *   and the cap on unidentified connections per address lifted, heartbeats every hour so idle clients need not send any) seeded with a guild owned by
 *   a person, a text channel and a bot. Clients identify as that bot; the owner posts a message
 *   (the marker in its nonce) to cause a MESSAGE_CREATE for every session.
 * - `bare <frame>`: `ws` on a plain HTTP server; every socket gets a HELLO-sized greeting, and
 *   POST /broadcast?marker=M&count=C sends C copies of `frame` (the MESSAGE_CREATE frame
 *   Guildhall sent, with M in place of its nonce) to every socket: one serialization per message,
 *   or for `?compress=zlib-stream` sockets a deflate context each, as the gateway needs.
 *
 * Answers `{ type: 'rss' }` with the resident set size after a full collection, `{ type: 'cpu' }`
 * with the CPU time it has used (user + system, µs), and stops on
 * `{ type: 'stop' }`; exits if the parent goes away.
 */
import { Buffer } from 'node:buffer';
import console from 'node:console';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import process from 'node:process';
import { URL } from 'node:url';
import { constants, createDeflate } from 'node:zlib';
import { WebSocketServer } from 'ws';

const [kind, arg] = process.argv.slice(2);
if ((kind !== 'guildhall' && kind !== 'bare') || arg === undefined || process.send === undefined) {
  console.error('gatewayTarget.js is started by bench/gateway.js');
  process.exit(2);
}

async function guildhall(dataDir) {
  const { createApp } = await import('./guildhallModules.js');
  const { benchConfig } = await import('./benchApp.js');
  const app = await createApp(benchConfig(dataDir), {
    overrides: {
      gateway: {
        identifiesPerBucket: 1_000_000,
        identifyPerDay: 1_000_000_000,
        // Every client of the storm comes from one address.
        maxUnidentifiedPerAddress: 1_000_000,
        heartbeatIntervalMs: 3_600_000,
      },
    },
  });
  const owner = await app.services.auth.register({
    email: 'bench-owner@guildhall.localhost',
    username: 'benchowner',
    password: randomBytes(16).toString('hex'),
  });
  const { application, botToken } = await app.services.applications.create(owner.user_id, {
    name: 'Bench Bot',
  });
  const { guild, channels } = await app.services.guilds.create({
    ownerId: owner.user_id,
    name: 'Bench guild',
    channels: [{ name: 'general', type: 'text' }],
  });
  await app.services.guilds.addBot({
    guildId: guild.id,
    applicationId: application.id,
    permissions: 0n,
  });
  await app.listen();
  return {
    info: {
      apiUrl: app.apiUrl(),
      gatewayUrl: app.gatewayUrl(),
      botToken,
      ownerToken: owner.token,
      channelId: channels[0].id,
    },
    close: () => app.close(),
  };
}

async function bare(frame) {
  const sockets = new Set();
  const greeting = JSON.stringify({
    op: 10,
    d: { heartbeat_interval: 3_600_000 },
    s: null,
    t: null,
  });
  /** A socket's own zlib-stream: one deflate context, flushed after every message. */
  const compressor = () => {
    const deflate = createDeflate({ chunkSize: 64 * 1024 });
    const queue = [];
    let chunks = [];
    deflate.on('data', (chunk) => chunks.push(chunk));
    return (text, send) => {
      queue.push(send);
      deflate.write(text);
      deflate.flush(constants.Z_SYNC_FLUSH, () => {
        const out = Buffer.concat(chunks);
        chunks = [];
        queue.shift()(out);
      });
    };
  };
  const http = createServer((request, response) => {
    const url = new URL(request.url, 'http://localhost');
    if (request.method !== 'POST' || url.pathname !== '/broadcast') {
      response.writeHead(404).end();
      return;
    }
    const marker = url.searchParams.get('marker') ?? '';
    const count = Number(url.searchParams.get('count') ?? '1');
    for (let i = 0; i < count; i += 1) {
      const text = frame.replace('{{marker}}', count === 1 ? marker : `${marker}-${i}`);
      const bytes = Buffer.from(text);
      for (const socket of sockets) {
        if (socket.compress === null) socket.ws.send(bytes);
        else socket.compress(text, (out) => socket.ws.send(out));
      }
    }
    response.writeHead(204).end();
  });
  const wss = new WebSocketServer({ server: http, perMessageDeflate: false, backlog: 4096 });
  wss.on('connection', (ws, request) => {
    const compressed = new URL(request.url, 'http://localhost').searchParams.get('compress');
    const socket = { ws, compress: compressed === 'zlib-stream' ? compressor() : null };
    sockets.add(socket);
    ws.on('close', () => sockets.delete(socket));
    if (socket.compress === null) ws.send(greeting);
    else socket.compress(greeting, (out) => ws.send(out));
  });
  await new Promise((resolve) =>
    http.listen({ host: '127.0.0.1', port: 0, backlog: 4096 }, resolve),
  );
  const { port } = http.address();
  return {
    info: { apiUrl: `http://127.0.0.1:${port}`, gatewayUrl: `ws://127.0.0.1:${port}/` },
    close: () =>
      new Promise((resolve) => {
        for (const { ws } of sockets) ws.terminate();
        wss.close(() => http.close(() => resolve()));
      }),
  };
}

const target = kind === 'guildhall' ? await guildhall(arg) : await bare(arg);
process.on('disconnect', () => process.exit(1));
process.on('message', (message) => {
  if (message?.type === 'rss') {
    globalThis.gc?.();
    globalThis.gc?.();
    process.send({ type: 'rss', rss: process.memoryUsage().rss });
  } else if (message?.type === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send({ type: 'cpu', us: user + system });
  } else if (message?.type === 'stop') {
    target.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  }
});
process.send({ type: 'ready', ...target.info });
