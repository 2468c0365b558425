/**
 * Units of time, so that durations read as what they are (`14 * DAY_MS`, `seconds * SECOND_MS`)
 * rather than as bare products of 60, 24 and 1000.
 */

/** One second in milliseconds. */
export const SECOND_MS = 1000;
/** One minute in milliseconds. */
export const MINUTE_MS = 60 * SECOND_MS;
/** One hour in milliseconds. */
export const HOUR_MS = 60 * MINUTE_MS;
/** One day in milliseconds. */
export const DAY_MS = 24 * HOUR_MS;
/** One day in seconds (the unit of ban, invite and cookie lifetimes on the wire). */
export const DAY_SECONDS = DAY_MS / SECOND_MS;

/** Whole seconds since the Unix epoch of a time in milliseconds (wire timestamps, JWT claims). */
export function unixSeconds(ms: number): number {
  return Math.floor(ms / SECOND_MS);
}
