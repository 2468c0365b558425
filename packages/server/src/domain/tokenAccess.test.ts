import { describe, expect, it } from 'vitest';
import { currentUserView, mayAccess, sameGrant, TOKEN_ACCESS, type Access } from './tokenAccess.js';

const KINDS = Object.keys(TOKEN_ACCESS) as Access[];
const session = { kind: 'session', scopes: [] } as const;
const bot = { kind: 'bot', scopes: [] } as const;
const bearer = (...scopes: string[]) => ({ kind: 'bearer', scopes }) as const;

describe('mayAccess: what a token reads', () => {
  it('lets a session token read everything, a bot all but the email and premium type', () => {
    for (const kind of KINDS) expect(mayAccess(session, kind)).toBe(true);
    expect(KINDS.filter((kind) => !mayAccess(bot, kind))).toEqual(['email', 'premium']);
  });

  it('lets a Bearer token read a kind only with its scope, and never a guild’s or client’s', () => {
    expect(mayAccess(bearer('dm_channels.read'), 'dmChannels')).toBe(true);
    expect(mayAccess(bearer('dm_channels.read'), 'dmMessages')).toBe(false);
    expect(mayAccess(bearer(), 'currentUser')).toBe(false);
    const everything = bearer(...KINDS.map((kind) => TOKEN_ACCESS[kind].bearer ?? ''));
    expect(KINDS.filter((kind) => !mayAccess(everything, kind))).toEqual(['guildsAndClient']);
  });

  it('shows the email and the real premium type as GET /users/@me does', () => {
    expect(currentUserView(session)).toEqual({ email: true, premium: true });
    expect(currentUserView(bot)).toEqual({ email: false, premium: false });
    expect(currentUserView(bearer('identify', 'email'))).toEqual({ email: true, premium: false });
  });
});

describe('sameGrant', () => {
  it('compares the kind and the set of scopes', () => {
    expect(sameGrant(bearer('a', 'b'), bearer('b', 'a'))).toBe(true);
    expect(sameGrant(bearer('a', 'b'), bearer('a'))).toBe(false);
    expect(sameGrant(bearer('a', 'a'), bearer('a', 'b'))).toBe(false);
    expect(sameGrant(session, bot)).toBe(false);
    expect(sameGrant(bot, { kind: 'bot', scopes: [] })).toBe(true);
  });
});
