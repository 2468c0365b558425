import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogFormat, LogLevel } from './config.js';
import { createLogDestination } from './logDestination.js';
import { prettyDestination } from './logPretty.js';

const SENSITIVE_QUERY =
  /([?&](?:code|token|client_secret|refresh_token|access_token|password|user_code|device_code)=)[^&]*/gi;
/** A webhook's or an interaction's token in its path: /webhooks/{id}/{token}, /interactions/{id}/{token}/callback. */
const TOKEN_PATH = /(\/(?:webhooks|interactions)\/\d+\/)[^/?]+/;

/** A request line fit for logs: secrets in the query or a token in the path are replaced. */
export function redactUrl(url: string): string {
  // Most URLs have neither: no regular expression runs for them.
  if (!url.includes('?') && !url.includes('/webhooks/') && !url.includes('/interactions/')) {
    return url;
  }
  return url.replace(SENSITIVE_QUERY, '$1[REDACTED]').replace(TOKEN_PATH, '$1[REDACTED]');
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
/** pino's number for `info`. */
const INFO_LEVEL = 30;
const MAX_DEPTH = 6;

/** Plain objects and arrays are looked into; requests, errors and the like are left to pino's
 * serializers, which pick safe fields. */
function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Whether a log value holds a sensitive key anywhere redactSensitive would look. */
function holdsSensitiveKey(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) return value.some((item) => holdsSensitiveKey(item, depth + 1));
  if (!isPlainObject(value)) return false;
  for (const key in value) {
    if (REDACTED_KEYS.has(key.toLowerCase()) || holdsSensitiveKey(value[key], depth + 1))
      return true;
  }
  return false;
}

function redactedCopy(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => redactedCopy(item, depth + 1));
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = REDACTED_KEYS.has(key.toLowerCase()) ? CENSOR : redactedCopy(item, depth + 1);
  }
  return copy;
}

/**
 * A log object with every sensitive key blanked: a copy when it holds one, else the object
 * itself (most lines, the per-request line among them, hold none and are not copied). It runs
 * only when a line is written; pino's path-based `redact` would also run on every per-request
 * child logger's bindings, which cost more than the rest of a cached-auth request
 * (docs/benchmarks.md).
 */
export function redactSensitive(value: unknown, depth = 0): unknown {
  return holdsSensitiveKey(value, depth) ? redactedCopy(value, depth) : value;
}

interface RequestLike {
  method: string;
  url: string;
  ip?: string;
}

/** The fields of the one log line per request (http/requestLog.ts). */
export interface RequestLine {
  reqId: string;
  method: string;
  /** As received: the writer redacts it. */
  url: string;
  statusCode: number;
  /** Milliseconds. */
  responseTime: number;
  ip: string | undefined;
}

const REQUEST_COMPLETED = 'request completed';

/**
 * A writer of `request completed` lines for `logger`: the JSON line `logger.info(line,
 * 'request completed')` writes (same level, time, bindings, keys and order, the URL redacted),
 * formatted directly and handed to the logger's destination. pino's generic formatter (the
 * redaction hook, serializers and escaping of every key) cost more than the rest of a cached-auth
 * request's logging (docs/benchmarks.md); these fields are fixed, and none but the URL can hold
 * a secret. logger.test.ts checks the two lines stay identical.
 */
export function requestLineWriter(logger: Logger): (line: RequestLine) => void {
  const internals = logger as unknown as Record<symbol, unknown>;
  const stream = internals[pino.symbols.streamSym] as DestinationStream;
  const level = logger.levels.values['info'] ?? INFO_LEVEL;
  return (line) => {
    if (!logger.isLevelEnabled('info')) return;
    const bindings = internals[pino.symbols.chindingsSym] as string;
    const ip = line.ip === undefined ? '' : `,"ip":${JSON.stringify(line.ip)}`;
    stream.write(
      `{"level":${level},"time":${Date.now()}${bindings},"reqId":${JSON.stringify(line.reqId)}` +
        `,"method":${JSON.stringify(line.method)},"url":${JSON.stringify(redactUrl(line.url))}` +
        `,"statusCode":${line.statusCode},"responseTime":${line.responseTime}${ip}` +
        `,"msg":"${REQUEST_COMPLETED}"}\n`,
    );
  };
}

/**
 * A writer of one fixed-shape `info` line: the JSON `logger.info(fields, msg)` writes (same level,
 * time, bindings, the fields in `keys`' order, `msg`), formatted directly and handed to the
 * logger's destination, as `requestLineWriter` does for the API's request line. For per-request
 * lines whose fields are strings, numbers or null; a key that may name a secret
 * (`REDACTED_KEYS`) is refused when the writer is made, since nothing is redacted here.
 */
export function infoLineWriter<K extends string>(
  logger: Logger,
  msg: string,
  keys: readonly K[],
): (fields: Readonly<Record<K, string | number | null>>) => void {
  const sensitive = keys.find((key) => REDACTED_KEYS.has(key.toLowerCase()));
  if (sensitive !== undefined) {
    throw new Error(`log field ${sensitive} may hold a secret: write it with logger.info`);
  }
  const internals = logger as unknown as Record<symbol, unknown>;
  const stream = internals[pino.symbols.streamSym] as DestinationStream;
  const level = logger.levels.values['info'] ?? INFO_LEVEL;
  const names = keys.map((key) => `,${JSON.stringify(key)}:`);
  const tail = `,"msg":${JSON.stringify(msg)}}\n`;
  return (fields) => {
    if (!logger.isLevelEnabled('info')) return;
    const bindings = internals[pino.symbols.chindingsSym] as string;
    let line = `{"level":${level},"time":${Date.now()}${bindings}`;
    keys.forEach((key, i) => {
      line += `${names[i] ?? ''}${JSON.stringify(fields[key])}`;
    });
    stream.write(line + tail);
  };
}

/**
 * The process logger (JSON lines; pipe through pino-pretty to read them by eye). Without a
 * destination it writes to standard output through an asynchronous destination
 * (logDestination.ts) that writes out what is left when the process exits.
 */
export function createLogger(
  level: LogLevel,
  destination: DestinationStream = createLogDestination(),
): Logger {
  return pino(
    {
      level,
      formatters: { log: (object) => redactSensitive(object) as Record<string, unknown> },
      serializers: {
        req: (req: RequestLike) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
        // Any URL logged under this key (requestLineWriter redacts its own the same way).
        url: (url: unknown) => (typeof url === 'string' ? redactUrl(url) : url),
      },
    },
    destination,
  );
}

/**
 * The process logger as the settings ask: JSON lines, or pretty ones for a terminal
 * (logPretty.ts). `auto` is decided by `guildhall start`, which knows whether its output is a
 * terminal; anywhere else it means JSON.
 */
export function createConfiguredLogger(config: { logLevel: LogLevel; logFormat: LogFormat }) {
  const destination = createLogDestination();
  return createLogger(
    config.logLevel,
    config.logFormat === 'pretty' ? prettyDestination(destination) : destination,
  );
}
