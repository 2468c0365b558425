/**
 * @module control/duration: the lengths of time and moments the controls take, as a person
 * writes them (`'15m'`, `'1h30m'`, `'2030-01-01T00:00:00Z'`).
 */
import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS } from '../domain/time.js';
import type { Duration, Instant } from './types.js';

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: SECOND_MS,
  m: MINUTE_MS,
  h: HOUR_MS,
  d: DAY_MS,
  w: 7 * DAY_MS,
};
const WHOLE = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h|d|w))+$/;
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g;

/** A duration in ms, or null when `text` is not one (a negative number is not). */
export function parseDuration(value: Duration): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null;
  const text = value.trim().replace(/\s+/g, '');
  if (/^\d+(?:\.\d+)?$/.test(text)) return Number(text);
  if (!WHOLE.test(text)) return null;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(PART)) {
    total += Number(amount) * (UNIT_MS[unit ?? ''] ?? 0);
  }
  return Math.round(total);
}

/** A moment in epoch ms, or null when `value` is not one. */
export function parseInstant(value: Instant): number | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.getTime();
  if (typeof value === 'number') return Number.isFinite(value) ? Math.round(value) : null;
  if (/^-?\d+$/.test(value.trim())) return Number(value.trim());
  // A date alone or a date and time; Date.parse is lenient beyond ISO 8601, so check the form.
  if (!/^\d{4}-\d{2}-\d{2}(?:T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(value.trim())) return null;
  const ms = Date.parse(value.trim());
  return Number.isNaN(ms) ? null : ms;
}

/** Thrown for a duration or moment the controls cannot read; the message says what to write. */
export class ControlInputError extends Error {
  override readonly name = 'ControlInputError';
}

export function durationMs(value: Duration): number {
  const ms = parseDuration(value);
  if (ms === null) {
    throw new ControlInputError(
      `${JSON.stringify(value)} is not a duration: write milliseconds or a text such as '15m', '1h30m', '2d'`,
    );
  }
  return ms;
}

export function instantMs(value: Instant): number {
  const ms = parseInstant(value);
  if (ms === null) {
    throw new ControlInputError(
      `${JSON.stringify(value)} is not a moment: write epoch milliseconds or ISO 8601 such as '2030-01-01T00:00:00Z'`,
    );
  }
  return ms;
}
