/**
 * Lobby calls on the gateway (docs/lobbies.md#voice-calls): op 4 with `guild_id: null` and the
 * lobby id as `channel_id`, from a member's SDK session of the lobby's application. The members
 * get VOICE_STATE_UPDATE; the joiner one per participant already in the call, then its own,
 * then VOICE_SERVER_UPDATE. Leaving the call, the lobby, its deletion and the end of the session
 * end the state. Through a real WebSocket on both storage drivers.
 *
 * @module
 */
import { GatewayIntentBits as I } from '@guildhall/protocol';
import { beforeEach, expect, it } from 'vitest';
import { loadKeyring } from '../src/secrets.js';
import { createVoiceTokens } from '../src/voice/token.js';
import { currentVoiceState } from '../src/voice/voiceStates.js';
import { describeDrivers } from './support/drivers.js';
import type { Frame, GatewayClient } from './support/gatewayClient.js';
import { useGatewayFixture } from './support/gatewayFixture.js';
import { sdkPlayer, type SdkPlayer } from './support/sdkPlayer.js';
import { seedDeveloper } from './support/testServer.js';
import { uniqueName } from './support/fileServer.js';
import { apiRequest } from './support/inject.js';

type Seed = Awaited<ReturnType<typeof seedDeveloper>>;

type Player = SdkPlayer;

