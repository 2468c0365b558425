import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_VOICE_TOKEN_LENGTH, createVoiceTokens } from './token.js';

const key = randomBytes(32);
const NOW = 1_790_000_000_000;
const guildGrant = {
  userId: '1234567890123456789',
  sessionId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
  serverId: '987654321098765432',
  guildId: '987654321098765432',
  channelId: '18446744073709551615',
};
const lobbyGrant = {
  userId: '42',
  sessionId: 'ffeeddccbbaa99887766554433221100',
  serverId: '555555555555555555',
  guildId: null,
  channelId: '555555555555555555',
};

/** The token with one character of its part (0 grant, 1 mac) changed at `index`. */
function flip(token: string, part: 0 | 1, index: number): string {
  const parts = token.split('.');
  const text = parts[part] ?? '';
  const at = index < 0 ? text.length + index : index;
  const swapped = text[at] === 'A' ? 'B' : 'A';
  parts[part] = text.slice(0, at) + swapped + text.slice(at + 1);
  return parts.join('.');
}

describe('createVoiceTokens', () => {
  it('round-trips a guild grant and a lobby grant with their expiry', () => {
    const tokens = createVoiceTokens(key);
    const guildToken = tokens.issue(guildGrant, NOW);
    expect(tokens.verify(guildToken, NOW)).toEqual({ ...guildGrant, expiresAtMs: NOW + 600_000 });
    const lobbyToken = tokens.issue(lobbyGrant, NOW);
    expect(tokens.verify(lobbyToken, NOW + 1)).toEqual({
      ...lobbyGrant,
      expiresAtMs: NOW + 600_000,
    });
  });

  it('is url-safe, opaque and bounded', () => {
    const token = createVoiceTokens(key).issue({ ...guildGrant, sessionId: 'x'.repeat(64) }, NOW);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(token.length).toBeLessThanOrEqual(MAX_VOICE_TOKEN_LENGTH);
    expect(token).not.toContain(guildGrant.userId);
    expect(token).not.toContain(guildGrant.sessionId);
  });

  it('refuses an expired token, and honours the lifetime option', () => {
    const tokens = createVoiceTokens(key, { lifetimeMs: 1000 });
    const token = tokens.issue(guildGrant, NOW);
    expect(tokens.verify(token, NOW + 999)).not.toBeNull();
    expect(tokens.verify(token, NOW + 1000)).toBeNull();
    expect(tokens.verify(token, NOW + 10_000_000)).toBeNull();
  });

  it('refuses a token of another secret key', () => {
    const token = createVoiceTokens(randomBytes(32)).issue(guildGrant, NOW);
    expect(createVoiceTokens(key).verify(token, NOW)).toBeNull();
  });

  it('shares tokens between nodes of the same secret key', () => {
    const token = createVoiceTokens(Buffer.from(key)).issue(lobbyGrant, NOW);
    expect(createVoiceTokens(key).verify(token, NOW)?.channelId).toBe(lobbyGrant.channelId);
  });

  it('during a rotation: issued with the current key, checked with every live one', () => {
    const fresh = randomBytes(32);
    // Before: one node knows the old key only; another has the new one staged.
    const before = createVoiceTokens(key);
    const staged = createVoiceTokens({ current: key, next: fresh, previous: [] });
    const rotated = createVoiceTokens({
      current: fresh,
      next: null,
      previous: [{ key, retiresAtMs: NOW + 60_000 }],
    });
    const old = before.issue(guildGrant, NOW);
    const anew = rotated.issue(guildGrant, NOW);
    expect(anew).not.toBe(old);
    // A token issued before the rotation works on a rotated node until the old key retires.
    expect(rotated.verify(old, NOW + 59_999)).toMatchObject(guildGrant);
    expect(rotated.verify(old, NOW + 60_000)).toBeNull();
    // A rotated node's token works where the new key is staged, not where it is unknown.
    expect(staged.verify(anew, NOW + 60_000)).toMatchObject(guildGrant);
    expect(before.verify(anew, NOW)).toBeNull();
    expect(staged.issue(guildGrant, NOW)).toBe(old);
  });

  it('refuses any change to the grant or the MAC', () => {
    const tokens = createVoiceTokens(key);
    const token = tokens.issue(guildGrant, NOW);
    const grantLength = token.indexOf('.');
    for (let index = 0; index < grantLength; index++) {
      expect(tokens.verify(flip(token, 0, index), NOW)).toBeNull();
    }
    for (let index = 0; index < 43; index++) {
      expect(tokens.verify(flip(token, 1, index), NOW)).toBeNull();
    }
  });

  it('refuses a grant swapped in from another token, and malformed input', () => {
    const tokens = createVoiceTokens(key);
    const a = tokens.issue(guildGrant, NOW).split('.');
    const b = tokens.issue({ ...guildGrant, userId: '7' }, NOW).split('.');
    expect(tokens.verify(`${b[0] ?? ''}.${a[1] ?? ''}`, NOW)).toBeNull();
    for (const bad of [
      '',
      '.',
      'abc',
      `${a[0] ?? ''}.`,
      `${a[0] ?? ''}.${a[1] ?? ''}.x`,
      `${a[0] ?? ''}=.${a[1] ?? ''}`,
      `${a[0] ?? ''}.${a[1] ?? ''}A`,
      'A'.repeat(MAX_VOICE_TOKEN_LENGTH + 1),
      `${'A'.repeat(150)}.${a[1] ?? ''}`,
    ]) {
      expect(tokens.verify(bad, NOW)).toBeNull();
    }
  });

  it('refuses to issue for ids that are not snowflakes or a bad session id', () => {
    const tokens = createVoiceTokens(key);
    expect(() => tokens.issue({ ...guildGrant, userId: 'abc' }, NOW)).toThrow(TypeError);
    expect(() => tokens.issue({ ...guildGrant, channelId: '18446744073709551616' }, NOW)).toThrow(
      TypeError,
    );
    expect(() => tokens.issue({ ...guildGrant, sessionId: '' }, NOW)).toThrow(TypeError);
    expect(() => tokens.issue({ ...guildGrant, sessionId: 'x'.repeat(65) }, NOW)).toThrow(
      TypeError,
    );
    expect(() => tokens.issue({ ...guildGrant, sessionId: 'a b' }, NOW)).toThrow(TypeError);
    expect(() => createVoiceTokens(Buffer.alloc(8))).toThrow(TypeError);
  });
});
