import { expect, it, vi } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useLobbyFixture } from '../../../test/support/lobbyFixture.js';
import { LOBBY_LIMITS } from './schemas.js';
import { SECOND_MS } from '../../domain/time.js';
import { apiRequest } from '../../../test/support/inject.js';

interface LobbyBody {
  id: string;
  linked_channel?: { id: string; guild_id: string };
}

describeDrivers('lobby channel links and invites on $driver', (driver) => {
  const fx = useLobbyFixture(driver);
  const { call } = fx;

  /** Ann's guild and its first text channel. */
  const annsGuild = async () => {
    const inject = (method: 'GET' | 'POST', url: string, payload?: object) =>
      apiRequest(fx.app, `${method} ${url}`, { auth: fx.players.ann.session, payload });
    const guild = (await inject('POST', '/guilds', { name: 'Raid night' })).json<{ id: string }>();
    const channels = (await inject('GET', `/guilds/${guild.id}/channels`)).json<
      { id: string; type: number }[]
    >();
    const text = channels.find((c) => c.type === 0);
    const voice = channels.find((c) => c.type === 2);
    if (text === undefined || voice === undefined) throw new Error('no default channels');
    return { guildId: guild.id, channelId: text.id, voiceId: voice.id, inject };
  };
  const lobbyWith = async (members: object[]) => {
    const res = await call('POST /lobbies', fx.bot(), { members });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>().id;
  };
  const link = (lobbyId: string, auth: string, payload: object | undefined) =>
    call(`PATCH /lobbies/${lobbyId}/channel-linking`, auth, payload);
  const members = async (guildId: string) =>
    (await fx.app.storage.members.listByGuild(guildId, { limit: 100 })).map((m) => m.userId);

  it('links a guild text channel for a member with CanLinkLobby and MANAGE_CHANNELS, and unlinks', async () => {
    const { ann, bob } = fx.players;
    const { guildId, channelId } = await annsGuild();
    const lobbyId = await lobbyWith([{ id: ann.id, flags: 1 }, { id: bob.id }]);
    const res = await link(lobbyId, ann.bearer, { channel_id: channelId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<LobbyBody>().linked_channel).toMatchObject({
      id: channelId,
      guild_id: guildId,
    });
    const update = await fx.dispatches.next('LOBBY_UPDATE');
    expect(update.data).toMatchObject({ linked_channel: { id: channelId } });
    expect(
      (await call(`GET /lobbies/${lobbyId}`, fx.bot())).json<LobbyBody>().linked_channel?.id,
    ).toBe(channelId);
    const unlinked = await link(lobbyId, ann.bearer, {});
    expect(unlinked.statusCode).toBe(200);
    expect(unlinked.json()).not.toHaveProperty('linked_channel');
  });

  it('refuses members without the flag, non-members, channels without permission or of the wrong type', async () => {
    const { ann, bob, cat } = fx.players;
    const { channelId, voiceId } = await annsGuild();
    const lobbyId = await lobbyWith([
      { id: ann.id, flags: 1 },
      { id: bob.id, flags: 1 },
      { id: cat.id },
    ]);
    expect((await link(lobbyId, cat.bearer, { channel_id: channelId })).json()).toMatchObject({
      code: 50013,
    });
    expect((await link(lobbyId, fx.players.cat.bearer, {})).json()).toMatchObject({ code: 50013 });
    const outsider = await fx.bearerFor(fx.dev.userId, fx.dev.applicationId);
    expect((await link(lobbyId, outsider, { channel_id: channelId })).json()).toMatchObject({
      code: 50001,
    });
    // Bob can link, but is not in Ann's guild.
    const notInGuild = await link(lobbyId, bob.bearer, { channel_id: channelId });
    expect(notInGuild.statusCode).toBeGreaterThanOrEqual(403);
    expect((await link(lobbyId, ann.bearer, { channel_id: voiceId })).json()).toMatchObject({
      code: 50024,
    });
    expect((await link(lobbyId, ann.bearer, { channel_id: '4242' })).json()).toMatchObject({
      code: 10003,
    });
    expect((await link(lobbyId, ann.bearer, { channel_id: 'x' })).json()).toMatchObject({
      code: 50035,
    });
    expect((await call(`GET /lobbies/${lobbyId}`, fx.bot())).json()).not.toHaveProperty(
      'linked_channel',
    );
  });

  it('refuses a channel another lobby links with 50035, changing nothing, until it is unlinked', async () => {
    const { ann } = fx.players;
    const { channelId } = await annsGuild();
    const first = await lobbyWith([{ id: ann.id, flags: 1 }]);
    const second = await lobbyWith([{ id: ann.id, flags: 1 }]);
    expect((await link(first, ann.bearer, { channel_id: channelId })).statusCode).toBe(200);
    await fx.dispatches.next('LOBBY_UPDATE');
    const seenBefore = fx.dispatches.events.length;
    const linkedTo = async (lobbyId: string, auth = fx.bot()) =>
      (await call(`GET /lobbies/${lobbyId}`, auth)).json<LobbyBody>().linked_channel?.id;
    const alreadyLinked = {
      code: 50035,
      errors: { channel_id: { _errors: [{ code: 'CHANNEL_ALREADY_LINKED' }] } },
    };

    const taken = await link(second, ann.bearer, { channel_id: channelId });
    expect(taken.statusCode, taken.body).toBe(400);
    expect(taken.json()).toMatchObject(alreadyLinked);
    // Another application's lobby may not take it either.
    const created = await call('POST /lobbies', fx.otherBot(), {
      members: [{ id: ann.id, flags: 1 }],
    });
    const theirs = created.json<{ id: string }>().id;
    const annThere = await fx.bearerFor(ann.id, fx.other.applicationId);
    const foreign = await link(theirs, annThere, { channel_id: channelId });
    expect(foreign.statusCode, foreign.body).toBe(400);
    expect(foreign.json()).toMatchObject(alreadyLinked);
    expect(await linkedTo(first)).toBe(channelId);
    expect(await linkedTo(second)).toBeUndefined();
    expect(await linkedTo(theirs, fx.otherBot())).toBeUndefined();
    // The lobby that holds it may name it again (nothing changes).
    expect((await link(first, ann.bearer, { channel_id: channelId })).statusCode).toBe(200);

    // Unlinked, the channel is free: the refusals above announced nothing (the bus keeps order).
    expect((await link(first, ann.bearer, {})).statusCode).toBe(200);
    const moved = await link(second, ann.bearer, { channel_id: channelId });
    expect(moved.statusCode, moved.body).toBe(200);
    await vi.waitFor(() => {
      const updates = fx.dispatches.events
        .slice(seenBefore)
        .filter((d) => d.type === 'LOBBY_UPDATE');
      expect(updates.map((d) => (d.data as { id: string }).id)).toEqual([first, second]);
    });
    expect(await linkedTo(second)).toBe(channelId);
  });

  it('gives single-use one-hour invites into the linked channel that join its guild', async () => {
    const { ann, bob, cat } = fx.players;
    const { guildId, channelId } = await annsGuild();
    const lobbyId = await lobbyWith([{ id: ann.id, flags: 1 }, { id: bob.id }, { id: cat.id }]);
    const noLink = await call(`POST /lobbies/${lobbyId}/members/@me/invites`, bob.bearer);
    expect(noLink.json()).toMatchObject({ code: 10003 });
    await link(lobbyId, ann.bearer, { channel_id: channelId });

    const self = await call(`POST /lobbies/${lobbyId}/members/@me/invites`, bob.bearer);
    expect(self.statusCode, self.body).toBe(200);
    const { code } = self.json<{ code: string }>();
    const announced = await fx.dispatches.next('INVITE_CREATE');
    expect(announced.data).toMatchObject({ code, channel_id: channelId, max_uses: 1 });
    const invite = await fx.app.storage.invites.find(code);
    expect(invite).toMatchObject({
      channelId,
      maxUses: 1,
      maxAge: LOBBY_LIMITS.inviteMaxAgeSeconds,
    });
    // Only Bob may use it.
    const accept = (session: string, c: string) =>
      apiRequest(fx.app, `POST /invites/${c}`, { auth: session });
    expect((await accept(cat.session, code)).json()).toMatchObject({ code: 50001 });
    expect((await accept(bob.session, code)).statusCode).toBe(200);
    expect(await members(guildId)).toContain(bob.id);

    const forCat = await call(`POST /lobbies/${lobbyId}/members/${cat.id}/invites`, fx.bot());
    expect(forCat.statusCode, forCat.body).toBe(200);
    const catCode = forCat.json<{ code: string }>().code;
    fx.clock.advance(LOBBY_LIMITS.inviteMaxAgeSeconds * SECOND_MS);
    expect((await accept(cat.session, catCode)).json()).toMatchObject({ code: 10006 });
    expect(await members(guildId)).not.toContain(cat.id);

    const notMember = await call(
      `POST /lobbies/${lobbyId}/members/${fx.dev.userId}/invites`,
      fx.bot(),
    );
    expect(notMember.json()).toMatchObject({ code: 10007 });
    const outsider = await fx.bearerFor(fx.dev.userId, fx.dev.applicationId);
    expect(
      (await call(`POST /lobbies/${lobbyId}/members/@me/invites`, outsider)).json(),
    ).toMatchObject({
      code: 50001,
    });
    expect(
      (await call(`POST /lobbies/${lobbyId}/members/${cat.id}/invites`, fx.otherBot())).json(),
    ).toMatchObject({ code: 10031 });
  });

  it('gives a provisional account no invite into the linked guild (50229)', async () => {
    const { ann } = fx.players;
    const { channelId } = await annsGuild();
    const minted = await fx.app.http.inject({
      method: 'POST',
      url: '/api/v10/partner-sdk/token/bot',
      headers: { authorization: fx.bot() },
      payload: { external_user_id: 'guest-1' },
    });
    expect(minted.statusCode, minted.body).toBe(200);
    const guest = `Bearer ${minted.json<{ access_token: string }>().access_token}`;
    const lobbyId = await lobbyWith([{ id: ann.id, flags: 1 }]);
    await link(lobbyId, ann.bearer, { channel_id: channelId });
    const guestId = (
      await fx.app.http.inject({
        method: 'GET',
        url: '/api/v10/users/@me',
        headers: { authorization: guest },
      })
    ).json<{ id: string }>().id;
    await call(`PUT /lobbies/${lobbyId}/members/${guestId}`, fx.bot(), {});
    const self = await call(`POST /lobbies/${lobbyId}/members/@me/invites`, guest);
    expect(self.statusCode).toBe(400);
    expect(self.json()).toMatchObject({ code: 50229 });
    const forGuest = await call(`POST /lobbies/${lobbyId}/members/${guestId}/invites`, fx.bot());
    expect(forGuest.json()).toMatchObject({ code: 50229 });
    // A full account still gets one.
    expect(
      (await call(`POST /lobbies/${lobbyId}/members/@me/invites`, ann.bearer)).statusCode,
    ).toBe(200);
  });

  it('mirrors lobby messages into the linked channel as their author, and never fails a send for it', async () => {
    const { ann, bob } = fx.players;
    const { channelId, inject } = await annsGuild();
    const lobbyId = await lobbyWith([{ id: ann.id, flags: 1 }, { id: bob.id }]);
    await link(lobbyId, ann.bearer, { channel_id: channelId });
    const sent = await call(`POST /lobbies/${lobbyId}/messages`, ann.bearer, {
      content: 'hello @everyone',
    });
    expect(sent.statusCode).toBe(201);
    // Bob is not in the guild: his message stays in the lobby only.
    const bobs = await call(`POST /lobbies/${lobbyId}/messages`, bob.bearer, {
      content: 'from bob',
    });
    expect(bobs.statusCode).toBe(201);
    const channelMessages = (await inject('GET', `/channels/${channelId}/messages`)).json<
      { content: string; author: { id: string }; mention_everyone: boolean }[]
    >();
    expect(channelMessages.map((m) => [m.content, m.author.id])).toEqual([
      ['hello @everyone', ann.id],
    ]);
    expect(channelMessages[0]?.mention_everyone).toBe(false);
  });
});

describeDrivers('lobby pre-approval limits on $driver', (driver) => {
  const fx = useLobbyFixture(driver);
  const { call } = fx;

  it('counts channel linking per application (20 per 2 hours) until the app is approved', async () => {
    const { ann } = fx.players;
    const res = await call('POST /lobbies', fx.bot(), { members: [{ id: ann.id, flags: 1 }] });
    const { id } = res.json<{ id: string }>();
    const unlink = () => call(`PATCH /lobbies/${id}/channel-linking`, ann.bearer, {});
    for (let i = 0; i < 20; i++) expect((await unlink()).statusCode).toBe(200);
    const limited = await unlink();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['x-ratelimit-scope']).toBe('shared');
    await fx.app.storage.applications.update(fx.dev.applicationId, { socialApproved: true });
    expect((await unlink()).statusCode).toBe(200);
  });
});
