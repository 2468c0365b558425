import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.js';

const SENSITIVE_QUERY =
  /([?&](?:code|token|client_secret|refresh_token|access_token|password|user_code|device_code)=)[^&]*/gi;
const WEBHOOK_TOKEN_PATH = /(\/webhooks\/\d+\/)[^/?]+/;

/** A request line fit for logs: secrets in the query or a webhook path are replaced. */
export function redactUrl(url: string): string {
  return url.replace(SENSITIVE_QUERY, '$1[REDACTED]').replace(WEBHOOK_TOKEN_PATH, '$1[REDACTED]');
}

/** Keys whose values never reach a log line, at any depth. */
export const REDACTED_KEYS = new Set([
  'authorization',
  'cookie',
  'password',
  'token',
  'bot_token',
  'user_token',
  'client_secret',
  'access_token',
  'refresh_token',
  'id_token',
  'secret',
  // The device flow's codes: the user_code alone lets whoever reads it approve a device.
  'user_code',
  'device_code',
]);

const CENSOR = '[REDACTED]';
const MAX_DEPTH = 6;

/**
 * A copy of a log object with every sensitive key blanked. It runs only when a line is written;
 * pino's path-based `redact` would also run on every per-request child logger's bindings, which
 * cost more than the rest of a cached-auth request (docs/benchmarks.md).
 */
export function redactSensitive(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => redactSensitive(item, depth + 1));
  // Requests, errors and the like are left to pino's serializers, which pick safe fields.
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = REDACTED_KEYS.has(key.toLowerCase()) ? CENSOR : redactSensitive(item, depth + 1);
  }
  return copy;
}

interface RequestLike {
  method: string;
  url: string;
  ip?: string;
}

/** The process logger (JSON lines; pipe through pino-pretty to read them by eye). */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      formatters: { log: (object) => redactSensitive(object) as Record<string, unknown> },
      serializers: {
        req: (req: RequestLike) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
      },
    },
    destination,
  );
}
