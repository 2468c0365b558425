/**
 * An app's interactions endpoint for tests: a real HTTP server on 127.0.0.1 behind
 * discord-interactions' own `verifyKeyMiddleware` (which refuses bad signatures with 401 and
 * answers PINGs), answering each interaction with what the test says.
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyKeyMiddleware } from 'discord-interactions';

/**
 * How the endpoint answers an interaction: a JSON response, a multipart one (a response with
 * files), another status, or never.
 */
export type EndpointReply =
  | { json: unknown }
  | { multipart: { type: string; payload: Buffer } }
  | { status: number }
  | 'hang';

/** The endpoint; `received` holds the verified interactions (PINGs and refusals left out). */
export async function startInteractionEndpoint(
  publicKey: string,
  answer: (interaction: Record<string, unknown>) => EndpointReply,
) {
  const received: Record<string, unknown>[] = [];
  const hung = new Set<ServerResponse>();
  const middleware = verifyKeyMiddleware(publicKey);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    // The Express request and response methods the middleware calls.
    const request: IncomingMessage & { body?: unknown } = Object.assign(req, {
      header: (name: string) => req.headers[name.toLowerCase()],
    });
    const next = () => {
      const interaction = request.body as Record<string, unknown>;
      received.push(interaction);
      const reply = answer(interaction);
      if (reply === 'hang') {
        hung.add(res);
        return;
      }
      if ('status' in reply) {
        res.writeHead(reply.status).end();
        return;
      }
      if ('multipart' in reply) {
        res.writeHead(200, { 'content-type': reply.multipart.type }).end(reply.multipart.payload);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply.json));
    };
    // Typed for Express; it calls only header(), body, statusCode, setHeader() and end().
    middleware(request, res, next);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}/interactions`,
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
