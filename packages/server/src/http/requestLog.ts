import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';
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

type LevelMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * A request's logger (`request.log`), made into a real child of the server's logger, bound to the
 * request id, only when something logs through it. Most requests never do (their one line is
 * written by RequestLogController), and Fastify would otherwise build a pino child per request.
 */
export class LazyRequestLogger implements FastifyBaseLogger {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #child: FastifyBaseLogger | null = null;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #real(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  #log(method: LevelMethod, args: unknown[]): void {
    const real = this.#real();
    Reflect.apply(real[method], real, args);
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#real().level = level;
  }

  fatal(...args: unknown[]): void {
    this.#log('fatal', args);
  }

  error(...args: unknown[]): void {
    this.#log('error', args);
  }

  warn(...args: unknown[]): void {
    this.#log('warn', args);
  }

  info(...args: unknown[]): void {
    this.#log('info', args);
  }

  debug(...args: unknown[]): void {
    this.#log('debug', args);
  }

  trace(...args: unknown[]): void {
    this.#log('trace', args);
  }

  silent(...args: unknown[]): void {
    this.#log('silent', args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }
}
