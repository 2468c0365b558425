/**
 * Accepting an activity invite (docs/social-presence.md#activity-invites): POST
 * /users/@me/activities/{party_id}/join answers the join secret of the inviter's current party
 * and sends ACTIVITY_JOIN to every SDK session of the accepting user in that game (their other
 * device) and to their own clients (the local client's RPC), and to no other session. Through real WebSockets on both storage drivers.
 *
 * @module
 */
import { expect, it } from 'vitest';
import { describeDrivers } from './support/drivers.js';
import { tinyTanks, useActivityGames } from './support/activityParties.js';
import { apiRequest } from './support/inject.js';

describeDrivers('activity invites ($driver)', (driver) => {
  const games = useActivityGames(driver);
  const { gw, accessToken, befriend } = games;

  const join = (authorization: string, partyId: string, payload: Record<string, unknown>) =>
    games.partyRequest('join', partyId, { auth: authorization, payload });

  /** The inviter in a party of the game (public unless said), with a join secret. */
  const host = (privacy = 1) =>
    games.host([tinyTanks('party-1', privacy, { join: 'the-join-secret' })], 'join');

  const requestJoin = (authorization: string, partyId: string, hostId: string) =>
    apiRequest(gw.server.app, `POST /users/@me/activities/${partyId}/join-request`, {
      auth: authorization,
      payload: { user_id: hostId },
    });

  it('a join request reaches the host’s game and own clients; strangers and bad parties are refused', async () => {
    const inviter = await host(0);
    const own = (await gw.identify({ token: inviter.token, intents: 0 })).client;
    const friend = await gw.guild.join('asker');
    await befriend(friend.userId, inviter.userId);
    const asked = await requestJoin(
      `Bearer ${await accessToken(friend.userId)}`,
      'party-1',
      inviter.userId,
    );
    expect(asked.statusCode).toBe(204);
    const expected = {
      user: { id: friend.userId },
      application_id: games.game.applicationId,
      party_id: 'party-1',
    };
    for (const client of [inviter.game, own]) {
      expect((await client.dispatch('ACTIVITY_JOIN_REQUEST')).d).toMatchObject(expected);
    }
    const stranger = `Bearer ${await accessToken((await gw.guild.join('nosy')).userId)}`;
    expect((await requestJoin(stranger, 'party-1', inviter.userId)).json()).toMatchObject({
      code: 50001,
    });
    expect((await requestJoin(stranger, 'party-9', inviter.userId)).json()).toMatchObject({
      code: 50039,
    });
    const self = await requestJoin(
      `Bearer ${await accessToken(inviter.userId)}`,
      'party-1',
      inviter.userId,
    );
    expect(self.json()).toMatchObject({ code: 50039 });
  });

  it('answers the join secret and tells the user’s SDK sessions of the game, only them', async () => {
    const inviter = await host();
    const guest = await gw.guild.join('guest');
    const token = await accessToken(guest.userId);
    const desktop = (await gw.identify({ token })).client;
    const laptop = (await gw.identify({ token: await accessToken(guest.userId) })).client;
    const otherGame = (await gw.identify({ token: await accessToken(guest.userId, games.other) }))
      .client;
    const person = (await gw.identify({ token: guest.token, intents: 0 })).client;
    const res = await join(`Bearer ${token}`, 'party-1', {
      user_id: inviter.userId,
      channel_id: '123456789012345678',
      message_id: '123456789012345679',
    });
    const expected = {
      secret: 'the-join-secret',
      application_id: games.game.applicationId,
      party_id: 'party-1',
      user_id: inviter.userId,
    };
    expect(res.json()).toEqual({
      ...expected,
      channel_id: '123456789012345678',
      message_id: '123456789012345679',
    });
    // The game on each device, and the person's own client (its RPC daemon tells local games).
    for (const client of [desktop, laptop, person]) {
      expect((await client.dispatch('ACTIVITY_JOIN')).d).toMatchObject(expected);
    }
    // A marker after it on every session: the others had their chance and got nothing.
    gw.events.dispatch({
      type: 'USER_UPDATE',
      guildId: null,
      userIds: [guest.userId],
      data: { id: guest.userId },
    });
    for (const client of [otherGame]) {
      await client.dispatch('USER_UPDATE');
      expect(client.frames.some((f) => f.t === 'ACTIVITY_JOIN')).toBe(false);
    }
  });

  it('refuses a party that is not there (50039), a private one to a stranger (50001), a bot', async () => {
    const inviter = await host(0);
    const guest = await gw.guild.join('stranger');
    const token = await accessToken(guest.userId);
    const missing = await join(`Bearer ${token}`, 'party-2', { user_id: inviter.userId });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 50039 });
    const elsewhere = await join(
      `Bearer ${await accessToken(guest.userId, games.other)}`,
      'party-1',
      {
        user_id: inviter.userId,
      },
    );
    expect(elsewhere.json()).toMatchObject({ code: 50039 });
    const closed = await join(`Bearer ${token}`, 'party-1', { user_id: inviter.userId });
    expect(closed.statusCode).toBe(403);
    expect(closed.json()).toMatchObject({ code: 50001 });
    const bad = await join(`Bearer ${token}`, 'party-1', { user_id: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 50035 });
    const bot = await join(`Bot ${gw.guild.bot.token}`, 'party-1', { user_id: inviter.userId });
    expect(bot.statusCode).toBeGreaterThanOrEqual(401);
  });

  it('a token that may not read activities gets no join secret, as the gateway sends it none', async () => {
    const inviter = await host();
    const guest = await gw.guild.join('writer');
    const writeOnly = await accessToken(guest.userId, games.game, ['identify', 'activities.write']);
    const refused = await join(`Bearer ${writeOnly}`, 'party-1', { user_id: inviter.userId });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 50026 });
    expect(refused.body).not.toContain('the-join-secret');
    // With activities.read as well, the same public party answers its secret.
    const both = ['identify', 'activities.write', 'activities.read'];
    const joined = await join(
      `Bearer ${await accessToken(guest.userId, games.game, both)}`,
      'party-1',
      {
        user_id: inviter.userId,
      },
    );
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toMatchObject({ secret: 'the-join-secret' });
  });

  it('a friend of the inviter joins a private party, with a session token too', async () => {
    const inviter = await host(0);
    const friend = await gw.guild.join('friend');
    await befriend(friend.userId, inviter.userId);
    const sdk = (await gw.identify({ token: await accessToken(friend.userId) })).client;
    const res = await join(friend.token, 'party-1', { user_id: inviter.userId });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ secret: 'the-join-secret' });
    expect((await sdk.dispatch('ACTIVITY_JOIN')).d).toMatchObject({ party_id: 'party-1' });
  });

  it('an invite message in the users’ DM lets a stranger join a private party', async () => {
    const inviter = await host(0);
    const guest = await gw.guild.join('invitee');
    const token = await accessToken(guest.userId);
    // The guest takes messages from anyone; the inviter's game sends the invite as a game DM.
    await gw.server.app.storage.relationships.setMessagePolicy(guest.userId, 'everyone');
    const inviterToken = await accessToken(inviter.userId);
    const sent = await gw.server.app.http.inject({
      method: 'POST',
      url: `/api/v10/users/${guest.userId}/messages`,
      headers: { authorization: `Bearer ${inviterToken}` },
      payload: { content: 'join me', activity: { type: 1, party_id: 'party-1' } },
    });
    expect(sent.statusCode).toBe(200);
    const { id: messageId, channel_id: channelId } = sent.json<{
      id: string;
      channel_id: string;
    }>();
    const without = await join(`Bearer ${token}`, 'party-1', { user_id: inviter.userId });
    expect(without.statusCode).toBe(403);
    const res = await join(`Bearer ${token}`, 'party-1', {
      user_id: inviter.userId,
      channel_id: channelId,
      message_id: messageId,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ secret: 'the-join-secret', message_id: messageId });
  });
});
