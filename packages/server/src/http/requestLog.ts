import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { requestLineWriter, type RequestLine } from '../logger.js';

/** responseTime is logged to the microsecond. */
const MICROSECONDS_PER_MS = 1000;

/**
 * Fastify's request logging reduced to one line per request, written by the process logger when
 * the answer has gone out: `request completed` with the request id, method, URL (secrets
 * redacted), status, time in ms and client address, as flat fields. Fastify's own writes two
 * lines per request (`incoming request`, then `request completed`, with nested `req` and `res`
 * objects) through each request's child logger; this costs a fraction of that
 * (docs/benchmarks.md). Errors a route throws are logged by the server's error handler, on the
 * request's logger.
 */
export class RequestLogController extends LogController {
  readonly #logger: Logger;
  readonly #writeLine: (line: RequestLine) => void;

  constructor(logger: Logger) {
    super();
    this.#logger = logger;
    this.#writeLine = requestLineWriter(logger);
  }

  override incomingRequest(): void {
    // The one line is written when the request completes.
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line: RequestLine = {
      reqId: request.id,
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * MICROSECONDS_PER_MS) / MICROSECONDS_PER_MS,
      ip: request.ip,
    };
    // The answer could not be sent whole (the client went away, the socket failed).
    if (error) this.#logger.error({ ...line, err: error }, 'request errored');
    else this.#writeLine(line);
  }
}
