/**
 * Child process of bench/gateway.js: the client side, in its own process so the server's event
 * loop is not shared with the sockets it serves. Holds N `ws` sockets (each with its own inflate
 * context under zlib-stream), and measures from the moment the HTTP request that causes a
 * dispatch is sent until the last socket has it. Commands arrive over IPC:
 *
 * - `connect {url, n, compress, token}`: opens all N at once; with a token each identifies when
 *   HELLO arrives. Answers when every socket is ready (GUILD_CREATE received, or the bare
 *   greeting) or failed: `{readyMs, lastMs, errors}`.
 * - `arm {prefix, count}`: answers at once, then `arrived {at}` (a time every process on the
 *   machine reads alike) when each of its sockets has `count` texts containing `prefix`.
 * - `fireOnce {trigger, marker}`, `fireMany {trigger, prefix, messages, inflight}`: the HTTP
 *   requests that cause the dispatches; answers `{startAt}` (same clock) once all are answered.
 *
 * The parent (bench/gateway.js) may split the sessions over several such processes: it arms them
 * all, fires from one, and takes the last `arrived` of all as the end.
 */
import { Buffer } from 'node:buffer';
import console from 'node:console';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';
import { URL } from 'node:url';
import { constants, createInflate } from 'node:zlib';
import WebSocket from 'ws';

if (process.send === undefined) {
  console.error('gatewayClients.js is started by bench/gateway.js');
  process.exit(2);
}

/** @type {{ ws: WebSocket, onText: (text: string | Buffer) => void }[]} */
let sockets = [];

function open({ url, compress, onText, onFail }) {
  const address = new URL(url);
  address.searchParams.set('v', '10');
  address.searchParams.set('encoding', 'json');
  if (compress) address.searchParams.set('compress', 'zlib-stream');
  const ws = new WebSocket(address, { perMessageDeflate: false });
  const socket = { ws, onText };
  if (compress) {
    const inflate = createInflate({ chunkSize: 64 * 1024 });
    let chunks = [];
    inflate.on('data', (chunk) => chunks.push(chunk));
    ws.on('message', (data) => {
      inflate.write(data);
      inflate.flush(constants.Z_SYNC_FLUSH, () => {
        const text = Buffer.concat(chunks).toString();
        chunks = [];
        socket.onText(text);
      });
    });
  } else {
    // Searched as bytes: decoding every frame would cost the client more than the server.
    ws.on('message', (data) => socket.onText(data));
  }
  ws.on('error', (err) => onFail(err.message));
  ws.on('close', (code) => onFail(`closed ${code}`));
  return socket;
}

function connect({ url, n, compress, token }) {
  return new Promise((resolve) => {
    const start = performance.now();
    let ready = 0;
    let failed = 0;
    let readyMs = 0;
    let lastMs = 0;
    const errors = new Map();
    const settle = () => {
      if (ready + failed === n) resolve({ readyMs, lastMs, errors: Object.fromEntries(errors) });
    };
    sockets = [];
    for (let i = 0; i < n; i += 1) {
      let done = false;
      const socket = open({
        url,
        compress,
        onText: (text) => {
          if (done) return;
          if (token === null) {
            done = true;
            ready += 1;
            lastMs = readyMs = performance.now() - start;
            settle();
            return;
          }
          if (text.includes('"op":10')) {
            socket.ws.send(
              JSON.stringify({
                op: 2,
                d: {
                  token,
                  // GUILDS and GUILD_MESSAGES: the fan-out is a MESSAGE_CREATE.
                  intents: 1 | 512,
                  properties: { os: 'linux', browser: 'bench', device: 'bench' },
                },
              }),
            );
          }
          if (text.includes('"t":"READY"')) readyMs = Math.max(readyMs, performance.now() - start);
          if (text.includes('"t":"GUILD_CREATE"')) {
            done = true;
            ready += 1;
            lastMs = performance.now() - start;
            settle();
          }
        },
        onFail: (reason) => {
          if (done) return;
          done = true;
          failed += 1;
          errors.set(reason, (errors.get(reason) ?? 0) + 1);
          settle();
        },
      });
      sockets.push(socket);
    }
  });
}

/** Sends the HTTP request that makes the server dispatch `marker` to every socket. */
async function fire(trigger, marker) {
  const response =
    trigger.kind === 'guildhall'
      ? // A message: the marker rides in the nonce, which sessions without MESSAGE_CONTENT see too.
        await globalThis.fetch(`${trigger.apiUrl}/channels/${trigger.channelId}/messages`, {
          method: 'POST',
          headers: { authorization: trigger.ownerToken, 'content-type': 'application/json' },
          body: JSON.stringify({ content: 'Benchmark message', nonce: marker }),
        })
      : await globalThis.fetch(`${trigger.apiUrl}/broadcast?marker=${marker}`, { method: 'POST' });
  if (!response.ok) throw new Error(`trigger answered ${response.status}`);
  await response.arrayBuffer();
}

/** Resolves when every socket has seen `count` texts containing `prefix`. */
function arrivals(prefix, count) {
  return new Promise((resolve, reject) => {
    let remaining = sockets.length;
    const timer = setTimeout(
      () => reject(new Error(`${remaining} sockets still waiting for ${prefix}`)),
      300_000,
    );
    for (const socket of sockets) {
      let seen = 0;
      let sample = null;
      socket.onText = (text) => {
        if (!text.includes(prefix)) return;
        sample ??= text.toString();
        seen += 1;
        if (seen !== count) return;
        remaining -= 1;
        if (remaining === 0) {
          clearTimeout(timer);
          resolve(sample);
        }
      };
    }
  });
}

/** The time on a clock every process on the machine shares (ms since the epoch, sub-ms). */
const now = () => performance.timeOrigin + performance.now();

/**
 * Arms this process's sockets for `count` texts containing `prefix`; once all have them it says
 * so (`arrived`, with the time and one text) without being asked.
 */
function arm({ prefix, count }) {
  arrivals(prefix, count).then(
    (sample) => process.send({ type: 'arrived', at: now(), sample: sample.toString() }),
    (err) => process.send({ type: 'arrived', error: String(err?.message ?? err) }),
  );
  return Promise.resolve({});
}

/** One dispatch: the request that causes it, from `startAt`. */
async function fireOnce({ trigger, marker }) {
  const startAt = now();
  await fire(trigger, marker);
  return { startAt };
}

/** `messages` dispatches (`prefix`-0, -1, …) with `inflight` requests in flight. */
async function fireMany({ trigger, prefix, messages, inflight }) {
  const startAt = now();
  let next = 0;
  const worker = async () => {
    while (next < messages) {
      const i = next;
      next += 1;
      await fire(trigger, `${prefix}-${i}`);
    }
  };
  await Promise.all(Array.from({ length: inflight }, worker));
  return { startAt };
}

process.on('disconnect', () => process.exit(1));
process.on('message', (message) => {
  const run = { connect, arm, fireOnce, fireMany }[message?.type];
  if (message?.type === 'close') {
    for (const { ws } of sockets) ws.terminate();
    process.exit(0);
  }
  if (run === undefined) return;
  run(message).then(
    (result) => process.send({ type: message.type, ...result }),
    (err) =>
      process.send({
        type: message.type,
        error: `${String(err?.message ?? err)}${err?.cause ? ` (${String(err.cause.message ?? err.cause)})` : ''}`,
      }),
  );
});
process.send({ type: 'ready' });
