/**
 * Spectating a friend's game (docs/rpc.md#spectate): POST
 * /users/@me/activities/{party_id}/spectate answers the spectate secret of the host's current
 * activity and sends ACTIVITY_SPECTATE to the spectator's SDK sessions of that game and their own
 * clients (the local client's RPC), and to no other session; an activity without a spectate
 * secret, a private one to a stranger and a blocked user are refused. Others see the secret
 * only as the activity's SPECTATE flag. Through real WebSockets on both storage drivers.
 *
 * @module
 */
import { expect, it } from 'vitest';
import { describeDrivers } from './support/drivers.js';
import { tinyTanks, useActivityGames } from './support/activityParties.js';

/** ActivityFlags.SPECTATE: the activity can be spectated. */
const SPECTATE_FLAG = 1 << 2;

describeDrivers('spectating an activity ($driver)', (driver) => {
  const games = useActivityGames(driver);
  const { gw, accessToken, befriend } = games;

  const spectate = (authorization: string, partyId: string, payload: Record<string, unknown>) =>
    games.partyRequest('spectate', partyId, { auth: authorization, payload });

  /**
   * The host in the game (party-1 public unless said, with a spectate secret; party-2 with a join
   * secret only), stored once a third user's spectate no longer misses the party.
   */
  const host = (privacy = 1) =>
    games.host(
      [
        tinyTanks('party-1', privacy, { spectate: 'the-spectate-secret' }),
        tinyTanks('party-2', 1, { join: 'the-join-secret' }),
      ],
      'spectate',
    );

  it('a friend spectates: the secret answered, ACTIVITY_SPECTATE to their game and clients only', async () => {
    const hosting = await host(0);
    const friend = await gw.guild.join('friend');
    await befriend(friend.userId, hosting.userId);
    const sdk = (await gw.identify({ token: await accessToken(friend.userId) })).client;
    const otherGame = (await gw.identify({ token: await accessToken(friend.userId, games.other) }))
      .client;
    const person = (await gw.identify({ token: friend.token, intents: 0 })).client;
    // The friend sees that the activity can be spectated, never its secret.
    const seen = await person.dispatch('READY');
    const presences = (seen.d as { presences: { activities: Record<string, unknown>[] }[] })
      .presences;
    const shown = presences.flatMap((p) => p.activities);
    expect(shown.find((a) => (a['party'] as { id: string }).id === 'party-1')).toMatchObject({
      flags: SPECTATE_FLAG,
    });
    expect(JSON.stringify(shown)).not.toContain('secret');

    const res = await spectate(friend.token, 'party-1', { user_id: hosting.userId });
    const expected = {
      secret: 'the-spectate-secret',
      application_id: games.game.applicationId,
      party_id: 'party-1',
      user_id: hosting.userId,
    };
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(expected);
    for (const client of [sdk, person]) {
      expect((await client.dispatch('ACTIVITY_SPECTATE')).d).toEqual(expected);
    }
    gw.events.dispatch({
      type: 'USER_UPDATE',
      guildId: null,
      userIds: [friend.userId],
      data: { id: friend.userId },
    });
    await otherGame.dispatch('USER_UPDATE');
    expect(otherGame.frames.some((f) => f.t === 'ACTIVITY_SPECTATE')).toBe(false);
  });

  it('refuses a missing party or spectate secret (50039), a stranger or a block (50001), a bot', async () => {
    const hosting = await host(0);
    const friend = await gw.guild.join('friend');
    await befriend(friend.userId, hosting.userId);
    const token = `Bearer ${await accessToken(friend.userId)}`;
    const body = { user_id: hosting.userId };
    for (const partyId of ['party-9', 'party-2']) {
      const missing = await spectate(token, partyId, body);
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({ code: 50039 });
    }
    const elsewhere = await spectate(
      `Bearer ${await accessToken(friend.userId, games.other)}`,
      'party-1',
      body,
    );
    expect(elsewhere.json()).toMatchObject({ code: 50039 });
    const self = await spectate(`Bearer ${await accessToken(hosting.userId)}`, 'party-1', body);
    expect(self.json()).toMatchObject({ code: 50039 });

    const stranger = await gw.guild.join('stranger');
    const closed = await spectate(`Bearer ${await accessToken(stranger.userId)}`, 'party-1', body);
    expect(closed.statusCode).toBe(403);
    expect(closed.json()).toMatchObject({ code: 50001 });
    expect(closed.body).not.toContain('the-spectate-secret');

    // The host blocks the friend: no longer theirs to watch.
    await gw.server.app.storage.relationships.put({
      applicationId: null,
      type: 2,
      nickname: null,
      isSpamRequest: false,
      userId: hosting.userId,
      targetId: friend.userId,
      since: gw.clock.now(),
    });
    const blocked = await spectate(token, 'party-1', body);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toMatchObject({ code: 50001 });

    const bad = await spectate(token, 'party-1', { user_id: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 50035 });
    const bot = await spectate(`Bot ${gw.guild.bot.token}`, 'party-1', body);
    expect(bot.statusCode).toBeGreaterThanOrEqual(401);
  });

  it('a public party may be spectated by anyone not blocked; the secret needs activities.read', async () => {
    const hosting = await host(1);
    const stranger = await gw.guild.join('stranger');
    const body = { user_id: hosting.userId };
    const writeOnly = await accessToken(stranger.userId, games.game, [
      'identify',
      'activities.write',
    ]);
    const refused = await spectate(`Bearer ${writeOnly}`, 'party-1', body);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 50026 });
    expect(refused.body).not.toContain('the-spectate-secret');
    const watched = await spectate(stranger.token, 'party-1', body);
    expect(watched.statusCode).toBe(200);
    expect(watched.json()).toMatchObject({ secret: 'the-spectate-secret' });

    await gw.server.app.storage.relationships.put({
      applicationId: null,
      type: 2,
      nickname: null,
      isSpamRequest: false,
      userId: stranger.userId,
      targetId: hosting.userId,
      since: gw.clock.now(),
    });
    const blocking = await spectate(stranger.token, 'party-1', body);
    expect(blocking.statusCode).toBe(403);
    expect(blocking.json()).toMatchObject({ code: 50001 });
  });
});
