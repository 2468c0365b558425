import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers: a status (204 by default), a redirect, or never (a hung server). */
export type ReceiverAnswer = number | { redirect: string } | 'hang';

/**
 * A real HTTP server on 127.0.0.1 standing in for an app's webhook events endpoint. `answer`
 * decides each reply from the request's number (0-based, over the receiver's life) and the request.
 */
export async function startWebhookReceiver(
  answer: (index: number, request: ReceivedRequest) => ReceiverAnswer = () => 204,
) {
  const received: ReceivedRequest[] = [];
  let count = 0;
  const hung = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const reply = answer(count++, request);
      received.push(request);
      if (reply === 'hang') {
        hung.add(res);
        return;
      }
      if (typeof reply === 'object') {
        res.writeHead(302, { location: reply.redirect }).end();
        return;
      }
      res.writeHead(reply).end(reply === 204 ? undefined : 'not the answer you wanted');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}/webhook-events`,
    received,
    async close() {
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

/** Timers that never fire by themselves: the test runs the delivery worker's passes. */
export const heldTimers = { schedule: () => () => undefined };
