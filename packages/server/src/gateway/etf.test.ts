import { describe, expect, it } from 'vitest';
import { EtfDecodeError, decodeEtf, encodeEtf } from './etf.js';

describe('ETF', () => {
  it('round-trips what JSON carries', () => {
    const value = {
      op: 0,
      s: 70_000,
      big: 2 ** 40,
      neg: -5,
      f: 1.5,
      id: '1234567890123456789',
      t: 'MESSAGE_CREATE',
      d: { list: [1, 'two', null, true, false, { nested: [] }], empty: {}, unicode: 'héllo ✓' },
    };
    expect(decodeEtf(encodeEtf(value))).toEqual(value);
  });

  it('encodes null as the atom nil and small integers compactly', () => {
    expect([...encodeEtf(null)]).toEqual([131, 119, 3, ...Buffer.from('nil')]);
    expect([...encodeEtf(7)]).toEqual([131, 97, 7]);
  });

  it('decodes atoms, tuples, char lists and big integers as a client may send them', () => {
    // {op: 1, d: nil} with atom keys (ATOM_EXT)
    const map = Buffer.from([
      131, 116, 0, 0, 0, 2, 100, 0, 2, 111, 112, 97, 1, 100, 0, 1, 100, 100, 0, 3, 110, 105, 108,
    ]);
    expect(decodeEtf(map)).toEqual({ op: 1, d: null });
    expect(decodeEtf(Buffer.from([131, 104, 2, 97, 1, 97, 2]))).toEqual([1, 2]);
    expect(decodeEtf(Buffer.from([131, 107, 0, 2, 104, 105]))).toBe('hi');
    // 2^64 as SMALL_BIG: beyond safe integers, so a string
    expect(decodeEtf(Buffer.from([131, 110, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]))).toBe(
      '18446744073709551616',
    );
  });

  it('refuses what is not a term', () => {
    expect(() => decodeEtf(Buffer.from([130, 97, 1]))).toThrow(EtfDecodeError);
    expect(() => decodeEtf(Buffer.from([131, 109, 0, 0, 0, 9, 1]))).toThrow(EtfDecodeError);
    expect(() => decodeEtf(Buffer.from([131, 97, 1, 0]))).toThrow(EtfDecodeError);
  });

  it('decodes a __proto__ map key as an own property, not a prototype', () => {
    // {"__proto__": {"polluted": 1}} with binary keys (MAP_EXT, BINARY_EXT)
    const key = Buffer.from('__proto__');
    const inner = Buffer.from('polluted');
    const bytes = Buffer.from([
      131,
      116,
      0,
      0,
      0,
      1,
      109,
      0,
      0,
      0,
      key.length,
      ...key,
      116,
      0,
      0,
      0,
      1,
      109,
      0,
      0,
      0,
      inner.length,
      ...inner,
      97,
      1,
    ]);
    const value = decodeEtf(bytes) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ polluted: 1 });
    expect((value as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
