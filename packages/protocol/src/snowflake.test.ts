import { describe, expect, it } from 'vitest';
import {
  PLATFORM_EPOCH_MS,
  compareSnowflakes,
  deconstructSnowflake,
  isSnowflake,
  makeSnowflake,
  snowflakeFromTimestamp,
  snowflakeTimestampMs,
} from './snowflake.js';

const MAX_UINT64 = '18446744073709551615';
const MAX_INT64 = '9223372036854775807';
const MAX_TIMESTAMP_MS = PLATFORM_EPOCH_MS + 2 ** 42 - 1;

describe('PLATFORM_EPOCH_MS', () => {
  it('is the first millisecond of 2015 UTC', () => {
    expect(new Date(PLATFORM_EPOCH_MS).toISOString()).toBe('2015-01-01T00:00:00.000Z');
  });
});

describe('isSnowflake', () => {
  it.each(['0', '1', '0042', '175928847299117063', MAX_INT64])('accepts %s', (value) => {
    expect(isSnowflake(value)).toBe(true);
  });

  it.each([
    '',
    '9223372036854775808',
    MAX_UINT64,
    '18446744073709551616',
    '1'.repeat(21),
    '-1',
    '+1',
    '1.5',
    ' 1',
    '1 ',
    '0x10',
    'abc',
    '１２',
    '@me',
  ])('rejects %j', (value) => {
    expect(isSnowflake(value)).toBe(false);
  });
});

describe('deconstructSnowflake and snowflakeTimestampMs', () => {
  it('split the documented example id', () => {
    expect(deconstructSnowflake('175928847299117063')).toEqual({
      timestampMs: 1462015105796,
      workerId: 1,
      processId: 0,
      increment: 7,
    });
    expect(snowflakeTimestampMs('175928847299117063')).toBe(1462015105796);
  });

  it('read the largest storable id as all parts at their maximum but the top bit', () => {
    expect(deconstructSnowflake(MAX_INT64)).toEqual({
      timestampMs: PLATFORM_EPOCH_MS + 2 ** 41 - 1,
      workerId: 31,
      processId: 31,
      increment: 4095,
    });
  });

  it('throw a TypeError on a malformed id', () => {
    expect(() => deconstructSnowflake('12a')).toThrow(TypeError);
    expect(() => snowflakeTimestampMs('18446744073709551616')).toThrow(TypeError);
  });
});

describe('makeSnowflake', () => {
  it('round-trips through deconstructSnowflake', () => {
    const parts = {
      timestampMs: Date.UTC(2026, 1, 23, 12),
      workerId: 17,
      processId: 5,
      increment: 999,
    };
    const id = makeSnowflake(parts);
    expect(isSnowflake(id)).toBe(true);
    expect(deconstructSnowflake(id)).toEqual(parts);
  });

  it('rebuilds the documented example id', () => {
    expect(
      makeSnowflake({ timestampMs: 1462015105796, workerId: 1, processId: 0, increment: 7 }),
    ).toBe('175928847299117063');
  });

  it('reaches both ends of the 64-bit range', () => {
    const low = { timestampMs: PLATFORM_EPOCH_MS, workerId: 0, processId: 0, increment: 0 };
    const high = { timestampMs: MAX_TIMESTAMP_MS, workerId: 31, processId: 31, increment: 4095 };
    expect(makeSnowflake(low)).toBe('0');
    expect(makeSnowflake(high)).toBe(MAX_UINT64);
  });

  const valid = { timestampMs: PLATFORM_EPOCH_MS + 1, workerId: 0, processId: 0, increment: 0 };
  it.each([
    { timestampMs: PLATFORM_EPOCH_MS - 1 },
    { timestampMs: MAX_TIMESTAMP_MS + 1 },
    { timestampMs: PLATFORM_EPOCH_MS + 0.5 },
    { timestampMs: Number.NaN },
    { workerId: 32 },
    { workerId: -1 },
    { processId: 32 },
    { processId: 1.5 },
    { increment: 4096 },
    { increment: -1 },
  ])('throws a TypeError for %o', (override) => {
    expect(() => makeSnowflake({ ...valid, ...override })).toThrow(TypeError);
  });
});

describe('snowflakeFromTimestamp', () => {
  it('gives the lowest id of that millisecond', () => {
    const ms = Date.UTC(2026, 0, 1);
    const bound = snowflakeFromTimestamp(ms);
    expect(deconstructSnowflake(bound)).toEqual({
      timestampMs: ms,
      workerId: 0,
      processId: 0,
      increment: 0,
    });
    const sameMs = makeSnowflake({ timestampMs: ms, workerId: 31, processId: 31, increment: 4095 });
    const msBefore = makeSnowflake({
      timestampMs: ms - 1,
      workerId: 31,
      processId: 31,
      increment: 4095,
    });
    expect(compareSnowflakes(bound, sameMs)).toBe(-1);
    expect(compareSnowflakes(msBefore, bound)).toBe(-1);
    expect(snowflakeFromTimestamp(PLATFORM_EPOCH_MS)).toBe('0');
  });

  it('rejects times before the platform epoch', () => {
    expect(() => snowflakeFromTimestamp(0)).toThrow(TypeError);
  });
});

describe('compareSnowflakes', () => {
  it('compares by numeric value, not by string', () => {
    expect(compareSnowflakes('9', '10')).toBe(-1);
    expect(compareSnowflakes('10', '9')).toBe(1);
    expect(compareSnowflakes('010', '10')).toBe(0);
    expect(compareSnowflakes(MAX_INT64, '9223372036854775806')).toBe(1);
  });

  it('sorts ids into creation order', () => {
    const ids = ['175928847299117063', '9', '1462015105796', '41771983423143937'];
    expect([...ids].sort(compareSnowflakes)).toEqual([
      '9',
      '1462015105796',
      '41771983423143937',
      '175928847299117063',
    ]);
  });

  it('throws a TypeError on a malformed id', () => {
    expect(() => compareSnowflakes('1', 'x')).toThrow(TypeError);
  });
});
