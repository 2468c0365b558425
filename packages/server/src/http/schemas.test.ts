import { ALL_PERMISSIONS } from '@guildhall/protocol';
import { describe, expect, it } from 'vitest';
import { DisplayName, IsoTimestamp, PermissionBits } from './schemas.js';

describe('PermissionBits', () => {
  it('takes digit strings and safe integers, masking undefined bits', () => {
    expect(PermissionBits.parse('8')).toBe(8n);
    expect(PermissionBits.parse(8)).toBe(8n);
    expect(PermissionBits.parse((1n << 63n).toString())).toBe(0n);
    expect(PermissionBits.parse('9'.repeat(64))).toBe(BigInt('9'.repeat(64)) & ALL_PERMISSIONS);
  });
  it('refuses negatives, fractions, unsafe integers and other strings', () => {
    for (const bad of [-1, 1.5, 2 ** 60, '-1', '0x10', 'lots', '1'.repeat(65), '']) {
      expect(PermissionBits.safeParse(bad).success, String(bad)).toBe(false);
    }
  });
});

describe('IsoTimestamp', () => {
  it('takes ISO 8601 with a zone, as epoch ms', () => {
    expect(IsoTimestamp.parse('2025-01-02T03:04:05.678Z')).toBe(Date.UTC(2025, 0, 2, 3, 4, 5, 678));
    expect(IsoTimestamp.parse('2025-01-02T03:04+01:00')).toBe(Date.UTC(2025, 0, 2, 2, 4));
  });
  it('refuses dates without a zone and other text', () => {
    for (const bad of ['2025-01-02T03:04:05', '2025-01-02', 'tomorrow', '2025-13-40T00:00Z']) {
      expect(IsoTimestamp.safeParse(bad).success, bad).toBe(false);
    }
  });
});

describe('DisplayName', () => {
  const Name = DisplayName(2, 10);
  it('trims and keeps visible names', () => {
    expect(Name.parse('  ab  ')).toBe('ab');
    expect(Name.parse('a\u200bb')).toBe('a\u200bb');
  });
  it('refuses blank, zero-width-only, control characters and bad lengths', () => {
    for (const bad of [
      '',
      '   ',
      '\u200b\u200b',
      '\u2060\ufeff',
      'a\u0000b',
      'a\nb',
      'a',
      'x'.repeat(11),
    ]) {
      expect(Name.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
