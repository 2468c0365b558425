import { ERRORS, type ErrorBody, type RateLimitBody } from '@guildhall/protocol';
import { ZodError } from 'zod';
import { ApiError } from './ApiError.js';
import { fieldErrorTree } from './zodErrors.js';
import { SECOND_MS } from '../domain/time.js';

/** Raised by the rate limiter; becomes a 429 with the platform's body. */
export interface RateLimitedErrorOptions {
  retryAfterSeconds: number;
  global: boolean;
  scope: 'user' | 'global' | 'shared';
  /** The X-RateLimit-* headers the 429 carries. */
  headers: Record<string, string>;
}

/** Raised by the rate limiter; becomes a 429 with the platform's body. */
export class RateLimitedError extends Error {
  override readonly name = 'RateLimitedError';
  readonly retryAfterSeconds: number;
  readonly global: boolean;
  readonly scope: RateLimitedErrorOptions['scope'];
  readonly headers: Record<string, string>;

  constructor(options: RateLimitedErrorOptions) {
    super('You are being rate limited.');
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.global = options.global;
    this.scope = options.scope;
    this.headers = options.headers;
  }
}

export interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: ErrorBody | RateLimitBody | (ErrorBody & Record<string, unknown>);
  /** Whether this is a failure of ours (logged with its cause) rather than the caller's. */
  internal: boolean;
}

interface FastifyLikeError {
  code?: unknown;
  statusCode?: unknown;
}

function fromFastify(err: FastifyLikeError): ApiError | null {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('REQUEST_ENTITY_TOO_LARGE');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('INVALID_JSON');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('INVALID_FORM_BODY', {
        errors: {
          _errors: [
            {
              code: 'CONTENT_TYPE_INVALID',
              message:
                'Expected Content-Type to be one of {application/json, application/x-www-form-urlencoded, multipart/form-data}.',
            },
          ],
        },
      });
    default:
      break;
  }
  // Fastify's JSON parser reports malformed JSON as a SyntaxError with status 400.
  if (err instanceof SyntaxError && err.statusCode === 400) return new ApiError('INVALID_JSON');
  return null;
}

/**
 * The only place a thrown value becomes an HTTP response. An ApiError keeps its catalogue entry,
 * a ZodError becomes 50035 with the nested `errors` tree, and anything else is a 500 that tells
 * the client nothing but the request id.
 */
export function toErrorResponse(err: unknown, requestId: string): ErrorResponse {
  if (err instanceof ApiError) {
    const body: ErrorBody & Record<string, unknown> = {
      ...err.extra,
      message: err.message,
      code: err.code,
    };
    if (err.errors !== undefined) body.errors = err.errors;
    return { status: err.status, headers: {}, body, internal: false };
  }
  if (err instanceof ZodError) {
    const invalid = ERRORS.INVALID_FORM_BODY;
    return {
      status: invalid.status,
      headers: {},
      body: { message: invalid.message, code: invalid.code, errors: fieldErrorTree(err.issues) },
      internal: false,
    };
  }
  if (err instanceof RateLimitedError) {
    const limited = ERRORS.RATE_LIMITED;
    return {
      status: limited.status,
      headers: {
        ...err.headers,
        'retry-after': String(Math.max(1, Math.ceil(err.retryAfterSeconds))),
      },
      body: {
        message: limited.message,
        retry_after: Math.max(0, Math.round(err.retryAfterSeconds * SECOND_MS) / SECOND_MS),
        global: err.global,
        code: limited.code,
      },
      internal: false,
    };
  }
  if (typeof err === 'object' && err !== null) {
    const mapped = fromFastify(err);
    if (mapped) return toErrorResponse(mapped, requestId);
  }
  const internal = ERRORS.INTERNAL_SERVER_ERROR;
  return {
    status: internal.status,
    headers: { 'x-request-id': requestId },
    body: { message: `${internal.message} (request id ${requestId})`, code: internal.code },
    internal: true,
  };
}
