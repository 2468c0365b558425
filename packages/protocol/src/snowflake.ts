// Snowflake ids: 64-bit unsigned integers sent as decimal strings. From the high bit down: 42 bits
// of milliseconds since the platform epoch, 5 bits worker id, 5 bits process id, 12 bits increment.

/** The platform epoch, 2015-01-01T00:00:00.000Z, as Unix epoch milliseconds. */
export const PLATFORM_EPOCH_MS = 1420070400000;

/** A snowflake id in its wire form: an unsigned 64-bit integer as a decimal string. */
export type Snowflake = string;

const TIMESTAMP_SHIFT = 22n;
const WORKER_SHIFT = 17n;
const PROCESS_SHIFT = 12n;
const MAX_TIMESTAMP_OFFSET_MS = 2 ** 42 - 1;
const MAX_WORKER_ID = 31;
const MAX_PROCESS_ID = 31;
const MAX_INCREMENT = 4095;

/** The largest id accepted: ids are stored in signed 64-bit columns. */
const MAX_STORABLE_ID = (1n << 63n) - 1n;

/**
 * Tells whether `value` is a valid snowflake: 1 to 20 decimal digits (leading zeros allowed)
 * whose value fits in a signed 64-bit integer. Every id the platform issues does: the timestamp's
 * top bit stays clear until the year 2154, and storage columns are signed 64-bit.
 *
 * @param value - The string to check.
 * @returns `true` when `value` is a snowflake.
 */
export function isSnowflake(value: string): boolean {
  return /^[0-9]{1,20}$/.test(value) && BigInt(value) <= MAX_STORABLE_ID;
}

function toBigInt(id: Snowflake): bigint {
  if (!isSnowflake(id)) {
    throw new TypeError(`Invalid snowflake: ${JSON.stringify(id.slice(0, 40))}`);
  }
  return BigInt(id);
}

/**
 * Reads the creation time of a snowflake.
 *
 * @param id - A snowflake.
 * @returns Its timestamp as Unix epoch milliseconds.
 * @throws TypeError when `id` is not a snowflake.
 */
export function snowflakeTimestampMs(id: Snowflake): number {
  return Number(toBigInt(id) >> TIMESTAMP_SHIFT) + PLATFORM_EPOCH_MS;
}

/**
 * Splits a snowflake into its four parts.
 *
 * @param id - A snowflake.
 * @returns The timestamp (Unix epoch milliseconds), worker id, process id and increment.
 * @throws TypeError when `id` is not a snowflake.
 * @example
 * ```ts
 * deconstructSnowflake('175928847299117063');
 * // { timestampMs: 1462015105796, workerId: 1, processId: 0, increment: 7 }
 * ```
 */
export function deconstructSnowflake(id: Snowflake): {
  timestampMs: number;
  workerId: number;
  processId: number;
  increment: number;
} {
  const value = toBigInt(id);
  return {
    timestampMs: Number(value >> TIMESTAMP_SHIFT) + PLATFORM_EPOCH_MS,
    workerId: Number((value >> WORKER_SHIFT) & 0x1fn),
    processId: Number((value >> PROCESS_SHIFT) & 0x1fn),
    increment: Number(value & 0xfffn),
  };
}

function checkInteger(name: string, value: number, range: { min: number; max: number }): void {
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    throw new TypeError(`${name} must be an integer from ${range.min} to ${range.max}: ${value}`);
  }
}

/**
 * Builds a snowflake from its parts.
 *
 * @param parts - `timestampMs` (Unix epoch milliseconds, from {@link PLATFORM_EPOCH_MS} to
 *   2^42 - 1 ms after it), `workerId` (0–31), `processId` (0–31) and `increment` (0–4095).
 * @returns The snowflake.
 * @throws TypeError when a part is not an integer or is out of range.
 */
export function makeSnowflake(parts: {
  timestampMs: number;
  workerId: number;
  processId: number;
  increment: number;
}): Snowflake {
  const { timestampMs, workerId, processId, increment } = parts;
  checkInteger('timestampMs', timestampMs, {
    min: PLATFORM_EPOCH_MS,
    max: PLATFORM_EPOCH_MS + MAX_TIMESTAMP_OFFSET_MS,
  });
  checkInteger('workerId', workerId, { min: 0, max: MAX_WORKER_ID });
  checkInteger('processId', processId, { min: 0, max: MAX_PROCESS_ID });
  checkInteger('increment', increment, { min: 0, max: MAX_INCREMENT });
  return (
    (BigInt(timestampMs - PLATFORM_EPOCH_MS) << TIMESTAMP_SHIFT) |
    (BigInt(workerId) << WORKER_SHIFT) |
    (BigInt(processId) << PROCESS_SHIFT) |
    BigInt(increment)
  ).toString();
}

/**
 * The lowest snowflake of a millisecond (worker, process and increment all 0), for turning a time
 * into a `before`/`after`/`min_id`/`max_id` style bound. Every id made at `timestampMs` or later
 * compares greater than or equal to it.
 *
 * @param timestampMs - Unix epoch milliseconds, in the range {@link makeSnowflake} accepts.
 * @returns The snowflake.
 * @throws TypeError when `timestampMs` is not an integer or is out of range.
 */
export function snowflakeFromTimestamp(timestampMs: number): Snowflake {
  return makeSnowflake({ timestampMs, workerId: 0, processId: 0, increment: 0 });
}

/**
 * Compares two snowflakes by numeric value (so `'9'` sorts before `'10'`), which is creation
 * order.
 *
 * @param a - A snowflake.
 * @param b - A snowflake.
 * @returns `-1` when `a` is lower, `1` when it is higher, `0` when they are equal in value.
 * @throws TypeError when either is not a snowflake.
 */
export function compareSnowflakes(a: Snowflake, b: Snowflake): -1 | 0 | 1 {
  const x = toBigInt(a);
  const y = toBigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
