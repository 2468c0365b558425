import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.js';
import { redactUrl } from './http/server.js';

/** Paths pino blanks wherever they occur: credentials never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.password',
  '*.token',
  '*.bot_token',
  '*.user_token',
  '*.client_secret',
  '*.access_token',
  '*.refresh_token',
  '*.secret',
  'password',
  'token',
  'client_secret',
];

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
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
      serializers: {
        req: (req: RequestLike) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
      },
    },
    destination,
  );
}
