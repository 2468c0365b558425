import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { useProvisionalFixture, type TokenBody } from '../../../test/support/provisionalFixture.js';
import { uniqueName } from '../../../test/support/fileServer.js';
import { seedDeveloper } from '../../../test/support/testServer.js';

const GAME_DM_EVENTS = [
  'GAME_DIRECT_MESSAGE_CREATE',
  'GAME_DIRECT_MESSAGE_UPDATE',
  'GAME_DIRECT_MESSAGE_DELETE',
];

interface Message {
  id: string;
  channel_id: string;
  content: string;
  application_id?: string;
  moderation_metadata?: Record<string, string>;
}

describeDrivers('Social SDK DMs on $driver', (driver) => {
  const fx = useProvisionalFixture(driver);
  const { call, bot, botToken, me } = fx;

  /** A provisional account of the fixture's app: its Bearer header and user id. */
  const player = async (externalId: string) => {
    const token = (await botToken(externalId)).json<TokenBody>().access_token;
    const id = (await me(token)).json<{ id: string }>().id;
    return { id, auth: `Bearer ${token}` };
  };
  /** A full account with a session, named after `name`. */
  const person = async (name: string) => {
    const username = uniqueName(name);
    const session = await fx.server.app.services.auth.register({
      email: `${username}@example.test`,
      username,
      password: 'correct horse battery',
    });
    return { id: session.user_id, auth: session.token };
  };
  const subscribe = () =>
    fx.server.app.storage.applications.update(fx.dev.applicationId, {
      eventWebhooksUrl: 'https://game.example.com/events',
      eventWebhooksStatus: 2,
      eventWebhooksTypes: GAME_DM_EVENTS,
    });
  const gameEvents = async () =>
    (await fx.server.app.storage.outbox.listByApplication(fx.dev.applicationId, { limit: 50 }))
      .filter((e) => GAME_DM_EVENTS.includes(e.eventType))
      .map((e) => JSON.parse(e.event) as { type: string; data: Record<string, unknown> })
      .reverse();
  const relationships = () => fx.server.app.storage.relationships;
  /** Lets anyone in a connected game message the user. */
  const allowAll = (userId: string) => relationships().setMessagePolicy(userId, 'everyone');
  /** Makes two users friends in the fixture's game. */
  const gameFriends = async (a: string, b: string) => {
    for (const [userId, targetId] of [
      [a, b],
      [b, a],
    ] as const) {
      await relationships().put({
        userId,
        targetId,
        applicationId: fx.dev.applicationId,
        type: 1,
        nickname: null,
        isSpamRequest: false,
        since: fx.clock.now(),
      });
    }
  };
  const sendTo = (auth: string, userId: string, payload: object) =>
    call('POST', `/users/${userId}/messages`, { auth, payload });
  const metadataPath = (a: string, b: string, messageId: string) =>
    `/partner-sdk/dms/${a}/${b}/messages/${messageId}/moderation-metadata`;

  it('provisional players DM within their game; the game hears of it by webhook', async () => {
    await subscribe();
    const a = await player('a');
    const b = await player('b');
    // Friends only, unless the player chose otherwise; nobody means nobody.
    const strangers = await sendTo(a.auth, b.id, { content: 'gg' });
    expect(strangers.json()).toMatchObject({ code: 50007 });
    await gameFriends(a.id, b.id);
    await relationships().setMessagePolicy(b.id, 'nobody');
    expect((await sendTo(a.auth, b.id, { content: 'gg' })).json()).toMatchObject({ code: 50007 });
    await relationships().setMessagePolicy(b.id, 'friends');
    const sent = await sendTo(a.auth, b.id, { content: 'gg' });
    expect(sent.statusCode, sent.body).toBe(200);
    const message = sent.json<Message>();
    expect(message).toMatchObject({ content: 'gg', application_id: fx.dev.applicationId });
    const again = await sendTo(a.auth, b.id, { content: 'rematch?' });
    expect(again.json<Message>().channel_id).toBe(message.channel_id);

    const history = await call('GET', `/users/${a.id}/messages?limit=1`, { auth: b.auth });
    expect(history.json<Message[]>().map((m) => m.content)).toEqual(['rematch?']);
    const channels = await call('GET', '/users/@me/channels', { auth: b.auth });
    expect(channels.json()).toMatchObject([
      { id: message.channel_id, type: 1, application_id: fx.dev.applicationId },
    ]);

    const [created] = await gameEvents();
    expect(created?.type).toBe('GAME_DIRECT_MESSAGE_CREATE');
    // Both provisional: the SDK-DM object.
    expect(Object.keys(created?.data ?? {}).sort()).toEqual(
      ['application_id', 'author', 'channel', 'content', 'flags', 'id', 'type'].sort(),
    );
    expect(created?.data).toMatchObject({
      id: message.id,
      content: 'gg',
      author: { id: a.id },
      application_id: fx.dev.applicationId,
      channel: { id: message.channel_id, type: 1 },
    });
  });

  it('keeps provisional accounts inside their game and checks the token', async () => {
    const a = await player('a');
    const other = await seedDeveloper(fx.server.app, uniqueName('othergame'), 'othergame app');
    const stranger = (
      await call('POST', '/partner-sdk/token/bot', {
        auth: `Bot ${other.botToken}`,
        payload: { external_user_id: 'stranger' },
      })
    ).json<TokenBody>();
    const refused = await sendTo(`Bearer ${stranger.access_token}`, a.id, { content: 'hi' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 50007 });
    const open = await call('POST', '/users/@me/channels', {
      auth: `Bearer ${stranger.access_token}`,
      payload: { recipient_id: a.id },
    });
    expect(open.json()).toMatchObject({ code: 50007 });

    const friend = await person('friend');
    await allowAll(friend.id);
    const narrow = await fx.server.app.services.oauth.issueTokens({
      userId: friend.id,
      applicationId: fx.dev.applicationId,
      scopes: ['identify'],
      refresh: false,
    });
    const noScope = await sendTo(`Bearer ${narrow.access_token}`, a.id, { content: 'hi' });
    expect(noScope.json()).toMatchObject({ code: 50001 });
    for (const [method, path, payload] of [
      ['POST', '/users/@me/channels', { recipient_id: a.id }],
      ['GET', '/users/@me/channels', undefined],
      ['GET', `/users/${a.id}/messages`, undefined],
    ] as const) {
      const res = await call(method, path, {
        auth: `Bearer ${narrow.access_token}`,
        ...(payload === undefined ? {} : { payload }),
      });
      expect(res.json(), path).toMatchObject({ code: 50001 });
    }
    // SDK tokens do not reach the channel message routes.
    const dm = (await sendTo(a.auth, friend.id, { content: 'hey' })).json<Message>();
    const viaChannel = await call('POST', `/channels/${dm.channel_id}/messages`, {
      auth: a.auth,
      payload: { content: 'x' },
    });
    expect(viaChannel.statusCode).toBe(401);
    for (const [userId, payload] of [
      ['abc', { content: 'x' }],
      [friend.id, { content: 7 }],
      [friend.id, {}],
      [friend.id, { content: 'x'.repeat(2001) }],
    ] as const) {
      const bad = await sendTo(a.auth, userId, payload);
      expect(bad.statusCode, bad.body).toBeGreaterThanOrEqual(400);
      expect(bad.statusCode).toBeLessThan(500);
    }
    expect((await sendTo(a.auth, '1234567890123', { content: 'x' })).json()).toMatchObject({
      code: 10013,
    });
    const history = await call('GET', `/users/${friend.id}/messages`, { auth: a.auth });
    expect(history.json<Message[]>().map((m) => m.content)).toEqual(['hey']);
  });

  it('moderation metadata: the game backend sets it, its SDK reads it, edits clear it', async () => {
    await subscribe();
    const a = await player('a');
    const friend = await person('friend');
    await allowAll(friend.id);
    await allowAll(a.id);
    const dm = (await sendTo(a.auth, friend.id, { content: 'hello' })).json<Message>();
    const reply = await call('POST', `/channels/${dm.channel_id}/messages`, {
      auth: friend.auth,
      payload: { content: 'rude words' },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    const replied = reply.json<Message>();
    const before = (await gameEvents()).length;
    expect(before).toBe(2);
    // The full account's message: the message object with its channel.
    expect((await gameEvents())[1]?.data).toMatchObject({
      id: replied.id,
      channel_id: dm.channel_id,
      channel: { id: dm.channel_id },
    });

    const path = metadataPath(a.id, friend.id, replied.id);
    const put = await call('PUT', path, { auth: bot(), payload: { action: 'hide', reason: 'x' } });
    expect(put.statusCode, put.body).toBe(204);
    expectOpenApiResponse(put, 'PUT', path);
    const swapped = metadataPath(friend.id, a.id, replied.id);
    expect(
      (await call('PUT', swapped, { auth: bot(), payload: { action: 'blur' } })).statusCode,
    ).toBe(204);
    expect(await gameEvents()).toHaveLength(before);
    const read = await call('GET', `/users/${friend.id}/messages`, { auth: a.auth });
    const seen = read.json<Message[]>().find((m) => m.id === replied.id);
    expect(seen?.moderation_metadata).toEqual({ action: 'blur' });
    // Not over the channel routes.
    const viaRoute = await call('GET', `/channels/${dm.channel_id}/messages`, {
      auth: friend.auth,
    });
    expect(JSON.stringify(viaRoute.json())).not.toContain('moderation_metadata');

    const refusals: [string, object, number][] = [
      [path, { a: '1', b: '2', c: '3', d: '4', e: '5', f: '6' }, 50035],
      [path, { action: 'x'.repeat(2001) }, 50035],
      [path, { ['k'.repeat(1025)]: 'v' }, 50035],
      [path, { action: 1 }, 50035],
      [path, ['hide'], 50035],
      [metadataPath(a.id, friend.id, '1234567890123'), { action: 'hide' }, 10008],
      [metadataPath(a.id, '1234567890123', replied.id), { action: 'hide' }, 10003],
      [metadataPath('abc', friend.id, replied.id), { action: 'hide' }, 10013],
    ];
    for (const [target, payload, code] of refusals) {
      const res = await call('PUT', target, { auth: bot(), payload });
      expect(res.json(), target).toMatchObject({ code });
      expectOpenApiResponse(res, 'PUT', target);
    }
    const other = await seedDeveloper(fx.server.app, uniqueName('othergame'), 'othergame app');
    const foreign = await call('PUT', path, {
      auth: `Bot ${other.botToken}`,
      payload: { action: 'show' },
    });
    // The DM belongs to the other game: to this app it does not exist.
    expect(foreign.json()).toMatchObject({ code: 10003 });
    const stored = await fx.server.app.storage.privateChannels.findModerationMetadata(
      replied.id,
      fx.dev.applicationId,
    );
    expect(stored?.metadata).toEqual({ action: 'blur' });

    const edited = await fx.server.app.http.inject({
      method: 'PATCH',
      url: `/api/v10/channels/${dm.channel_id}/messages/${replied.id}`,
      headers: { authorization: friend.auth },
      payload: { content: 'kind words' },
    });
    expect(edited.statusCode).toBe(200);
    expect(
      await fx.server.app.storage.privateChannels.findModerationMetadata(
        replied.id,
        fx.dev.applicationId,
      ),
    ).toBeNull();
    const deleted = await call('DELETE', `/channels/${dm.channel_id}/messages/${replied.id}`, {
      auth: friend.auth,
    });
    expect(deleted.statusCode).toBe(204);
    expect((await gameEvents()).map((e) => e.type)).toEqual([
      'GAME_DIRECT_MESSAGE_CREATE',
      'GAME_DIRECT_MESSAGE_CREATE',
      'GAME_DIRECT_MESSAGE_UPDATE',
      'GAME_DIRECT_MESSAGE_DELETE',
    ]);
  });

  it('SDK sends count against the pre-approval limit (100 per 2 hours)', async () => {
    const a = await player('a');
    const friend = await person('friend');
    await allowAll(friend.id);
    await allowAll(a.id);
    let channelId = '';
    for (let i = 0; i < 100; i++) {
      const res = await sendTo(a.auth, friend.id, { content: `m${String(i)}` });
      expect(res.statusCode, res.body).toBe(200);
      channelId = res.json<Message>().channel_id;
    }
    const over = await sendTo(a.auth, friend.id, { content: 'one too many' });
    expect(over.statusCode).toBe(429);
    // The full account's own client is no SDK send: not counted.
    const reply = await call('POST', `/channels/${channelId}/messages`, {
      auth: friend.auth,
      payload: { content: 'still here' },
    });
    expect(reply.statusCode).toBe(200);
    const last = await call('GET', `/users/${friend.id}/messages?limit=2`, { auth: a.auth });
    expect(last.json<Message[]>().map((m) => m.content)).toEqual(['still here', 'm99']);
  });

  it('a merge takes the provisional DMs with it', async () => {
    await fx.saveProvider();
    const provisional = (await fx.exchange('alice')).json<TokenBody>();
    const aliceId = (await me(provisional.access_token)).json<{ id: string }>().id;
    const friend = await person('friend');
    await allowAll(friend.id);
    const dm = (
      await sendTo(`Bearer ${provisional.access_token}`, friend.id, { content: 'psst' })
    ).json<Message>();
    expect(await fx.server.app.storage.privateChannels.find(dm.channel_id)).not.toBeNull();
    const full = await person('alice_full');
    await fx.merge(full.id, { type: 'OIDC', token: await fx.idp.idToken('alice') });
    expect(await fx.server.app.storage.users.findById(aliceId)).toBeNull();
    expect(await fx.server.app.storage.privateChannels.find(dm.channel_id)).toBeNull();
    expect(await fx.server.app.storage.messages.findById(dm.channel_id, dm.id)).toBeNull();
    expect((await call('GET', '/users/@me/channels', { auth: friend.auth })).json()).toEqual([]);
  });
});