describeDrivers('lobby calls on the gateway ($driver)', (driver) => {
  const gw = useGatewayFixture({ driver });
  let game: Seed;
  let other: Seed;
  beforeEach(async () => {
    game = await seedDeveloper(gw.server.app, uniqueName('game'));
    other = await seedDeveloper(gw.server.app, uniqueName('other'));
  });

  const after = (client: GatewayClient, match: (f: Frame) => boolean, seq: number) =>
    client.next((f: Frame) => match(f) && (f.s ?? 0) > seq);
  const voiceOf = (userId: string, channelId: string | null) => (f: Frame) =>
    f.t === 'VOICE_STATE_UPDATE' &&
    (f.d as { user_id: string }).user_id === userId &&
    (f.d as { channel_id: string | null }).channel_id === channelId;
  const isServer = (f: Frame) => f.t === 'VOICE_SERVER_UPDATE';

  /** A person with an SDK session of `app` (identified, READY received). */
  const player = (name: string, app: Seed = game): Promise<Player> =>
    sdkPlayer(gw, name, app.applicationId);

  async function api(request: {
    method: 'POST' | 'DELETE';
    url: string;
    auth: string;
    payload?: object;
  }) {
    return apiRequest(gw.server.app, `${request.method} ${request.url}`, request);
  }

  async function lobbyOf(members: readonly Player[], app: Seed = game): Promise<string> {
    const res = await api({
      method: 'POST',
      url: '/lobbies',
      auth: `Bot ${app.botToken}`,
      payload: { members: members.map((m) => ({ id: m.id })) },
    });
    expect(res.statusCode).toBe(201);
    return res.json<{ id: string }>().id;
  }

  const op4 = (p: Player, channelId: string | null, selfMute = false) => {
    p.client.send(4, {
      guild_id: null,
      channel_id: channelId,
      self_mute: selfMute,
      self_deaf: false,
    });
  };
  const tokens = () => createVoiceTokens(loadKeyring(gw.server.app.config).keyring);

  it('joins a lobby call: states to the members, participants and a voice server to the joiner', async () => {
    const ann = await player('ann');
    const bob = await player('bob');
    const lobbyId = await lobbyOf([ann, bob]);
    const annWeb = await gw.identify({ token: ann.personToken, intents: 1 });
    let annSeen = gw.lastSeq(ann.client);
    let bobSeen = gw.lastSeq(bob.client);

    op4(ann, lobbyId);
    const annState = await after(ann.client, voiceOf(ann.id, lobbyId), annSeen);
    expect(annState.d).toEqual({
      guild_id: null,
      channel_id: lobbyId,
      user_id: ann.id,
      session_id: ann.sessionId,
      deaf: false,
      mute: false,
      self_deaf: false,
      self_mute: false,
      self_video: false,
      self_stream: false,
      suppress: false,
      request_to_speak_timestamp: null,
    });
    const annServer = await after(ann.client, isServer, annSeen);
    expect(annServer.s ?? 0).toBeGreaterThan(annState.s ?? 0);
    const d = annServer.d as Record<string, string | null>;
    expect(Object.keys(d).sort()).toEqual(['channel_id', 'endpoint', 'guild_id', 'token']);
    expect(d).toMatchObject({
      guild_id: null,
      channel_id: lobbyId,
      endpoint: gw.server.app.voice?.endpoint(),
    });
    expect(tokens().verify(d['token'] ?? '', gw.clock.now())).toEqual({
      userId: ann.id,
      sessionId: ann.sessionId,
      serverId: lobbyId,
      guildId: null,
      channelId: lobbyId,
      expiresAtMs: gw.clock.now() + 10 * 60_000,
    });
    expect((await after(bob.client, voiceOf(ann.id, lobbyId), bobSeen)).d).toMatchObject({
      session_id: ann.sessionId,
    });
    // The call is the game's: the people's own clients (a web session) do not get its states.
    expect(annWeb.client.frames.some((f) => f.t === 'VOICE_STATE_UPDATE')).toBe(false);
    const q = { guildId: null, channelId: lobbyId, userId: ann.id };
    expect(await currentVoiceState(gw.server.app.storage, q)).toEqual({
      channelId: lobbyId,
      sessionId: ann.sessionId,
      selfMute: false,
      selfDeaf: false,
      muted: false,
      deafened: false,
    });

    // Bob joins: first who is there (ann), then himself, then his voice server.
    bobSeen = gw.lastSeq(bob.client);
    annSeen = gw.lastSeq(ann.client);
    op4(bob, lobbyId);
    const bobServer = await after(bob.client, isServer, bobSeen);
    const seenByBob = bob.client.frames.filter(
      (f) => (f.s ?? 0) > bobSeen && (f.s ?? 0) <= (bobServer.s ?? 0),
    );
    expect(seenByBob.map((f) => [f.t, (f.d as { user_id?: string }).user_id])).toEqual([
      ['VOICE_STATE_UPDATE', ann.id],
      ['VOICE_STATE_UPDATE', bob.id],
      ['VOICE_SERVER_UPDATE', undefined],
    ]);
    await after(ann.client, voiceOf(bob.id, lobbyId), annSeen);

    // Muting in place: a state, no voice server; leaving: channel_id null to the others.
    bobSeen = gw.lastSeq(bob.client);
    op4(bob, lobbyId, true);
    const muted = await after(bob.client, voiceOf(bob.id, lobbyId), bobSeen);
    expect(muted.d).toMatchObject({ self_mute: true });
    annSeen = gw.lastSeq(ann.client);
    op4(bob, null);
    await after(ann.client, voiceOf(bob.id, null), annSeen);
    const left = await after(bob.client, voiceOf(bob.id, null), muted.s ?? 0);
    expect(
      bob.client.frames.filter((f) => (f.s ?? 0) > bobSeen && (f.s ?? 0) <= (left.s ?? 0)),
    ).not.toContainEqual(expect.objectContaining({ t: 'VOICE_SERVER_UPDATE' }));
    expect(await currentVoiceState(gw.server.app.storage, { ...q, userId: bob.id })).toBeNull();
  });

  it('refuses op 4 for a lobby from a non-member, another game, or a session that is not an SDK one', async () => {
    const ann = await player('ann');
    const cat = await player('cat');
    const lobbyId = await lobbyOf([ann]);
    op4(cat, lobbyId);
    expect((await cat.client.closed).code).toBe(4001);

    const stranger = await player('dan', other);
    const theirs = await lobbyOf([stranger], other);
    op4(ann, theirs);
    expect((await ann.client.closed).code).toBe(4001);

    const { client } = await gw.identify({ token: gw.guild.bot.token, intents: I.GUILDS });
    client.send(4, { guild_id: null, channel_id: lobbyId, self_mute: false, self_deaf: false });
    expect((await client.closed).code).toBe(4001);
    expect(await gw.server.app.storage.lobbies.listVoiceStates(lobbyId)).toEqual([]);
  });

  it('keeps one call per user per game: joining another lobby leaves the first', async () => {
    const ann = await player('ann');
    const bob = await player('bob');
    const first = await lobbyOf([ann, bob]);
    const second = await lobbyOf([ann]);
    op4(ann, first);
    await after(ann.client, isServer, 0);
    const bobSeen = gw.lastSeq(bob.client);
    const annSeen = gw.lastSeq(ann.client);
    op4(ann, second);
    await after(bob.client, voiceOf(ann.id, null), bobSeen);
    const server = await after(ann.client, isServer, annSeen);
    expect((server.d as { channel_id: string }).channel_id).toBe(second);
    const storage = gw.server.app.storage;
    expect(await storage.lobbies.findVoiceStateOfUser(ann.id, game.applicationId)).toMatchObject({
      lobbyId: second,
    });
  });

  it('ends the call when the member leaves the lobby, the lobby is deleted, or the session ends', async () => {
    const ann = await player('ann');
    const bob = await player('bob');
    const cat = await player('cat');
    const lobbyId = await lobbyOf([ann, bob, cat]);
    for (const p of [ann, bob, cat]) {
      op4(p, lobbyId);
      await after(p.client, isServer, 0);
    }
    const storage = gw.server.app.storage;

    // Ann leaves the lobby: her call ends first, then LOBBY_MEMBER_REMOVE.
    let seen = gw.lastSeq(bob.client);
    expect(
      (await api({ method: 'DELETE', url: `/lobbies/${lobbyId}/members/@me`, auth: ann.bearer }))
        .statusCode,
    ).toBe(204);
    const annLeft = await after(bob.client, voiceOf(ann.id, null), seen);
    const removed = await after(bob.client, (f) => f.t === 'LOBBY_MEMBER_REMOVE', seen);
    expect(annLeft.s ?? 0).toBeLessThan(removed.s ?? 0);
    expect(await storage.lobbies.findVoiceState(lobbyId, ann.id)).toBeNull();

    // Cat's session ends (a normal close): the others see her leave.
    seen = gw.lastSeq(bob.client);
    await cat.client.close(1000);
    await after(bob.client, voiceOf(cat.id, null), seen);
    expect(
      await currentVoiceState(storage, { guildId: null, channelId: lobbyId, userId: cat.id }),
    ).toBeNull();

    // The lobby is deleted: bob's call ends, then LOBBY_DELETE.
    seen = gw.lastSeq(bob.client);
    expect(
      (await api({ method: 'DELETE', url: `/lobbies/${lobbyId}`, auth: `Bot ${game.botToken}` }))
        .statusCode,
    ).toBe(204);
    const bobLeft = await after(bob.client, voiceOf(bob.id, null), seen);
    const deleted = await after(bob.client, (f) => f.t === 'LOBBY_DELETE', seen);
    expect(bobLeft.s ?? 0).toBeLessThan(deleted.s ?? 0);
    expect(await storage.lobbies.listVoiceStates(lobbyId)).toEqual([]);
  });
});
