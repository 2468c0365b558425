/**
 * SDK sessions on the gateway (docs/gateway.md#sdk-sessions): an OAuth2 Bearer token with a
 * Social SDK scope identifies (bare or with `Bearer `), a token of other scopes does not; a
 * provisional account's token identifies the same way; a revocation closes the session 4004;
 * RESUME works; READY has the SDK fields and no guilds; op 3 activities are validated (an invalid
 * one closes 4001), their null and empty members dropped, and their application is the token's.
 * Through a real WebSocket on both storage drivers.
 *
 * @module
 */
import { ActivityFlags, ApplicationFlags, GatewayIntentBits as I } from '@guildhall/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import { expandScopes } from '../src/oauth/index.js';
import { describeDrivers } from './support/drivers.js';
import { useGatewayFixture } from './support/gatewayFixture.js';
import type { Frame, GatewayClient } from './support/gatewayClient.js';
import { seedDeveloper } from './support/testServer.js';
import { uniqueName } from './support/fileServer.js';
import { apiRequest } from './support/inject.js';

type Seed = Awaited<ReturnType<typeof seedDeveloper>>;

describeDrivers('SDK sessions ($driver)', (driver) => {
  const gw = useGatewayFixture({ driver });
  let game: Seed;
  beforeEach(async () => {
    game = await seedDeveloper(gw.server.app, uniqueName('game'));
  });

  /** An access token of the game for the user, with these scopes (expanded, as stored). */
  const accessToken = async (userId: string, scopes: string[]) =>
    (
      await gw.server.app.services.oauth.issueTokens({
        userId,
        applicationId: game.applicationId,
        scopes: expandScopes(scopes),
        refresh: false,
      })
    ).access_token;

  const person = async (name: string) => (await gw.guild.join(name)).userId;

  /** The close code a connection identifying with `token` gets. */
  const refused = async (token: string) => {
    const client = await gw.connect();
    client.send(2, { token, intents: 0, properties: {} });
    return (await client.closed).code;
  };

  /** Frames of `type` after `seq`. */
  const after = (client: GatewayClient, type: string, seq: number) =>
    client.next((f: Frame) => f.t === type && (f.s ?? 0) > seq);

  it('a Social SDK Bearer token identifies, bare or with its prefix; READY has no guilds', async () => {
    const userId = await person('player');
    const token = await accessToken(userId, ['sdk.social_layer']);
    for (const sent of [token, `Bearer ${token}`]) {
      const { ready, client } = await gw.identify({ token: sent, intents: I.GUILDS });
      expect(ready).toMatchObject({
        user: { id: userId, email: null },
        guilds: [],
        relationships: [],
        private_channels: [],
        lobbies: [],
        presences: [],
        application: { id: game.applicationId, flags: expect.any(Number) as number },
      });
      // The user is in the fixture's guild, but an SDK session sees no guild.
      const seen = gw.lastSeq(client);
      await gw.guild.call('PATCH', `/guilds/${gw.guild.guildId}`, {
        auth: gw.guild.owner.token,
        payload: { name: 'Renamed again' },
      });
      expect(client.frames.some((f) => f.t === 'GUILD_CREATE' || f.t === 'GUILD_UPDATE')).toBe(
        false,
      );
      expect(gw.lastSeq(client)).toBe(seen);
    }
    // The narrower presence scope identifies too.
    const presenceOnly = await accessToken(userId, ['sdk.social_layer_presence']);
    expect((await gw.identify({ token: presenceOnly })).ready).toMatchObject({ guilds: [] });
  });

  it('joining a guild brings an SDK session no GUILD_CREATE', async () => {
    const joiner = uniqueName('joiner');
    const { user_id: userId, token: sessionToken } = await gw.server.app.services.auth.register({
      email: `${joiner}@example.test`,
      username: joiner,
      password: 'correct horse battery',
    });
    // The SDK session first: the join visits the user's sessions in the order they came.
    const sdk = (await gw.identify({ token: await accessToken(userId, ['sdk.social_layer']) }))
      .client;
    const desktop = (await gw.identify({ token: sessionToken, intents: I.GUILDS })).client;
    const member = { nick: null, deaf: false, mute: false, flags: 0, roleIds: [] };
    const guildId = gw.guild.guildId;
    await gw.server.app.storage.members.add({ ...member, guildId, userId, joinedAt: 0 });
    gw.events.dispatch({
      type: 'GUILD_MEMBER_ADD',
      guildId,
      userIds: [userId],
      data: { guild_id: guildId, user: { id: userId }, roles: [] },
    });
    // The desktop session joins the guild; the SDK session, visited before it, did not (a marker
    // on the SDK socket after the join comes after anything the join sent it).
    await desktop.dispatch('GUILD_CREATE');
    gw.events.dispatch({ type: 'USER_UPDATE', guildId: null, userIds: [userId], data: {} });
    await sdk.dispatch('USER_UPDATE');
    expect(sdk.frames.some((f) => f.t?.startsWith('GUILD_') === true)).toBe(false);
  });

  it('a Bearer token of other scopes is refused with 4004, bare or prefixed', async () => {
    const userId = await person('reader');
    const token = await accessToken(userId, ['identify', 'guilds', 'relationships.read']);
    expect(await refused(token)).toBe(4004);
    expect(await refused(`Bearer ${token}`)).toBe(4004);
    expect(await refused('Bearer nothing-of-the-kind')).toBe(4004);
  });

  it('a provisional account identifies with its token', async () => {
    const res = await gw.server.app.http.inject({
      method: 'POST',
      url: '/api/v10/partner-sdk/token/bot',
      headers: { authorization: `Bot ${game.botToken}` },
      payload: { external_user_id: 'player-42', preferred_global_name: 'Guest' },
    });
    expect(res.statusCode).toBe(200);
    const token = res.json<{ access_token: string }>().access_token;
    const { ready } = await gw.identify({ token });
    expect(ready).toMatchObject({
      user: { global_name: 'Guest' },
      guilds: [],
      application: { id: game.applicationId },
    });
  });

  it('revoking the token at /oauth2/token/revoke closes the session with 4004, no RESUME', async () => {
    const userId = await person('quitter');
    const token = await accessToken(userId, ['sdk.social_layer']);
    const { client, ready } = await gw.identify({ token });
    const basic = `Basic ${Buffer.from(`${game.applicationId}:${game.clientSecret}`).toString('base64')}`;
    const res = await gw.server.app.http.inject({
      method: 'POST',
      url: '/api/oauth2/token/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
      payload: new URLSearchParams({ token }).toString(),
    });
    expect(res.statusCode).toBe(200);
    expect((await client.closed).code).toBe(4004);
    const resumer = await gw.connect();
    resumer.send(6, { token, session_id: ready.session_id, seq: 0 });
    expect((await resumer.closed).code).toBe(4004);
  });

  it('an SDK session resumes and gets what it missed', async () => {
    const userId = await person('roamer');
    const token = await accessToken(userId, ['sdk.social_layer']);
    const { client, ready } = await gw.identify({ token });
    const seq = gw.lastSeq(client);
    gw.server.app.gateway.dropAll();
    await client.closed;
    gw.events.dispatch({
      type: 'RELATIONSHIP_ADD',
      guildId: null,
      userIds: [userId],
      data: { id: '1', type: 1 },
    });
    const resumer = await gw.connect();
    resumer.send(6, { token, session_id: ready.session_id, seq });
    expect((await resumer.dispatch('RELATIONSHIP_ADD')).d).toEqual({ id: '1', type: 1 });
    await resumer.dispatch('RESUMED');
  });

  it('user-addressed dispatches reach an SDK session whatever its intents', async () => {
    const userId = await person('social');
    const token = await accessToken(userId, ['sdk.social_layer']);
    const { client } = await gw.identify({ token, intents: 0 });
    const dm = { id: '10', channel_id: '11', content: 'hi', author: { id: '12' } };
    gw.events.dispatch([
      { type: 'MESSAGE_CREATE', guildId: null, userIds: [userId], data: dm },
      { type: 'LOBBY_UPDATE', guildId: null, userIds: [userId], data: { id: '13' } },
    ]);
    expect((await client.dispatch('MESSAGE_CREATE')).d).toEqual(dm);
    await client.dispatch('LOBBY_UPDATE');
    // A bot without DIRECT_MESSAGES still does not get the DM.
    const bot = await gw.identify({ intents: 0 });
    gw.events.dispatch([
      { type: 'MESSAGE_CREATE', guildId: null, userIds: [gw.guild.bot.userId], data: dm },
      { type: 'USER_UPDATE', guildId: null, userIds: [gw.guild.bot.userId], data: { id: '1' } },
    ]);
    await bot.client.dispatch('USER_UPDATE');
    expect(bot.client.frames.some((f) => f.t === 'MESSAGE_CREATE')).toBe(false);
  });

  /** Makes two users friends (platform-wide), both rows as the relationships service writes. */
  const befriend = async (a: string, b: string) => {
    const since = gw.clock.now();
    const row = { applicationId: null, type: 1 as const, nickname: null, isSpamRequest: false };
    await gw.server.app.storage.relationships.put({ ...row, userId: a, targetId: b, since });
    await gw.server.app.storage.relationships.put({ ...row, userId: b, targetId: a, since });
  };

  it('a presence reaches friends without guild_id, custom status included; not others', async () => {
    const aliceId = await person('alice');
    const bobPerson = await gw.guild.join('bob');
    const bobId = bobPerson.userId;
    const carolId = await person('carol');
    await befriend(aliceId, bobId);
    await gw.server.app.storage.gateway.setProfilePrivacy(aliceId, 'friends');
    const alice = (await gw.identify({ token: await accessToken(aliceId, ['sdk.social_layer']) }))
      .client;
    const bob = (await gw.identify({ token: await accessToken(bobId, ['sdk.social_layer']) }))
      .client;
    // Bob's desktop client (a person's session token, no intents) gets it too.
    const bobDesktop = (await gw.identify({ token: bobPerson.token, intents: 0 })).client;
    const carol = (await gw.identify({ token: await accessToken(carolId, ['sdk.social_layer']) }))
      .client;
    const activities = [
      { type: 4, name: 'Custom Status', state: 'brb' },
      { name: 'Tiny Tanks', type: 0, party: { id: 'p1', size: [1, 4], privacy: 1 } },
    ];
    alice.send(3, { status: 'dnd', since: null, afk: false, activities });
    const update = (await bob.dispatch('PRESENCE_UPDATE')).d as Record<string, unknown>;
    // A public party carries both PARTY_PRIVACY flags (docs/platform-notes.md#activity-flags).
    const publicParty =
      ActivityFlags.PARTY_PRIVACY_FRIENDS | ActivityFlags.PARTY_PRIVACY_VOICE_CHANNEL;
    expect(update).toEqual({
      user: { id: aliceId },
      status: 'dnd',
      activities: [
        activities[0],
        { ...activities[1], application_id: game.applicationId, flags: publicParty },
      ],
      client_status: { desktop: 'dnd' },
    });
    expect((await bobDesktop.dispatch('PRESENCE_UPDATE')).d).toEqual(update);
    // A later READY of a friend shows the presence; a stranger's does not.
    const again = await gw.identify({ token: await accessToken(bobId, ['sdk.social_layer']) });
    expect(again.ready['presences']).toEqual([update]);
    const stranger = await gw.identify({
      token: await accessToken(carolId, ['sdk.social_layer']),
    });
    expect(stranger.ready['presences']).toEqual([]);
    // The party turns private: a new PRESENCE_UPDATE.
    const seen = gw.lastSeq(bob);
    alice.send(3, {
      status: 'dnd',
      since: null,
      afk: false,
      activities: [{ ...activities[1], party: { id: 'p1', size: [2, 4], privacy: 0 } }],
    });
    expect((await after(bob, 'PRESENCE_UPDATE', seen)).d).toMatchObject({
      activities: [{ party: { id: 'p1', size: [2, 4], privacy: 0 } }],
    });
    // Carol, no friend, got none: a marker on her subject after both updates finds none before.
    gw.events.dispatch({ type: 'USER_UPDATE', guildId: null, userIds: [carolId], data: {} });
    await carol.dispatch('USER_UPDATE');
    expect(carol.frames.some((f) => f.t === 'PRESENCE_UPDATE')).toBe(false);
  });

  it('a person’s last session ending shows them offline to their friends', async () => {
    const alice = await gw.guild.join('alice');
    const bob = await gw.guild.join('bob');
    await befriend(alice.userId, bob.userId);
    const aliceGame = (
      await gw.identify({ token: await accessToken(alice.userId, ['sdk.social_layer']) })
    ).client;
    const aliceDesktop = (await gw.identify({ token: alice.token, intents: 0 })).client;
    const watcher = (await gw.identify({ token: bob.token, intents: 0 })).client;
    aliceGame.send(3, {
      status: 'online',
      since: null,
      afk: false,
      activities: [{ name: 'Tiny Tanks', type: 0 }],
    });
    await watcher.dispatch('PRESENCE_UPDATE');
    // One of two sessions ends: still online.
    await aliceGame.close(1000);
    // The last one ends: offline.
    const seen = gw.lastSeq(watcher);
    await aliceDesktop.close(1000);
    expect((await after(watcher, 'PRESENCE_UPDATE', seen)).d).toEqual({
      user: { id: alice.userId },
      status: 'offline',
      activities: [],
      client_status: {},
    });
    expect(watcher.frames.filter((f) => f.t === 'PRESENCE_UPDATE')).toHaveLength(2);
    const later = await gw.identify({ token: await accessToken(bob.userId, ['sdk.social_layer']) });
    expect(later.ready['presences']).toEqual([]);
  });

  it('a person’s own client names the application of an activity; a bot names none', async () => {
    const alice = await gw.guild.join('alice');
    const bob = await gw.guild.join('bob');
    await befriend(alice.userId, bob.userId);
    const desktop = (await gw.identify({ token: alice.token, intents: 0 })).client;
    const watcher = (await gw.identify({ token: bob.token, intents: 0 })).client;
    // The web client hosting an activity, or `guildhall rpc` for a native app: an existing
    // application is kept, an unknown one dropped.
    desktop.send(3, {
      status: 'online',
      since: null,
      afk: false,
      activities: [
        { name: 'Tiny Tanks', type: 0, application_id: game.applicationId },
        { name: 'Ghost', type: 0, application_id: '42' },
      ],
    });
    expect((await watcher.dispatch('PRESENCE_UPDATE')).d).toMatchObject({
      user: { id: alice.userId },
      activities: [
        { name: 'Tiny Tanks', application_id: game.applicationId },
        { name: 'Ghost', type: 0 },
      ],
    });
    const ghost = (
      watcher.frames.find((f) => f.t === 'PRESENCE_UPDATE')?.d as {
        activities: Record<string, unknown>[];
      }
    ).activities[1];
    expect(ghost).not.toHaveProperty('application_id');

    // A bot's op 3 names no application, whatever it sends.
    const bot = (await gw.identify({ token: gw.guild.bot.token, intents: I.GUILDS })).client;
    const owner = (
      await gw.identify({
        token: gw.guild.owner.token,
        intents: I.GUILDS | I.GUILD_PRESENCES,
      })
    ).client;
    const seen = gw.lastSeq(owner);
    bot.send(3, {
      status: 'online',
      since: null,
      afk: false,
      activities: [{ name: 'Helping', type: 0, application_id: game.applicationId }],
    });
    const botPresence = await owner.next(
      (f) =>
        f.t === 'PRESENCE_UPDATE' &&
        (f.s ?? 0) > seen &&
        (f.d as { user: { id: string } }).user.id === gw.guild.bot.userId,
    );
    expect(
      (botPresence.d as { activities: Record<string, unknown>[] }).activities[0],
    ).not.toHaveProperty('application_id');
  });

  it('a connection’s op 3 frames take effect in the order they were sent', async () => {
    const alice = await gw.guild.join('alice');
    const bob = await gw.guild.join('bob');
    await befriend(alice.userId, bob.userId);
    const desktop = (await gw.identify({ token: alice.token, intents: 0 })).client;
    const watcher = (await gw.identify({ token: bob.token, intents: 0 })).client;
    const states = Array.from({ length: 8 }, (_, i) => `state ${String(i)}`);
    for (const state of states) {
      desktop.send(3, {
        status: 'online',
        since: null,
        afk: false,
        activities: [{ name: 'Tiny Tanks', type: 0, state }],
      });
    }
    // Cleared last: the friend's last word is the clearing, after every state in order.
    desktop.send(3, { status: 'online', since: null, afk: false, activities: [] });
    await watcher.next(
      (f) =>
        f.t === 'PRESENCE_UPDATE' && (f.d as { activities: unknown[] }).activities.length === 0,
    );
    const seen = watcher.frames
      .filter((f) => f.t === 'PRESENCE_UPDATE')
      .map((f) => (f.d as { activities: { state?: string }[] }).activities[0]?.state ?? null);
    expect(seen).toEqual([...states, null]);
  });

  /** `METHOD /path` with this Authorization and body. */
  const api = (route: string, auth: string, payload: Record<string, unknown> = {}) =>
    apiRequest(gw.server.app, route, { auth, payload });

  it('READY shows relationships, DMs, the game’s lobbies and friends’ presences', async () => {
    const alice = await gw.guild.join('alice');
    const bob = await gw.guild.join('bob');
    await befriend(alice.userId, bob.userId);
    const dm = await api('POST /users/@me/channels', alice.token, { recipient_id: bob.userId });
    expect(dm.statusCode).toBe(200);
    const lobby = await api('POST /lobbies', `Bot ${game.botToken}`, {
      members: [{ id: alice.userId }],
    });
    expect(lobby.statusCode).toBe(201);
    // A lobby of another application is not this game's.
    const foreign = await api('POST /lobbies', gw.guild.bot.token, {
      members: [{ id: alice.userId }],
    });
    expect(foreign.statusCode).toBe(201);
    const watcher = await gw.identify({ token: alice.token, intents: 0 });
    const bobGame = await gw.identify({
      token: await accessToken(bob.userId, ['sdk.social_layer']),
    });
    bobGame.client.send(3, {
      status: 'idle',
      since: null,
      afk: false,
      activities: [{ name: 'Tiny Tanks', type: 0 }],
    });
    // Bob's presence is stored before it is announced to his friends: wait for a friend's copy.
    await watcher.client.dispatch('PRESENCE_UPDATE');
    const { ready } = await gw.identify({
      token: await accessToken(alice.userId, ['sdk.social_layer']),
    });
    expect(ready['relationships']).toEqual([
      expect.objectContaining({
        id: bob.userId,
        type: 1,
        user: expect.objectContaining({ id: bob.userId }) as unknown,
      }),
    ]);
    expect(ready['private_channels']).toEqual([
      expect.objectContaining({
        id: dm.json<{ id: string }>().id,
        type: 1,
        recipients: [expect.objectContaining({ id: bob.userId }) as unknown],
      }),
    ]);
    expect(ready['lobbies']).toEqual([
      expect.objectContaining({
        id: lobby.json<{ id: string }>().id,
        application_id: game.applicationId,
        members: [expect.objectContaining({ id: alice.userId }) as unknown],
      }),
    ]);
    expect(ready['presences']).toEqual([
      {
        user: { id: bob.userId },
        status: 'idle',
        activities: [{ name: 'Tiny Tanks', type: 0, application_id: game.applicationId }],
        client_status: { desktop: 'idle' },
      },
    ]);
  });

  it('an SDK session receives its lobby, DM and relationship events from the routes', async () => {
    const alice = await gw.guild.join('alice');
    const bob = await gw.guild.join('bob');
    const { client } = await gw.identify({
      token: await accessToken(alice.userId, ['sdk.social_layer']),
      intents: 0,
    });
    // Bob asks Alice to be friends: RELATIONSHIP_ADD (incoming request).
    expect((await api(`PUT /users/@me/relationships/${alice.userId}`, bob.token)).statusCode).toBe(
      204,
    );
    expect((await client.dispatch('RELATIONSHIP_ADD')).d).toMatchObject({
      id: bob.userId,
      type: 3,
    });
    expect((await api(`PUT /users/@me/relationships/${bob.userId}`, alice.token)).statusCode).toBe(
      204,
    );
    // The game puts Alice in a lobby: LOBBY_CREATE.
    const lobby = await api('POST /lobbies', `Bot ${game.botToken}`, {
      members: [{ id: alice.userId }],
    });
    expect((await client.dispatch('LOBBY_CREATE')).d).toMatchObject({
      id: lobby.json<{ id: string }>().id,
    });
    // Bob writes to Alice: CHANNEL_CREATE of the DM, MESSAGE_CREATE without guild_id.
    const dm = await api('POST /users/@me/channels', bob.token, { recipient_id: alice.userId });
    const channelId = dm.json<{ id: string }>().id;
    const sent = await api(`POST /channels/${channelId}/messages`, bob.token, { content: 'gg' });
    expect(sent.statusCode).toBe(200);
    const message = (await client.dispatch('MESSAGE_CREATE')).d as Record<string, unknown>;
    expect(message).toMatchObject({ channel_id: channelId, content: 'gg' });
    expect(message['guild_id']).toBeUndefined();
    await client.dispatch('CHANNEL_CREATE');
  });

  describe('op 3 from an SDK session', () => {
    const rich = {
      name: 'Tiny Tanks',
      type: 0,
      state: 'In a party',
      details: 'Ranked',
      state_url: 'https://game.example/state',
      details_url: 'https://game.example/details',
      timestamps: { start: 1_700_000_000_000 },
      status_display_type: 1,
      assets: {
        large_image: 'map',
        large_text: 'Desert',
        large_url: 'https://game.example/map',
        small_image: 'rank',
        invite_cover_image: 'cover',
      },
      party: { id: 'party-1', size: [2, 4], privacy: 1 },
      secrets: { join: 'join-secret' },
      buttons: [{ label: 'Watch', url: 'https://game.example/watch' }],
    };

    /** An SDK session of a member of the fixture's guild and a bot watching the guild's presences. */
    const sessions = async () => {
      const userId = await person('gamer');
      const token = await accessToken(userId, ['sdk.social_layer']);
      const sdk = await gw.identify({ token });
      await gw.server.app.storage.applications.update(gw.guild.bot.applicationId, {
        flags: ApplicationFlags.GATEWAY_PRESENCE_LIMITED,
      });
      const watcher = await gw.session({ intents: I.GUILDS | I.GUILD_PRESENCES });
      return { userId, sdk: sdk.client, watcher: watcher.client };
    };

    it('validates the activity, drops null and empty members, sets the application', async () => {
      const { userId, sdk, watcher } = await sessions();
      const seen = gw.lastSeq(watcher);
      sdk.send(3, {
        status: 'online',
        since: null,
        afk: false,
        activities: [
          {
            ...rich,
            url: null,
            application_id: '42',
            emoji: null,
            details: '',
            assets: { ...rich.assets, small_text: null },
            secrets: { join: 'join-secret', spectate: '' },
            unknown_member: 'dropped',
          },
        ],
      });
      const update = (await after(watcher, 'PRESENCE_UPDATE', seen)).d as Record<string, unknown>;
      expect(update).toMatchObject({
        user: { id: userId },
        guild_id: gw.guild.guildId,
        status: 'online',
        client_status: { desktop: 'online' },
      });
      // Secrets are never shown; buttons are shown as labels, their URLs in metadata.
      const shown: Record<string, unknown> = { ...rich };
      delete shown['secrets'];
      delete shown['buttons'];
      delete shown['details'];
      // Its join secret and public party show as their flags.
      expect(update['activities']).toEqual([
        {
          ...shown,
          application_id: game.applicationId,
          flags:
            ActivityFlags.JOIN |
            ActivityFlags.PARTY_PRIVACY_FRIENDS |
            ActivityFlags.PARTY_PRIVACY_VOICE_CHANNEL,
          buttons: ['Watch'],
          metadata: { button_urls: ['https://game.example/watch'] },
        },
      ]);
    });

    const invalid: [string, Record<string, unknown>][] = [
      ['type 6', { type: 6 }],
      ['a state of 129 characters', { state: 'x'.repeat(129) }],
      ['a details_url of 257 characters', { details_url: `https://e.x/${'a'.repeat(245)}` }],
      ['a state_url that is no URL', { state_url: 'not a url' }],
      [
        'three buttons',
        {
          buttons: [1, 2, 3].map((n) => ({ label: `b${n}`, url: 'https://e.x' })),
        },
      ],
      [
        'a button label of 33 characters',
        { buttons: [{ label: 'x'.repeat(33), url: 'https://e.x' }] },
      ],
      ['a party larger than its maximum', { party: { id: 'p', size: [5, 4] } }],
      ['status_display_type 3', { status_display_type: 3 }],
      ['no name', { name: undefined }],
    ];
    it.each(invalid)('closes 4001 for %s', async (_, change) => {
      const { sdk } = await sessions();
      sdk.send(3, {
        status: 'online',
        since: null,
        afk: false,
        activities: [{ ...rich, ...change }],
      });
      expect((await sdk.closed).code).toBe(4001);
    });
  });
});
