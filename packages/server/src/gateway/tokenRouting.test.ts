import { describe, expect, it } from 'vitest';
import { expandScopes } from '../oauth/index.js';
import { accessOf, tokenReads, userDispatchForms } from './tokenRouting.js';

const presenceOnly = {
  kind: 'bearer',
  scopes: expandScopes(['sdk.social_layer_presence']),
} as const;
const socialLayer = { kind: 'bearer', scopes: expandScopes(['sdk.social_layer']) } as const;
const session = { kind: 'session', scopes: [] } as const;
const bot = { kind: 'bot', scopes: [] } as const;

describe('tokenReads: the user-addressed dispatches a token reads', () => {
  const dm = { type: 'MESSAGE_CREATE', data: { channel_id: '1', content: 'hi' } };
  const dmChannel = { type: 'CHANNEL_CREATE', data: { id: '1', type: 1 } };
  const lobby = { type: 'LOBBY_CREATE', data: { id: '2' } };
  const friend = { type: 'RELATIONSHIP_ADD', data: { id: '3', type: 1 } };
  const presence = { type: 'PRESENCE_UPDATE', data: { user: { id: '3' } } };

  it('keeps DMs and lobbies from a presence-only token, not its friends and presences', () => {
    expect([dm, dmChannel, lobby].map((d) => tokenReads(presenceOnly, d))).toEqual([
      false,
      false,
      false,
    ]);
    expect([friend, presence].map((d) => tokenReads(presenceOnly, d))).toEqual([true, true]);
    for (const d of [dm, dmChannel, lobby, friend, presence]) {
      expect(tokenReads(socialLayer, d)).toBe(true);
      expect(tokenReads(session, d)).toBe(true);
      expect(tokenReads(bot, d)).toBe(true);
    }
  });

  it('sends a Bearer token no ephemeral guild message, and nothing the table does not know', () => {
    const ephemeral = { type: 'MESSAGE_CREATE', data: { guild_id: '9', channel_id: '1' } };
    expect(accessOf(ephemeral.type, ephemeral.data)).toBe('guildsAndClient');
    expect(tokenReads(socialLayer, ephemeral)).toBe(false);
    expect(tokenReads(session, ephemeral)).toBe(true);
    const unknown = { type: 'SOMETHING_NEW', data: {} };
    expect(tokenReads(socialLayer, unknown)).toBe(false);
    expect(tokenReads(session, unknown)).toBe(true);
    expect(tokenReads(bot, unknown)).toBe(true);
  });
});

describe('userDispatchForms: USER_UPDATE as GET /users/@me shows it', () => {
  const user = { id: '1', username: 'ann', email: 'ann@example.test', premium_type: 2 };

  it('hides the email and premium type from a token that may not read them, once per form', () => {
    const formFor = userDispatchForms('USER_UPDATE', user);
    expect(formFor(session).data).toEqual(user);
    expect(formFor(socialLayer).data).toEqual({ ...user, email: null, premium_type: 0 });
    expect(formFor(bot).data).toEqual({ ...user, email: null, premium_type: 0 });
    expect(formFor(bot)).toBe(formFor(socialLayer));
    const withEmail = { kind: 'bearer', scopes: ['identify', 'email'] } as const;
    expect(formFor(withEmail).data).toEqual({ ...user, premium_type: 0 });
  });

  it('leaves other dispatches, and fields a payload lacks, as they are', () => {
    const relationship = userDispatchForms('RELATIONSHIP_ADD', { id: '3' });
    expect(relationship(socialLayer)).toBe(relationship(session));
    expect(userDispatchForms('USER_UPDATE', { id: '1' })(bot).data).toEqual({ id: '1' });
  });
});
