/**
 * SDK sessions and the games they belong to (docs/gateway.md#sdk-sessions): a dispatch of one
 * game (a lobby's, a game DM's, a game relationship's) reaches the user's SDK sessions of that
 * game and the user's own client, not the SDK sessions of another game; platform-wide events
 * (a friend request, a plain DM) reach them all. A new friend's presence follows
 * RELATIONSHIP_ADD at once. Through real WebSockets on both storage drivers, from the routes.
 *
 * @module
 */
import { ApplicationFlags, GatewayIntentBits as I } from '@guildhall/protocol';
import { beforeEach, expect, it } from 'vitest';
import { expandScopes } from '../src/oauth/index.js';
import { describeDrivers } from './support/drivers.js';
import { useGatewayFixture } from './support/gatewayFixture.js';
import type { Frame, GatewayClient } from './support/gatewayClient.js';
import { seedDeveloper } from './support/testServer.js';
import { uniqueName } from './support/fileServer.js';
import { apiRequest } from './support/inject.js';

type Seed = Awaited<ReturnType<typeof seedDeveloper>>;

describeDrivers('SDK sessions scoped to their game ($driver)', (driver) => {
  const gw = useGatewayFixture({ driver });
  let gameA: Seed;
  let gameB: Seed;
  beforeEach(async () => {
    gameA = await seedDeveloper(gw.server.app, uniqueName('game_a'));
    gameB = await seedDeveloper(gw.server.app, uniqueName('game_b'));
  });

  /** An SDK access token (sdk.social_layer) of the game for the user; the user now uses it. */
  const sdkToken = async (userId: string, game: Seed) =>
    `Bearer ${
      (
        await gw.server.app.services.oauth.issueTokens({
          userId,
          applicationId: game.applicationId,
          scopes: expandScopes(['sdk.social_layer']),
          refresh: false,
        })
      ).access_token
    }`;

  /** `METHOD /path` with this Authorization and body; the answer's status checked. */
  const api = async (
    route: string,
    auth: string,
    input: { payload?: Record<string, unknown>; status: number },
  ) => {
    const res = await apiRequest(gw.server.app, route, { auth, payload: input.payload ?? {} });
    expect(res.statusCode, res.body).toBe(input.status);
    return res;
  };

  /** Waits for a marker (USER_UPDATE) on the user's subject: what came before it has arrived. */
  const settle = async (userId: string, clients: readonly GatewayClient[]) => {
    const marker = { id: `marker-${String(gw.clock.now())}-${String(Math.random())}` };
    gw.events.dispatch({ type: 'USER_UPDATE', guildId: null, userIds: [userId], data: marker });
    for (const client of clients) {
      await client.next((f) => f.t === 'USER_UPDATE' && (f.d as { id?: unknown }).id === marker.id);
    }
  };

  const ofType = (
    client: GatewayClient,
    type: string,
    match: (d: Record<string, unknown>) => boolean,
  ) => client.frames.filter((f: Frame) => f.t === type && match(f.d as Record<string, unknown>));

  it('a game’s lobby, game DM and game friend request reach its sessions, not another game’s', async () => {
    const player = await gw.guild.join('player');
    const pal = await gw.guild.join('pal');
    const a = (await gw.identify({ token: await sdkToken(player.userId, gameA), intents: 0 }))
      .client;
    const b = (await gw.identify({ token: await sdkToken(player.userId, gameB), intents: 0 }))
      .client;
    // The player's own client (a session token) sees every game's events.
    const own = (await gw.identify({ token: player.token, intents: I.DIRECT_MESSAGES })).client;
    const bothGames = [a, b, own];

    // Platform-wide: a friend request reaches every session.
    await api(`PUT /users/@me/relationships/${player.userId}`, pal.token, { status: 204 });
    for (const client of bothGames) {
      expect((await client.dispatch('RELATIONSHIP_ADD')).d).toMatchObject({
        id: pal.userId,
        type: 3,
      });
    }

    // A game friend request in game A: A's session and the player's own client only.
    const palA = await sdkToken(pal.userId, gameA);
    await api(`PUT /users/@me/game-relationships/${player.userId}`, palA, { status: 204 });
    const inGameA = (d: Record<string, unknown>) => d['application_id'] === gameA.applicationId;
    for (const client of [a, own]) {
      await client.next(
        (f) => f.t === 'RELATIONSHIP_ADD' && inGameA(f.d as Record<string, unknown>),
      );
    }

    // A lobby of game A.
    const lobby = await api('POST /lobbies', `Bot ${gameA.botToken}`, {
      payload: { members: [{ id: player.userId }] },
      status: 201,
    });
    const lobbyId = lobby.json<{ id: string }>().id;
    for (const client of [a, own]) {
      expect((await client.dispatch('LOBBY_CREATE')).d).toMatchObject({ id: lobbyId });
    }

    // A game DM of game A: a provisional account of the game writes to the player.
    const guest = await api('POST /partner-sdk/token/bot', `Bot ${gameA.botToken}`, {
      payload: { external_user_id: 'guest-1', preferred_global_name: 'Guest' },
      status: 200,
    });
    const guestAuth = `Bearer ${guest.json<{ access_token: string }>().access_token}`;
    await gw.server.app.storage.relationships.setMessagePolicy(player.userId, 'everyone');
    const gameDm = await api('POST /users/@me/channels', guestAuth, {
      payload: { recipient_id: player.userId },
      status: 200,
    });
    const gameDmId = gameDm.json<{ id: string; application_id?: string }>().id;
    expect(gameDm.json<{ application_id?: string }>().application_id).toBe(gameA.applicationId);
    await api(`POST /users/${player.userId}/messages`, guestAuth, {
      payload: { content: 'gg from game A' },
      status: 200,
    });
    for (const client of [a, own]) {
      expect((await client.dispatch('CHANNEL_CREATE')).d).toMatchObject({ id: gameDmId });
      expect((await client.dispatch('MESSAGE_CREATE')).d).toMatchObject({
        channel_id: gameDmId,
        content: 'gg from game A',
      });
    }

    // A plain DM: every session.
    const dm = await api('POST /users/@me/channels', pal.token, {
      payload: { recipient_id: player.userId },
      status: 200,
    });
    const dmId = dm.json<{ id: string }>().id;
    await api(`POST /channels/${dmId}/messages`, pal.token, {
      payload: { content: 'plain hello' },
      status: 200,
    });
    for (const client of bothGames) {
      await client.next(
        (f) => f.t === 'MESSAGE_CREATE' && (f.d as { channel_id?: unknown }).channel_id === dmId,
      );
    }

    // Game B's session got none of game A's events (a marker after them all finds none before).
    await settle(player.userId, bothGames);
    expect(b.frames.some((f) => f.t?.startsWith('LOBBY_') === true)).toBe(false);
    expect(ofType(b, 'RELATIONSHIP_ADD', inGameA)).toEqual([]);
    const inGameDm = (d: Record<string, unknown>) =>
      d['id'] === gameDmId || d['channel_id'] === gameDmId;
    expect(ofType(b, 'CHANNEL_CREATE', inGameDm)).toEqual([]);
    expect(ofType(b, 'MESSAGE_CREATE', inGameDm)).toEqual([]);
    expect(ofType(b, 'RELATIONSHIP_ADD', () => true)).toHaveLength(1);
  });

  it('a new friend’s presence follows RELATIONSHIP_ADD; an ended friendship sends none', async () => {
    const alice = await gw.guild.join('alice');
    const bob = await gw.guild.join('bob');
    // A bot watching the guild's presences sees Alice's op 3 once it is stored.
    await gw.server.app.storage.applications.update(gw.guild.bot.applicationId, {
      flags: ApplicationFlags.GATEWAY_PRESENCE_LIMITED,
    });
    const watcher = (await gw.session({ intents: I.GUILDS | I.GUILD_PRESENCES })).client;
    const aliceGame = (
      await gw.identify({ token: await sdkToken(alice.userId, gameA), intents: 0 })
    ).client;
    aliceGame.send(3, {
      status: 'online',
      since: null,
      afk: false,
      activities: [{ name: 'Tiny Tanks', type: 0 }],
    });
    await watcher.next(
      (f) =>
        f.t === 'PRESENCE_UPDATE' && (f.d as { user: { id: string } }).user.id === alice.userId,
    );
    const bobGame = (await gw.identify({ token: await sdkToken(bob.userId, gameB), intents: 0 }))
      .client;

    await api(`PUT /users/@me/relationships/${alice.userId}`, bob.token, { status: 204 });
    await api(`PUT /users/@me/relationships/${bob.userId}`, alice.token, { status: 204 });
    const added = await bobGame.next(
      (f) => f.t === 'RELATIONSHIP_ADD' && (f.d as { type: number }).type === 1,
    );
    const presence = await bobGame.dispatch('PRESENCE_UPDATE');
    expect(presence.s).toBe((added.s ?? 0) + 1);
    expect(presence.d).toEqual({
      user: { id: alice.userId },
      status: 'online',
      activities: [{ name: 'Tiny Tanks', type: 0, application_id: gameA.applicationId }],
      client_status: { desktop: 'online' },
    });
    // Bob set no presence: Alice's session gets none of his.
    await settle(alice.userId, [aliceGame]);
    expect(aliceGame.frames.some((f) => f.t === 'PRESENCE_UPDATE')).toBe(false);

    // The friendship ends: RELATIONSHIP_REMOVE, and nothing more.
    await api(`DELETE /users/@me/relationships/${alice.userId}`, bob.token, { status: 204 });
    await bobGame.dispatch('RELATIONSHIP_REMOVE');
    await settle(bob.userId, [bobGame]);
    expect(bobGame.frames.filter((f) => f.t === 'PRESENCE_UPDATE')).toHaveLength(1);
  });
});
