import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  formatKeyring,
  keyId,
  keyringOf,
  liveKeys,
  parseKeyring,
  rotateKeyring,
  type SecretKeyring,
} from './keyring.js';
import { SEALED_AS, SecretBoxError, createSecretBox } from './secretBox.js';
import { manualClock } from './clock.js';

const NOW = Date.UTC(2026, 11, 5, 10);
const HOUR = 3_600_000;

describe('the secret keyring', () => {
  const [a, b, c, d] = [randomBytes(32), randomBytes(32), randomBytes(32), randomBytes(32)];
  const b64 = (key: Buffer) => key.toString('base64');

  it('reads and writes the key file form and the variable form alike', () => {
    const keyring: SecretKeyring = {
      current: a,
      next: b,
      previous: [
        { key: c, retiresAtMs: NOW + HOUR },
        { key: d, retiresAtMs: NOW - HOUR },
      ],
    };
    const file = formatKeyring(keyring);
    expect(file).toBe(
      [
        b64(a),
        `${b64(b)} next`,
        `${b64(c)} until 2026-12-05T11:00:00.000Z`,
        `${b64(d)} until 2026-12-05T09:00:00.000Z`,
      ].join('\n'),
    );
    expect(parseKeyring(`${file}\n`)).toEqual({ keyring });
    expect(parseKeyring(formatKeyring(keyring, ', '))).toEqual({ keyring });
    // A single key (the form from before keyrings) is a keyring of one; url-safe base64 too.
    expect(parseKeyring(`${b64(a)}\n`)).toEqual({ keyring: keyringOf(a) });
    expect(parseKeyring(a.toString('base64url'))).toEqual({ keyring: keyringOf(a) });
  });

  it('says what is wrong with an entry, never echoing a key', () => {
    const cases: [string, string][] = [
      ['', 'no current key (an entry with no word after its key)'],
      [`${b64(a)} next`, 'no current key (an entry with no word after its key)'],
      [`${b64(a)}, ${b64(b)}`, 'entry 2: only one key is current (no word after)'],
      [`${b64(a)}, ${b64(b)} next, ${b64(c)} next`, 'entry 3: only one key is staged (next)'],
      [`${b64(a)}, ${b64(a)} next`, 'entry 2 repeats a key'],
      [
        `${b64(a)}, ${b64(b)} until tomorrow`,
        'entry 2: "until" takes a UTC time such as 2026-12-06T10:00:00Z',
      ],
      [
        `${b64(a)}, ${b64(b)} until 2026-13-45T10:00:00Z`,
        'entry 2: "until" takes a UTC time such as 2026-12-06T10:00:00Z',
      ],
      [`${b64(a)}, ${b64(b)} later`, 'entry 2 is not a 32-byte base64 key'],
      [b64(a).slice(0, 20), 'entry 1 is not a 32-byte base64 key'],
      [
        `${b64(a)}, ${randomBytes(16).toString('base64')} next`,
        'entry 2 is not a 32-byte base64 key',
      ],
    ];
    for (const [text, error] of cases) {
      const parsed = parseKeyring(text);
      expect(parsed, text).toEqual({ error });
      expect(JSON.stringify(parsed)).not.toContain(b64(a).slice(0, 12));
    }
  });

  it('opens with the current key, the staged one and previous ones until they retire', () => {
    const keyring: SecretKeyring = {
      current: a,
      next: b,
      previous: [{ key: c, retiresAtMs: NOW + HOUR }],
    };
    expect(liveKeys(keyring, NOW)).toEqual([a, b, c]);
    expect(liveKeys(keyring, NOW + HOUR)).toEqual([a, b]);
    expect(keyId(a)).toMatch(/^[0-9a-f]{8}$/);
    expect(keyId(a)).not.toBe(keyId(b));
  });

  it('a rotation makes the staged key (else a fresh one) current and retires the old', () => {
    const staged: SecretKeyring = {
      current: a,
      next: b,
      previous: [
        { key: c, retiresAtMs: NOW + HOUR },
        { key: d, retiresAtMs: NOW - 1 },
      ],
    };
    expect(rotateKeyring(staged, { fresh: d, nowMs: NOW, retireAfterMs: 24 * HOUR })).toEqual({
      current: b,
      next: null,
      previous: [
        { key: a, retiresAtMs: NOW + 24 * HOUR },
        { key: c, retiresAtMs: NOW + HOUR },
      ],
    });
    expect(rotateKeyring(keyringOf(a), { fresh: b, nowMs: NOW, retireAfterMs: HOUR })).toEqual({
      current: b,
      next: null,
      previous: [{ key: a, retiresAtMs: NOW + HOUR }],
    });
  });
});

describe('the secret box over a keyring', () => {
  const [a, b, c] = [randomBytes(32), randomBytes(32), randomBytes(32)];
  const aad = SEALED_AS.webhookToken('1');

  it('seals with the current key and opens with every live one', () => {
    const clock = manualClock(NOW);
    const box = createSecretBox(
      { current: a, next: b, previous: [{ key: c, retiresAtMs: NOW + HOUR }] },
      clock,
    );
    const sealed = box.seal('token', aad);
    expect(createSecretBox(a).open(sealed, aad)).toBe('token');
    expect(() => createSecretBox(b).open(sealed, aad)).toThrow(SecretBoxError);
    for (const key of [a, b, c]) {
      expect(box.open(createSecretBox(key).seal('token', aad), aad)).toBe('token');
    }
    // Sealed with the current or the staged key: nothing to do. With a previous key: sealed anew.
    expect(box.reseal(sealed, aad)).toBeNull();
    expect(box.reseal(createSecretBox(b).seal('token', aad), aad)).toBeNull();
    const old = createSecretBox(c).seal('token', aad);
    const again = box.reseal(old, aad) ?? '';
    expect(createSecretBox(a).open(again, aad)).toBe('token');
    // Once the previous key retires, what only it opens does not open.
    clock.advance(HOUR);
    expect(() => box.open(old, aad)).toThrow(SecretBoxError);
    expect(() => box.reseal(old, aad)).toThrow(SecretBoxError);
    expect(() => createSecretBox(randomBytes(32)).open(sealed, aad)).toThrow(SecretBoxError);
  });
});
