/**
 * @module voice/listener: one TCP port that answers both TLS and plain HTTP. Voice clients dial
 * `wss://<endpoint>` (@discordjs/voice) or, on a plain-HTTP deployment, `ws://` (the Social SDK
 * follows its API URL's scheme); the first byte tells them apart (22 opens every TLS handshake).
 * The certificate is asked for at the first TLS connection, not before.
 */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { TLSSocket, createSecureContext, type SecureContext } from 'node:tls';

const TLS_HANDSHAKE = 0x16;
/** A connection that sends nothing this long is dropped. */
const FIRST_BYTE_TIMEOUT_MS = 10_000;

export interface DualListener {
  /** The HTTP server both kinds of connection reach (its 'upgrade' events are the WebSockets). */
  readonly http: HttpServer;
  listen(host: string, port: number): Promise<number>;
  close(): Promise<void>;
}

/** `socket` as a plain duplex stream that starts with `head` (the bytes already read). */
function asStream(socket: Socket, head: Buffer): Duplex {
  const stream = new Duplex({
    read() {
      socket.resume();
    },
    write(chunk: Buffer, _encoding, callback) {
      socket.write(chunk, callback);
    },
    final(callback) {
      socket.end(callback);
    },
    destroy(err, callback) {
      socket.destroy(err ?? undefined);
      callback(err);
    },
  });
  stream.push(head);
  socket.on('data', (data: Buffer) => {
    if (!stream.push(data)) socket.pause();
  });
  socket.once('end', () => stream.push(null));
  socket.once('close', () => stream.destroy());
  return stream;
}

/**
 * @param tls The certificate and key, asked for at the first TLS connection (once, unless it
 *   fails: then at the next).
 * @param onTlsError What a failure to get them is told to (the connection is dropped).
 */
export function createDualListener(
  tls: () => Promise<{ cert: string; key: string }>,
  onTlsError: (err: unknown) => void,
): DualListener {
  const http = createHttpServer((_request, response) => {
    response.writeHead(426, { 'Content-Type': 'text/plain', Connection: 'close' });
    response.end('This is a Guildhall voice gateway: connect a WebSocket to /?v=8.\n');
  });
  // An idle connection that has not upgraded goes (the WebSocket upgrade clears the timeout).
  // headersTimeout and requestTimeout are checked only by a server that listens itself.
  http.timeout = FIRST_BYTE_TIMEOUT_MS;
  let made: Promise<SecureContext> | undefined;
  const context = () =>
    (made ??= tls().then(
      (material) => createSecureContext({ cert: material.cert, key: material.key }),
      (err: unknown) => {
        made = undefined;
        throw err;
      },
    ));
  /**
   * A TLS connection: what it decrypts goes to the HTTP server (whose timeout covers a stalled
   * handshake). TLS reads a net.Socket's handle directly, past what was unshifted, so it reads a
   * stream instead; a socket over a stream cannot ask the kernel for its peer, so it is told
   * (the unidentified cap counts by address, and every TLS client would otherwise share one).
   */
  const serveTls = (socket: Socket, head: Buffer, secureContext: SecureContext) => {
    const secure = new TLSSocket(asStream(socket, head), { isServer: true, secureContext });
    for (const key of ['remoteAddress', 'remoteFamily', 'remotePort'] as const) {
      Object.defineProperty(secure, key, { value: socket[key], enumerable: true });
    }
    secure.on('error', () => secure.destroy());
    http.emit('connection', secure);
  };
  const sockets = new Set<Socket>();
  const net: NetServer = createNetServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.setTimeout(FIRST_BYTE_TIMEOUT_MS, () => socket.destroy());
    socket.once('data', (chunk: Buffer) => {
      socket.setTimeout(0);
      if (chunk[0] === TLS_HANDSHAKE) {
        // What follows waits in the socket until the certificate is there.
        socket.pause();
        context().then(
          (secure) => {
            if (!socket.destroyed) serveTls(socket, chunk, secure);
          },
          (err: unknown) => {
            onTlsError(err);
            socket.destroy();
          },
        );
        return;
      }
      socket.pause();
      socket.unshift(chunk);
      http.emit('connection', socket);
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
