/**
 * @module http/closeListener: closing an HTTP listener without waiting on its clients' sockets.
 *
 * Node's `server.close()` ends the keep-alive connections that are idle when it is called, then
 * waits for every other connection to end. A request in flight at that moment keeps its
 * connection open after its answer, idle until the client hangs up or the keep-alive timeout
 * ends it (72 s with Fastify's default): a shutdown, or a test's `app.close()`, would wait that
 * long on a client that did nothing wrong. So while the listener closes, the connections that
 * fall idle are ended as they do, and those still busy after a grace period are cut.
 */
import type { Server } from 'node:http';
import { SECOND_MS } from '../domain/time.js';

/** How often a closing listener ends the connections that have fallen idle, ms. */
const IDLE_SWEEP_MS = 100;

/** How long a request in flight at close may take before its connection is cut, ms. */
export const CLOSE_GRACE_MS = 10 * SECOND_MS;

/**
 * Runs `close` (Fastify's, or the listener's own), ending `server`'s connections as they fall
 * idle meanwhile and every one still open after `graceMs`; resolves when `close` does.
 */
export async function closeListener(
  server: Pick<Server, 'closeIdleConnections' | 'closeAllConnections'>,
  close: () => Promise<void>,
  graceMs = CLOSE_GRACE_MS,
): Promise<void> {
  const sweep = setInterval(() => {
    server.closeIdleConnections();
  }, IDLE_SWEEP_MS);
  const cut = setTimeout(() => {
    server.closeAllConnections();
  }, graceMs);
  sweep.unref();
  cut.unref();
  try {
    await close();
  } finally {
    clearInterval(sweep);
    clearTimeout(cut);
  }
}

/** `server.close()` as a promise: resolves at once when it is not listening. */
export function closeServer(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve, reject) => {
    server.close((err) => {
      if (err) reject(err);
      else resolve();
    });
  });
}
