/**
 * A loopback TCP proxy a test cuts and restores: one client's link to a server goes down (its
 * connections reset, new ones refused) while the server and its other clients carry on.
 *
 * @module
 */
import { createServer, connect, type Socket } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** Resets every connection through it and refuses new ones until {@link restore}. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/**
 * Forwards 127.0.0.1:<port> to 127.0.0.1:`targetPort`, read at each connection (a function when
 * the target starts after the proxy: a server configured with the proxy's address).
 */
export async function startTcpProxy(targetPort: number | (() => number)): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let down = false;
  const server = createServer((client) => {
    if (down) {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(
      typeof targetPort === 'number' ? targetPort : targetPort(),
      '127.0.0.1',
    );
    open.add(client);
    open.add(upstream);
    const end = () => {
      open.delete(client);
      open.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no proxy port');
  return {
    port: address.port,
    cut() {
      down = true;
      for (const socket of open) socket.resetAndDestroy();
      open.clear();
    },
    restore() {
      down = false;
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
    },
  };
}
