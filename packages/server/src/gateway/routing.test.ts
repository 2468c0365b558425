import { describe, expect, it } from 'vitest';
import { decodeBody } from './decode.js';
import { newFriendOf, receivesUserDispatch, type RoutedSession } from './routing.js';

describe('receivesUserDispatch: the app scope of user dispatches', () => {
  const sdkOf = (applicationId: string): RoutedSession => ({
    userId: '1',
    isApp: false,
    grant: { kind: 'bearer', scopes: ['sdk.social_layer', 'activities.read'] },
    intents: 0,
    obfuscate: false,
    sdk: true,
    applicationId,
  });
  const person: RoutedSession = {
    userId: '1',
    isApp: false,
    grant: { kind: 'session', scopes: [] },
    intents: 0,
    obfuscate: false,
  };
  const bot: RoutedSession = {
    userId: '1',
    isApp: true,
    grant: { kind: 'bot', scopes: [] },
    intents: 0,
    obfuscate: false,
    applicationId: 'A',
  };
  const lobby = { type: 'LOBBY_UPDATE', data: { id: '9' } };

  it('sends a game’s dispatch to its SDK sessions and the user’s own, not others', () => {
    const scoped = { ...lobby, applicationId: 'A' };
    expect(receivesUserDispatch(sdkOf('A'), scoped)).toBe(true);
    expect(receivesUserDispatch(sdkOf('B'), scoped)).toBe(false);
    expect(receivesUserDispatch(person, scoped)).toBe(true);
    expect(receivesUserDispatch(bot, scoped)).toBe(false);
  });

  it('sends an unscoped dispatch to every SDK session', () => {
    expect(receivesUserDispatch(sdkOf('A'), lobby)).toBe(true);
    expect(receivesUserDispatch(sdkOf('B'), lobby)).toBe(true);
    expect(receivesUserDispatch(person, lobby)).toBe(true);
  });

  it('keeps ACTIVITY_JOIN to the game’s SDK sessions and the person’s own clients', () => {
    const join = { type: 'ACTIVITY_JOIN', data: { application_id: 'A' } };
    expect(receivesUserDispatch(sdkOf('A'), join)).toBe(true);
    expect(receivesUserDispatch(sdkOf('B'), join)).toBe(false);
    // The local client, whose RPC daemon passes it to the game.
    expect(receivesUserDispatch(person, { ...join, applicationId: 'A' })).toBe(true);
    for (const type of ['ACTIVITY_JOIN_REQUEST', 'AUTHORIZE_REQUEST']) {
      expect(receivesUserDispatch(person, { type, data: {}, applicationId: 'A' })).toBe(true);
      expect(receivesUserDispatch(sdkOf('B'), { type, data: {}, applicationId: 'A' })).toBe(false);
    }
    // A lobby call's voice events stay the game's.
    const voice = { type: 'VOICE_SERVER_UPDATE', data: {}, applicationId: 'A' };
    expect(receivesUserDispatch(person, voice)).toBe(false);
    expect(receivesUserDispatch(sdkOf('B'), { ...join, applicationId: 'B' })).toBe(true);
  });

  it('keeps EMBEDDED_ACTIVITY_UPDATE to people’s own clients, never bots or SDK sessions', () => {
    const update = { type: 'EMBEDDED_ACTIVITY_UPDATE', data: { application_id: 'A' } };
    expect(receivesUserDispatch(person, update)).toBe(true);
    expect(receivesUserDispatch(bot, update)).toBe(false);
    expect(receivesUserDispatch(sdkOf('A'), update)).toBe(false);
    expect(receivesUserDispatch(sdkOf('A'), { ...update, applicationId: 'A' })).toBe(false);
  });
});

describe('newFriendOf', () => {
  it('names the friend of a RELATIONSHIP_ADD of type 1 only', () => {
    expect(newFriendOf(decodeBody('RELATIONSHIP_ADD', { id: '5', type: 1 }))).toBe('5');
    expect(newFriendOf(decodeBody('RELATIONSHIP_ADD', { id: '5', type: 3 }))).toBeNull();
    expect(newFriendOf(decodeBody('RELATIONSHIP_REMOVE', { id: '5', type: 1 }))).toBeNull();
    expect(newFriendOf(decodeBody('RELATIONSHIP_ADD', null))).toBeNull();
  });
});
