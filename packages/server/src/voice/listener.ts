/**
 * @module voice/listener: one TCP port that answers both TLS and plain HTTP. Voice clients dial
 * `wss://<endpoint>` (@discordjs/voice) or, on a plain-HTTP deployment, `ws://` (the Social SDK
 * follows its API URL's scheme); the first byte tells them apart (22 opens every TLS handshake).
 */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { TLSSocket, createSecureContext } from 'node:tls';

const TLS_HANDSHAKE = 0x16;
/** A connection that sends nothing this long is dropped. */
const FIRST_BYTE_TIMEOUT_MS = 10_000;

export interface DualListener {
  /** The HTTP server both kinds of connection reach (its 'upgrade' events are the WebSockets). */
  readonly http: HttpServer;
  listen(host: string, port: number): Promise<number>;
  close(): Promise<void>;
}

export function createDualListener(tls: { cert: string; key: string }): DualListener {
  const secureContext = createSecureContext({ cert: tls.cert, key: tls.key });
  const http = createHttpServer((_request, response) => {
    response.writeHead(426, { 'Content-Type': 'text/plain', Connection: 'close' });
    response.end('This is a Guildhall voice gateway: connect a WebSocket to /?v=8.\n');
  });
  http.headersTimeout = FIRST_BYTE_TIMEOUT_MS;
  http.requestTimeout = FIRST_BYTE_TIMEOUT_MS;
  const sockets = new Set<Socket>();
  const net: NetServer = createNetServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.setTimeout(FIRST_BYTE_TIMEOUT_MS, () => socket.destroy());
    socket.once('data', (chunk: Buffer) => {
      socket.setTimeout(0);
      socket.pause();
      socket.unshift(chunk);
      if (chunk[0] === TLS_HANDSHAKE) {
        const secure = new TLSSocket(socket, { isServer: true, secureContext });
        secure.on('error', () => socket.destroy());
        http.emit('connection', secure);
      } else {
        http.emit('connection', socket);
      }
      socket.resume();
    });
    socket.on('error', () => socket.destroy());
  });
  return {
    http,
    listen: (host, port) =>
      new Promise((resolve, reject) => {
        net.once('error', reject);
        net.listen({ host, port, backlog: 1024 }, () => {
          net.off('error', reject);
          const address = net.address();
          resolve(typeof address === 'object' && address !== null ? address.port : port);
        });
      }),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        net.close(() => {
          resolve();
        });
      }),
  };
}
