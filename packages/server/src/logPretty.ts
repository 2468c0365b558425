/**
 * Log lines for a person at a terminal: `21:13:05 INFO  message key=value`, one per line, and the
 * requests that went well left out, so the start banner (URLs, the bot token, the login link)
 * stays on screen. The JSON lines stay the default when the output is not a terminal (a file, a
 * pipe, a log collector): `--log-format` chooses (docs/operations.md).
 */
import type { LogDestination } from './logDestination.js';

const LEVEL_NAMES: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};

/** Keys every pino line has, which the pretty line shows in its own way or not at all. */
const OWN_KEYS = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'err', 'reqId']);

function clock(time: unknown): string {
  const date = new Date(typeof time === 'number' ? time : Date.now());
  return date.toTimeString().slice(0, 8);
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return /[\s="]/.test(value) ? JSON.stringify(value) : value;
  // JSON.stringify gives undefined for these.
  if (value === undefined || typeof value === 'function') return String(value);
  return JSON.stringify(value);
}

/** One JSON log line as a person reads it, or null for a line left out (a request that went well). */
export function prettyLine(json: string): string | null {
  let line: Record<string, unknown>;
  try {
    line = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const level = typeof line['level'] === 'number' ? line['level'] : 30;
  if (line['msg'] === 'request completed') {
    const status = typeof line['statusCode'] === 'number' ? line['statusCode'] : 0;
    if (status < 400) return null;
    const time = clock(line['time']);
    const took = valueText(line['responseTime']);
    return `${time} ${LEVEL_NAMES[level] ?? 'INFO '} ${String(line['method'])} ${String(line['url'])} → ${status} (${took} ms)\n`;
  }
  const fields = Object.entries(line)
    .filter(([key]) => !OWN_KEYS.has(key))
    .map(([key, value]) => `${key}=${valueText(value)}`);
  const err = line['err'] as { message?: unknown; stack?: unknown } | undefined;
  const detail =
    err === undefined
      ? ''
      : level >= 50 && typeof err.stack === 'string'
        ? `\n${err.stack}`
        : ` (${String(err.message)})`;
  const msg = typeof line['msg'] === 'string' ? line['msg'] : valueText(line['msg'] ?? '');
  const text = [msg, ...fields].filter((part) => part !== '').join(' ');
  return `${clock(line['time'])} ${LEVEL_NAMES[level] ?? String(level)} ${text}${detail}\n`;
}

/** A destination that writes `inner` the pretty form of each line it is given. */
export function prettyDestination(inner: LogDestination): LogDestination {
  return {
    write(json) {
      const line = prettyLine(json);
      return line === null ? true : inner.write(line);
    },
    flush: (callback) => {
      inner.flush(callback);
    },
    flushSync: () => {
      inner.flushSync();
    },
  };
}
