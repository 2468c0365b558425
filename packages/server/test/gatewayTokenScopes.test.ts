/**
 * A gateway session reads what its token reads over REST (docs/gateway.md, "What a Bearer
 * session receives"): a `sdk.social_layer_presence` token, which REST refuses the DMs and lobbies
 * (403 50001, 50026), gets no DM channel in READY, no DM or group DM message, no lobby event and
 * no email in USER_UPDATE and may not join a lobby call, while its relationships still come; a `sdk.social_layer` token gets
 * the DMs; a person's own session and a bot's are as they were, the bot's USER_UPDATE without
 * the email as GET /users/@me shows it. A RESUME must bring a token of the same grant. Through
 * real WebSockets on both storage drivers.
 *
 * @module
 */
import { uniqueName } from './support/fileServer.js';
import { GatewayIntentBits as I } from '@guildhall/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { expandScopes } from '../src/oauth/index.js';
import { describeDrivers } from './support/drivers.js';
import { useGatewayFixture } from './support/gatewayFixture.js';
import { connectGateway, type Frame, type GatewayClient } from './support/gatewayClient.js';

const PRESENCE_ONLY = ['openid', 'sdk.social_layer_presence'];
const SOCIAL_LAYER = ['openid', 'sdk.social_layer'];

describeDrivers('gateway sessions read what their token reads ($driver)', (driver) => {
  const gw = useGatewayFixture({ driver });

  /** A Bearer token of the fixture's application for the user, with these scopes (expanded). */
  const bearer = async (userId: string, scopes: string[], applicationId?: string) =>
    `Bearer ${
      (
        await gw.server.app.services.oauth.issueTokens({
          userId,
          applicationId: applicationId ?? gw.guild.bot.applicationId,
          scopes: expandScopes(scopes),
          refresh: false,
        })
      ).access_token
    }`;

  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'PUT', path: string, auth: string) =>
    gw.guild.call(method, path, auth);
  const send = async (
    method: 'POST' | 'PATCH' | 'PUT',
    path: string,
    input: { auth: string; payload: Record<string, unknown> },
  ) => {
    const res = await gw.guild.call(method, path, input);
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.body === '' ? {} : res.json<Record<string, unknown>>();
  };
  const expectRefused = (res: LightMyRequestResponse, status: number, code: number) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ code });
  };

  /** Waits for a marker (USER_UPDATE) on the user's subject: what came before it has arrived. */
  const settle = async (userId: string, clients: readonly GatewayClient[]) => {
    const marker = { id: `marker-${String(Math.random())}` };
    gw.events.dispatch({ type: 'USER_UPDATE', guildId: null, userIds: [userId], data: marker });
    for (const client of clients) {
      await client.next((f) => f.t === 'USER_UPDATE' && (f.d as { id?: unknown }).id === marker.id);
    }
  };

  /** The dispatches of `type` a client got that concern `id` (a channel, by id or channel_id). */
  const about = (client: GatewayClient, type: string, id: string) =>
    client.frames.filter((f: Frame) => {
      const d = f.d as { id?: unknown; channel_id?: unknown } | null;
      return f.t === type && (d?.id === id || d?.channel_id === id);
    });

  const dmWith = async (from: { token: string }, to: string) =>
    (
      await send('POST', '/users/@me/channels', { auth: from.token, payload: { recipient_id: to } })
    )['id'] as string;

  it('a presence-only session gets no DM, group DM or email; a social-layer session does', async () => {
    const player = await gw.guild.join('player');
    const pal = await gw.guild.join('pal');
    const third = await gw.guild.join('third');
    await gw.server.app.storage.users.update(player.userId, { premiumType: 2 });
    const dmId = await dmWith(pal, player.userId);
    await send('POST', `/channels/${dmId}/messages`, {
      auth: pal.token,
      payload: { content: 'before READY' },
    });
    await send('PUT', `/users/@me/relationships/${player.userId}`, {
      auth: pal.token,
      payload: {},
    });
    const presenceToken = await bearer(player.userId, PRESENCE_ONLY);
    const socialToken = await bearer(player.userId, SOCIAL_LAYER);

    // REST: the presence-only token reads no DM; its own user without email nor premium type.
    expectRefused(await call('GET', '/users/@me/channels', presenceToken), 403, 50001);
    expectRefused(await call('GET', `/users/${pal.userId}/messages`, presenceToken), 403, 50001);
    expect((await call('GET', '/users/@me', presenceToken)).json()).toMatchObject({
      id: player.userId,
      email: null,
      premium_type: 0,
    });
    const relationships = await call('GET', '/users/@me/relationships', presenceToken);
    expect(relationships.json()).toMatchObject([{ id: pal.userId, type: 3 }]);
    // The social-layer token reads them.
    const dms = await call('GET', '/users/@me/channels', socialToken);
    expect(dms.json()).toMatchObject([{ id: dmId }]);
    const read = await call('GET', `/users/${pal.userId}/messages`, socialToken);
    expect(read.json()).toMatchObject([{ content: 'before READY' }]);

    const presence = await gw.identify({ token: presenceToken, intents: 0 });
    const social = await gw.identify({ token: socialToken, intents: 0 });
    const own = await gw.identify({ token: player.token, intents: I.DIRECT_MESSAGES });
    expect(presence.ready).toMatchObject({
      user: { id: player.userId, email: null },
      private_channels: [],
      relationships: [{ id: pal.userId, type: 3 }],
      lobbies: [],
    });
    for (const { ready } of [social, own]) {
      expect(ready).toMatchObject({
        private_channels: [{ id: dmId }],
        relationships: [{ id: pal.userId, type: 3 }],
      });
    }
    expect(social.ready).toMatchObject({ user: { email: null } });
    expect(own.ready).toMatchObject({ user: { email: `${player.username}@example.test` } });

    // A DM message, a group DM and its message, a friend request, a change of the user.
    await send('POST', `/channels/${dmId}/messages`, {
      auth: pal.token,
      payload: { content: 'after READY' },
    });
    // A person's own session makes a group DM of friends only: player accepts pal's request, and
    // pal and third become friends.
    await send('PUT', `/users/@me/relationships/${pal.userId}`, {
      auth: player.token,
      payload: {},
    });
    await send('PUT', `/users/@me/relationships/${third.userId}`, { auth: pal.token, payload: {} });
    await send('PUT', `/users/@me/relationships/${pal.userId}`, { auth: third.token, payload: {} });
    const group = await send('POST', '/users/@me/channels', {
      auth: pal.token,
      payload: { recipients: [player.userId, third.userId] },
    });
    const groupId = group['id'] as string;
    await send('POST', `/channels/${groupId}/messages`, {
      auth: pal.token,
      payload: { content: 'group hello' },
    });
    await send('PUT', `/users/@me/relationships/${player.userId}`, {
      auth: third.token,
      payload: {},
    });
    await send('PATCH', '/users/@me', { auth: player.token, payload: { global_name: 'Player' } });

    const clients = [presence.client, social.client, own.client];
    for (const client of [social.client, own.client]) {
      const message = await client.next(
        (f) => f.t === 'MESSAGE_CREATE' && (f.d as { channel_id?: unknown }).channel_id === dmId,
      );
      expect(message.d).toMatchObject({ content: 'after READY' });
      await client.next(
        (f) => f.t === 'CHANNEL_CREATE' && (f.d as { id?: unknown }).id === groupId,
      );
      const inGroup = await client.next(
        (f) => f.t === 'MESSAGE_CREATE' && (f.d as { channel_id?: unknown }).channel_id === groupId,
      );
      expect(inGroup.d).toMatchObject({ content: 'group hello' });
    }
    // Relationships and the user's changes reach every session.
    for (const client of clients) {
      const added = await client.next(
        (f) => f.t === 'RELATIONSHIP_ADD' && (f.d as { id?: unknown }).id === third.userId,
      );
      expect(added.d).toMatchObject({ id: third.userId, type: 3 });
    }
    const renamed = (client: GatewayClient) =>
      client.next((f) => f.t === 'USER_UPDATE' && (f.d as { id?: unknown }).id === player.userId);
    expect((await renamed(own.client)).d).toMatchObject({
      global_name: 'Player',
      email: `${player.username}@example.test`,
      premium_type: 2,
    });
    for (const client of [presence.client, social.client]) {
      expect((await renamed(client)).d).toMatchObject({
        global_name: 'Player',
        email: null,
        premium_type: 0,
      });
    }

    // The presence-only session got none of the DMs (a marker after them all finds none).
    await settle(player.userId, clients);
    for (const type of ['CHANNEL_CREATE', 'MESSAGE_CREATE']) {
      expect(about(presence.client, type, dmId)).toEqual([]);
      expect(about(presence.client, type, groupId)).toEqual([]);
    }
    expect(JSON.stringify(presence.client.frames)).not.toContain(`${player.username}@example.test`);
    expect(JSON.stringify(social.client.frames)).not.toContain(`${player.username}@example.test`);
  });

  it('a presence-only session gets no lobby event, as REST refuses it the lobby (50026)', async () => {
    const player = await gw.guild.join('player');
    const presenceToken = await bearer(player.userId, PRESENCE_ONLY);
    const presence = (await gw.identify({ token: presenceToken, intents: 0 })).client;
    const social = (await gw.identify({ token: await bearer(player.userId, SOCIAL_LAYER) })).client;
    const lobby = await send('POST', '/lobbies', {
      auth: gw.guild.bot.token,
      payload: { members: [{ id: player.userId }] },
    });
    const lobbyId = lobby['id'] as string;
    expect((await social.dispatch('LOBBY_CREATE')).d).toMatchObject({ id: lobbyId });
    expectRefused(await call('GET', `/lobbies/${lobbyId}/messages`, presenceToken), 403, 50026);
    await settle(player.userId, [presence, social]);
    expect(presence.frames.some((f) => f.t?.startsWith('LOBBY_') === true)).toBe(false);
    // Nor may it join the lobby's call (op 4 of a lobby): 4001, as any invalid op 4.
    presence.send(4, { guild_id: null, channel_id: lobbyId, self_mute: false, self_deaf: false });
    expect((await presence.closed).code).toBe(4001);
    expect(await gw.server.app.storage.lobbies.listVoiceStates(lobbyId)).toEqual([]);
  });

  it('a bot session keeps its DMs; its USER_UPDATE shows what GET /users/@me shows a bot', async () => {
    const bot = gw.guild.bot;
    await gw.server.app.storage.users.update(bot.userId, {
      email: `${uniqueName('bot')}@example.test`,
      premiumType: 2,
    });
    const player = await gw.guild.join('player');
    const session = (await gw.identify({ intents: I.GUILDS | I.DIRECT_MESSAGES })).client;
    const dmId = await dmWith(player, bot.userId);
    await send('POST', `/channels/${dmId}/messages`, {
      auth: player.token,
      payload: { content: 'hello bot' },
    });
    const message = await session.next(
      (f) => f.t === 'MESSAGE_CREATE' && (f.d as { channel_id?: unknown }).channel_id === dmId,
    );
    expect(message.d).toMatchObject({ content: 'hello bot' });

    await send('PATCH', '/users/@me', { auth: bot.token, payload: { username: 'renamedbot' } });
    const update = await session.next(
      (f) => f.t === 'USER_UPDATE' && (f.d as { id?: unknown }).id === bot.userId,
    );
    const rest = (await call('GET', '/users/@me', bot.token)).json<Record<string, unknown>>();
    expect(rest).toMatchObject({ username: 'renamedbot', email: null, premium_type: 0 });
    expect(update.d).toMatchObject({ username: 'renamedbot', email: null, premium_type: 0 });
  });

  it('a RESUME brings a token of the same grant, or the session is to be identified again', async () => {
    const player = await gw.guild.join('player');
    const { client, ready } = await gw.identify({
      token: await bearer(player.userId, SOCIAL_LAYER),
      intents: 0,
    });
    await client.close(4000);
    const resumeWith = async (token: string) => {
      const next = gw.track(await connectGateway(gw.url()));
      await next.next((f) => f.op === 10);
      next.send(6, { token, session_id: ready.session_id, seq: gw.lastSeq(client) });
      return next;
    };
    // A presence-only token of the same user: INVALID_SESSION, not resumable.
    const narrower = await resumeWith(await bearer(player.userId, PRESENCE_ONLY));
    expect((await narrower.next((f) => f.op === 9)).d).toBe(false);
    expect(narrower.frames.some((f) => f.t === 'RESUMED')).toBe(false);
    // The person's own session token neither.
    const own = await resumeWith(player.token);
    expect((await own.next((f) => f.op === 9)).d).toBe(false);
    // A token of the same user and scopes for another game: that game may not read this one's
    // lobbies, join secrets and replay.
    const otherGame = await gw.server.app.services.applications.create(player.userId, {
      name: 'another game',
    });
    const elsewhere = await resumeWith(
      await bearer(player.userId, SOCIAL_LAYER, otherGame.application.id),
    );
    expect((await elsewhere.next((f) => f.op === 9)).d).toBe(false);
    expect(elsewhere.frames.some((f) => f.t === 'RESUMED')).toBe(false);
    // Another token of the same scopes (a refreshed one) resumes.
    const same = await resumeWith(await bearer(player.userId, SOCIAL_LAYER));
    await same.dispatch('RESUMED');
  });
});
