/**
 * Closing the app while a client's request is in flight: the answer is sent, and the keep-alive
 * connection it leaves is ended rather than waited on until the client or its timeout ends it.
 *
 * @module
 */
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { startTestServer } from './support/testServer.js';

/** A raw connection to `baseUrl` and everything it has received so far. */
async function rawConnection(baseUrl: string) {
  const { hostname, port } = new URL(baseUrl);
  const socket: Socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  const ended = once(socket, 'close');
  return { socket, ended, received: () => received };
}

describe('closing the app', () => {
  it('answers a request in flight, then ends its keep-alive connection', async () => {
    const server = await startTestServer({ listen: true });
    const client = await rawConnection(server.baseUrl);
    const body = JSON.stringify({ login: 'nobody@example.test', password: 'wrong password' });
    client.socket.write(
      'POST /api/v10/auth/login HTTP/1.1\r\nHost: guildhall\r\nConnection: keep-alive\r\n' +
        `Content-Type: application/json\r\nContent-Length: ${String(body.length)}\r\n\r\n`,
    );
    // The headers are in; the body is not: the request is in flight when the close begins.
    const inFlight = once(server.app.http.server, 'request');
    client.socket.write(body.slice(0, 5));
    await inFlight;
    const closed = server.close();
    client.socket.write(body.slice(5));
    await client.ended;
    await closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 400 /);
  });
});
