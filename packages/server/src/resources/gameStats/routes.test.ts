import { beforeEach, expect, it } from 'vitest';
import { generateToken, hashSecret } from '../../domain/credentials.js';
import { CHANNEL_LIST_VISIBILITY_FROM_MS } from '../../domain/permissions.js';
import { fabricatedId, uniqueName, useClockedServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { seedDeveloper, type TestServer } from '../../../test/support/testServer.js';
import {
  MAX_DYNAMIC_FIELDS,
  MAX_PROVIDER_ISSUED_USER_ID_LENGTH,
  MAX_STRING_VALUE_LENGTH,
} from './schemas.js';
import { apiRequest } from '../../../test/support/inject.js';

type Seed = Awaited<ReturnType<typeof seedDeveloper>>;

const profilePath = (app: string, user: string, external: string) =>
  `/applications/${app}/users/${user}/identities/${encodeURIComponent(external)}/profile`;

const STATS = {
  primary: {
    season: 'Season 3',
    rank_name: 'Diamond',
    rank_image: { url: 'https://cdn.game.example/diamond.png' },
    playtime_hours: 12.5,
    total_wins: 40,
    current_period_kills: 3,
  },
  dynamic: [
    { type: 1, name: 'Favourite map', value: 'Harbour' },
    { type: 2, name: 'Headshot %', value: 41.2 },
    { type: 3, name: 'Banner', value: { url: 'https://cdn.game.example/banner.png' } },
  ],
};

describeDrivers('game stats on $driver', (driver) => {
  let server: TestServer;
  let dev: Seed;
  let other: Seed;
  let player: { userId: string; token: string; username: string };
  const shared = useClockedServer({ storage: driver }, 'api-clock', {
    from: Date.UTC(2026, 5, 1),
    until: CHANNEL_LIST_VISIBILITY_FROM_MS,
  });
  const { clock } = shared;

  const call = (
    /** `'METHOD /path'`. */
    request: string,
    auth: string,
    payload?: unknown,
  ) => apiRequest(server.app, request, { auth, payload });
  /** A new person named after `name` (made unique: the file's tests share a server). */
  const register = async (name: string) => {
    const username = uniqueName(name);
    const session = await server.app.services.auth.register({
      email: `${username}@example.test`,
      username,
      password: 'correct horse battery',
    });
    return { userId: session.user_id, token: session.token, username };
  };
  const grant = (userId: string, applicationId: string, scopes: string[]) =>
    server.app.storage.oauth.upsertAuthorization({
      // An id no snowflake of the server takes (the worker's files share it).
      id: fabricatedId(userId),
      userId,
      applicationId,
      scopes,
      integrationType: 1,
      createdAt: clock.now(),
      updatedAt: clock.now(),
    });
  const bearer = async (userId: string, applicationId: string, scopes: string[]) => {
    const token = generateToken(userId, clock.now());
    await server.app.storage.tokens.create({
      hash: hashSecret(token),
      kind: 'bearer',
      userId,
      applicationId,
      scopes,
      createdAt: clock.now(),
      expiresAt: null,
    });
    return `Bearer ${token}`;
  };
  const bot = () => `Bot ${dev.botToken}`;
  const write = (payload: unknown, external = 'player-123', user = player.userId) =>
    call(`PATCH ` + profilePath(dev.applicationId, user, external), bot(), payload);

  beforeEach(async () => {
    server = shared.server;
    dev = await seedDeveloper(server.app, uniqueName('gamedev'), 'gamedev app');
    other = await seedDeveloper(server.app, uniqueName('otherdev'), 'otherdev app');
    player = await register('player');
    await grant(player.userId, dev.applicationId, ['identify', 'application_identities.write']);
  });

  it('creates the identity on the first write (201), updates after (204), reads it back', async () => {
    const created = await write({
      username: 'xXPlayerXx',
      metadata: { region: 'eu' },
      data: STATS,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      username: 'xXPlayerXx',
      metadata: { region: 'eu' },
      data: STATS,
    });

    const updated = await write({ data: { primary: { total_wins: 41 } } });
    expect(updated.statusCode).toBe(204);
    expect(updated.body).toBe('');

    const read = await call(
      `GET ` + profilePath(dev.applicationId, player.userId, 'player-123'),
      bot(),
    );
    expect(read.statusCode).toBe(200);
    // data is replaced whole; username and metadata stay.
    expect(read.json()).toEqual({
      username: 'xXPlayerXx',
      metadata: { region: 'eu' },
      data: { primary: { total_wins: 41 } },
    });

    // The user reads their own, through a session or a token of the application.
    const own = await call(
      `GET ` + profilePath(dev.applicationId, '@me', 'player-123'),
      await bearer(player.userId, dev.applicationId, ['identify']),
    );
    expect(own.statusCode).toBe(200);
    const list = await call(
      `GET ` + `/users/${player.userId}/application-identities/${dev.applicationId}`,
      player.token,
    );
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({
      identities: [
        {
          application_id: dev.applicationId,
          user_id: player.userId,
          provider_type: 'NONE',
          provider_id: null,
          provider_issued_user_id: 'player-123',
          username: 'xXPlayerXx',
          metadata: { region: 'eu' },
          data: { primary: { total_wins: 41 } },
        },
      ],
    });
  });

  it('refuses another provider_issued_user_id once the identity exists (50035)', async () => {
    expect((await write({ username: 'a' })).statusCode).toBe(201);
    const res = await write({ username: 'b' }, 'player-999');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 50035,
      errors: {
        provider_issued_user_id: {
          _errors: [{ code: 'APPLICATION_IDENTITY_PROVIDER_USER_ID_MISMATCH' }],
        },
      },
    });
    // Another user may not take the id either.
    const second = await register('second');
    await grant(second.userId, dev.applicationId, ['sdk.social_layer_presence']);
    const takenRes = await write({ username: 'c' }, 'player-123', second.userId);
    expect(takenRes.statusCode).toBe(400);
    const profile = await server.app.storage.applicationIdentities.findProfile(
      dev.applicationId,
      player.userId,
    );
    expect(profile?.username).toBe('a');
  });

  it('needs the bot of that application and a user who granted the scope', async () => {
    const otherBot = await call(
      `PATCH ` + profilePath(dev.applicationId, player.userId, 'p'),
      `Bot ${other.botToken}`,
      { username: 'x' },
    );
    expect(otherBot.statusCode).toBe(403);
    expect(otherBot.json()).toMatchObject({ code: 50001 });

    const person = await call(
      `PATCH ` + profilePath(dev.applicationId, player.userId, 'p'),
      player.token,
      {
        username: 'x',
      },
    );
    expect(person.statusCode).toBe(403);

    const stranger = await register('stranger');
    await grant(stranger.userId, dev.applicationId, ['identify']);
    const noScope = await write({ username: 'x' }, 'p', stranger.userId);
    expect(noScope.statusCode).toBe(403);
    expect(noScope.json()).toMatchObject({ code: 50026 });

    const unknownUser = await write({ username: 'x' }, 'p', '123456789012345678');
    expect(unknownUser.json()).toMatchObject({ code: 10013 });
    const unknownApp = await call(`PATCH ` + profilePath('99999', player.userId, 'p'), bot(), {});
    expect(unknownApp.json()).toMatchObject({ code: 10002 });
    const badApp = await call(`PATCH ` + profilePath('nope', player.userId, 'p'), bot(), {});
    expect(badApp.json()).toMatchObject({ code: 10002 });

    expect(
      await server.app.storage.applicationIdentities.findProfile(
        dev.applicationId,
        stranger.userId,
      ),
    ).toBeNull();
  });

  it.each([
    [
      'a string count',
      { data: { primary: { total_wins: '3' } } },
      ['data', 'primary', 'total_wins'],
    ],
    [
      'a fractional count',
      { data: { primary: { total_kills: 1.5 } } },
      ['data', 'primary', 'total_kills'],
    ],
    [
      'a negative count',
      { data: { primary: { total_games: -1 } } },
      ['data', 'primary', 'total_games'],
    ],
    ['an unknown primary key', { data: { primary: { elo: 3 } } }, ['data', 'primary']],
    [
      'a string image',
      { data: { primary: { rank_image: 'https://x.example/a.png' } } },
      ['data', 'primary', 'rank_image'],
    ],
    [
      'a javascript: image',
      { data: { primary: { rank_image: { url: 'javascript:alert(1)' } } } },
      ['data', 'primary', 'rank_image', 'url'],
    ],
    [
      'an unknown dynamic type',
      { data: { dynamic: [{ type: 4, name: 'x', value: 1 }] } },
      ['data', 'dynamic', '0'],
    ],
    [
      'a number field with a string',
      { data: { dynamic: [{ type: 2, name: 'x', value: 'NaN' }] } },
      ['data', 'dynamic', '0', 'value'],
    ],
    [
      'a duplicate field name',
      {
        data: {
          dynamic: [
            { type: 2, name: 'x', value: 1 },
            { type: 2, name: 'x', value: 2 },
          ],
        },
      },
      ['data', 'dynamic', '1', 'name'],
    ],
    [
      'too many fields',
      {
        data: {
          dynamic: Array.from({ length: MAX_DYNAMIC_FIELDS + 1 }, (_, i) => ({
            type: 2,
            name: `f${i}`,
            value: i,
          })),
        },
      },
      ['data', 'dynamic'],
    ],
    [
      'an oversized string',
      {
        data: { dynamic: [{ type: 1, name: 'x', value: 'a'.repeat(MAX_STRING_VALUE_LENGTH + 1) }] },
      },
      ['data', 'dynamic', '0', 'value'],
    ],
    ['a control character', { username: 'bad\u202ename' }, ['username']],
    ['metadata that is not strings', { metadata: { a: 1 } }, ['metadata', 'a']],
    ['data that is an array', { data: [] }, ['data']],
  ])('refuses %s with 50035 and writes nothing', async (_name, payload, path) => {
    const res = await write(payload);
    expect(res.statusCode).toBe(400);
    const body = res.json<{ code: number; errors: Record<string, unknown> }>();
    expect(body.code).toBe(50035);
    let node: unknown = body.errors;
    for (const key of path) node = (node as Record<string, unknown>)[key];
    expect(node).toBeDefined();
    expect(
      await server.app.storage.applicationIdentities.findProfile(dev.applicationId, player.userId),
    ).toBeNull();
  });

  it('takes provider ids up to the limit, and refuses longer ones', async () => {
    const longest = 'é'.repeat(MAX_PROVIDER_ISSUED_USER_ID_LENGTH);
    const created = await write({ username: 'long' }, longest);
    expect(created.statusCode).toBe(201);
    const found = await call(
      `GET /applications/${dev.applicationId}/application-identities/NONE/${encodeURIComponent(longest)}`,
      bot(),
    );
    expect(found.json()).toMatchObject({ provider_issued_user_id: longest });
    const second = await register('second');
    await grant(second.userId, dev.applicationId, ['application_identities.write']);
    const tooLong = await write({ username: 'x' }, `${longest}x`, second.userId);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({ code: 50035 });
  });

  it('keeps reads to the bot and the user themself', async () => {
    await write({ username: 'p' });
    const stranger = await register('stranger');
    const path = profilePath(dev.applicationId, player.userId, 'player-123');
    expect((await call(`GET ` + path, stranger.token)).json()).toMatchObject({ code: 50001 });
    expect((await call(`GET ` + path, `Bot ${other.botToken}`)).json()).toMatchObject({
      code: 50001,
    });
    const otherApps = await bearer(player.userId, other.applicationId, ['identify']);
    expect((await call(`GET ` + path, otherApps)).json()).toMatchObject({ code: 50001 });
    const wrongId = await call(`GET ` + profilePath(dev.applicationId, player.userId, 'x'), bot());
    expect(wrongId.json()).toMatchObject({ code: 50035 });
    const none = await call(`GET ` + profilePath(dev.applicationId, stranger.userId, 'x'), bot());
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ code: 10001 });
  });

  it('looks an identity up by its external id and deletes it', async () => {
    await write({ username: 'p', data: STATS });
    const lookup = `/applications/${dev.applicationId}/application-identities/NONE/player-123`;
    const found = await call(`GET ` + lookup, bot());
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({
      user_id: player.userId,
      provider_type: 'NONE',
      data: STATS,
    });
    expect((await call(`GET ` + lookup, `Bot ${other.botToken}`)).statusCode).toBe(403);
    expect((await call(`GET ` + lookup, player.token)).statusCode).toBe(403);
    const unknownType = `/applications/${dev.applicationId}/application-identities/FAX/player-123`;
    expect((await call(`GET ` + unknownType, bot())).statusCode).toBe(404);

    const del = (auth: string, external = 'player-123', type = 'NONE') =>
      call(
        `POST ` +
          `/users/${player.userId}/application-identities/${dev.applicationId}/${type}/${external}/delete`,
        auth,
      );
    expect((await del(`Bot ${other.botToken}`)).statusCode).toBe(403);
    expect((await del(bot(), 'player-999')).statusCode).toBe(404);
    expect((await del(bot(), 'player-123', 'STEAM')).statusCode).toBe(403);
    expect((await del(player.token)).statusCode).toBe(204);
    expect((await call(`GET ` + lookup, bot())).statusCode).toBe(404);
    // A new identity may now be made with another id.
    expect((await write({ username: 'again' }, 'player-777')).statusCode).toBe(201);
  });

  it('shows a provisional account’s external identity among application profiles', async () => {
    const minted = await call(`POST ` + '/partner-sdk/token/bot', bot(), {
      external_user_id: 'steam-like-42',
      preferred_global_name: 'Guesty',
    });
    expect(minted.statusCode).toBe(200);
    const accessToken = minted.json<{ access_token: string }>().access_token;
    const guest = await call(`GET ` + '/users/@me', `Bearer ${accessToken}`);
    const guestId = guest.json<{ id: string }>().id;

    // The app made the account, so it may write its stats without an OAuth2 grant.
    expect((await write({ username: 'GuestHero' }, 'g-1', guestId)).statusCode).toBe(201);

    const profiles = await call(
      `GET ` + `/users/${guestId}/application-profiles`,
      await bearer(player.userId, dev.applicationId, ['identify']),
    );
    expect(profiles.statusCode).toBe(200);
    expect(profiles.json()).toEqual([
      {
        application_id: dev.applicationId,
        user_id: guestId,
        avatar_hash: null,
        metadata: null,
        provider_id: null,
        provider_issued_user_id: 'steam-like-42',
        provider_type: 'DISCORD_BOT',
        username: 'Guesty',
      },
      {
        application_id: dev.applicationId,
        user_id: guestId,
        avatar_hash: null,
        metadata: null,
        provider_id: null,
        provider_issued_user_id: 'g-1',
        provider_type: 'NONE',
        username: 'GuestHero',
      },
    ]);
    const byExternal = await call(
      `GET ` +
        `/applications/${dev.applicationId}/application-identities/DISCORD_BOT/steam-like-42`,
      bot(),
    );
    expect(byExternal.json()).toMatchObject({ user_id: guestId, provider_type: 'DISCORD_BOT' });
    // Another application's token sees that application's profiles only (none here).
    const elsewhere = await call(
      `GET ` + `/users/${guestId}/application-profiles`,
      `Bot ${other.botToken}`,
    );
    expect(elsewhere.json()).toEqual([]);
    // A session is no application's: 401, as for every route a session may not call.
    expect(
      (await call(`GET ` + `/users/${guestId}/application-profiles`, player.token)).statusCode,
    ).toBe(401);
  });

  it('shows an OIDC identity with its issuer as provider_id, and looks it up by it', async () => {
    const { storage } = server.app;
    await storage.provisional.putOidcProvider({
      applicationId: dev.applicationId,
      issuer: 'https://id.game.example',
      clientId: 'game-client',
      validation: 'strict',
      updatedAt: clock.now(),
    });
    await storage.provisional.createIdentity({
      applicationId: dev.applicationId,
      authType: 'OIDC',
      subject: 'sub-1',
      userId: player.userId,
      provisional: false,
      restrictedBy: null,
      createdAt: clock.now(),
    });
    const base = `/applications/${dev.applicationId}/application-identities/OIDC/sub-1`;
    const found = await call(
      `GET ${base}?provider_id=${encodeURIComponent('https://id.game.example')}`,
      bot(),
    );
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual({
      application_id: dev.applicationId,
      user_id: player.userId,
      provider_type: 'OIDC',
      provider_id: 'https://id.game.example',
      provider_issued_user_id: 'sub-1',
      username: player.username,
      metadata: null,
      data: null,
    });
    const otherIssuer = await call(`GET ${base}?provider_id=https%3A%2F%2Fother.example`, bot());
    expect(otherIssuer.statusCode).toBe(404);
    // Lower case names the same provider type.
    const lower = `/applications/${dev.applicationId}/application-identities/oidc/sub-1`;
    expect((await call(`GET ${lower}`, bot())).statusCode).toBe(200);
    // The external identity is not deleted here.
    const del = await call(
      `POST /users/${player.userId}/application-identities/${dev.applicationId}/OIDC/sub-1/delete`,
      bot(),
    );
    expect(del.statusCode).toBe(403);
    expect(
      await storage.applicationIdentities.findExternalIdentityUsers(dev.applicationId, 'sub-1'),
    ).toEqual([player.userId]);
  });

  it('answers errors with the platform body the OpenAPI document describes', async () => {
    const res = await call(`GET ` + '/users/@me', `Bot ${dev.botToken}`);
    expectOpenApiResponse(res, 'GET', '/users/@me');
    const bad = await write({ data: { primary: { total_wins: 'x' } } });
    // No operation of the document covers game stats: its shared 4XX body is checked instead.
    expectOpenApiResponse({ ...bad, statusCode: 400 }, 'GET', '/users/@me');
  });
});
