/**
 * The SDK's log: consumers added with `addLogCallback`, each with its minimum severity. Every line
 * passes the redactor first, so no bearer token, refresh token, code verifier or client secret
 * reaches a consumer at any level.
 *
 * @module
 */
import { LoggingSeverity } from './enums.js';

export type LogCallback = (message: string, severity: LoggingSeverity) => void;

const REDACTED = '[redacted]';

const SECRET_KEYS =
  'access_token|refresh_token|id_token|client_secret|code_verifier|external_auth_token|parent_access_token|parent_client_secret';

/** Token-shaped values in headers, query strings, forms, JSON and `key: value` prose. */
const PATTERNS: readonly [RegExp, string][] = [
  [/\b(Bearer|Bot)\s+[\w.~+/=-]+/gi, '$1 [redacted]'],
  [new RegExp(`\\b(${SECRET_KEYS}|token)=[^&\\s"',}]+`, 'gi'), '$1=[redacted]'],
  [new RegExp(`"(${SECRET_KEYS}|token)"\\s*:\\s*"[^"]*"`, 'gi'), '"$1":"[redacted]"'],
  [new RegExp(`\\b(${SECRET_KEYS})\\s*:\\s*[^\\s,}]+`, 'gi'), '$1: [redacted]'],
];

export class Logger {
  #consumers: { callback: LogCallback; min: LoggingSeverity }[] = [];
  /** Secrets this client holds (its tokens): removed wherever they appear in a line. */
  #secrets = new Set<string>();

  add(callback: LogCallback, min: LoggingSeverity): void {
    this.#consumers.push({ callback, min });
  }

  /** Marks a value as secret from now on (an access token, a refresh token, a verifier). */
  secret(value: string | null | undefined): void {
    if (value !== null && value !== undefined && value.length >= 8) this.#secrets.add(value);
  }

  redact(message: string): string {
    let line = message;
    for (const secret of this.#secrets) line = line.split(secret).join(REDACTED);
    for (const [pattern, replacement] of PATTERNS) line = line.replace(pattern, replacement);
    return line;
  }

  log(severity: LoggingSeverity, message: string): void {
    if (this.#consumers.length === 0 || severity >= LoggingSeverity.None) return;
    const line = this.redact(message);
    for (const { callback, min } of this.#consumers) {
      if (severity < min) continue;
      try {
        callback(line, severity);
      } catch {
        // A consumer's failure is its own; the other consumers and the SDK go on.
      }
    }
  }

  verbose(message: string): void {
    this.log(LoggingSeverity.Verbose, message);
  }
  info(message: string): void {
    this.log(LoggingSeverity.Info, message);
  }
  warn(message: string): void {
    this.log(LoggingSeverity.Warning, message);
  }
  error(message: string): void {
    this.log(LoggingSeverity.Error, message);
  }
}
