/**
 * @module http/headRequests: HEAD answered by the GET route of the same path, headers only.
 * Fastify's own way (`exposeHeadRoutes`) registers a HEAD route beside every GET route: ~170
 * more routes, a third of what every start registers. Instead a HEAD request is routed as a GET
 * (`rewriteUrl`, before routing), is HEAD again from its first hook on (so logs, limits and
 * metrics see HEAD, and Fastify leaves its Content-Length alone), and its GET route's last
 * `onSend` hook sets Content-Length and drops the body, as Fastify's HEAD routes do. Node sends
 * no body on a HEAD response whatever is written.
 */
import type { IncomingMessage } from 'node:http';
import type {
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onSendHookHandler,
} from 'fastify';

/** HEAD requests routed as GET (until their first hook). */
const routedAsGet = new WeakSet<IncomingMessage>();

/** In `rewriteUrl`, before routing: a HEAD request is routed to its path's GET route. */
export function routeHeadAsGet(request: IncomingMessage): void {
  if (request.method !== 'HEAD') return;
  routedAsGet.add(request);
  request.method = 'GET';
}

/** The first `onRequest` hook: the request routed as GET is HEAD again for everything after. */
export function restoreHeadMethod(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  if (routedAsGet.has(request.raw)) request.raw.method = 'HEAD';
  done();
}

/** A GET route's last `onSend` hook: for HEAD, the body's length and no body. */
// eslint-disable-next-line max-params -- Fastify's signature; `done` spares a promise per answer
export const headOnSend: onSendHookHandler = (request, reply, payload, done) => {
  if (request.raw.method !== 'HEAD') {
    done(null, payload);
    return;
  }
  if (payload === undefined || payload === null) {
    void reply.header('content-length', '0');
  } else if (typeof (payload as NodeJS.ReadableStream).resume === 'function') {
    const stream = payload as NodeJS.ReadableStream;
    stream.on('error', (err) => {
      reply.log.error({ err }, 'stream of a HEAD answer failed');
    });
    stream.resume();
  } else if (typeof (payload as ReadableStream).getReader === 'function') {
    (payload as ReadableStream).cancel('a HEAD answer has no body').catch((err: unknown) => {
      reply.log.error({ err }, 'stream of a HEAD answer failed');
    });
  } else {
    const length = Buffer.byteLength(payload as string | NodeJS.ArrayBufferView);
    void reply.header('content-length', String(length));
  }
  done(null, null);
};
