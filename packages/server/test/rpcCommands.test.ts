/**
 * The RPC commands and events beyond presence and login, through `discord-rpc` unchanged
 * against `guildhall rpc`: the voice commands on the daemon person's voice state and the SDK's
 * voice settings, SELECT_TEXT_CHANNEL, the voice events; activity join requests end to end
 * between an RPC game and a Social SDK game (ACTIVITY_JOIN_REQUEST, SEND_ACTIVITY_JOIN_INVITE,
 * CLOSE_ACTIVITY_REQUEST, SEND_ACTIVITY_JOIN_REQUEST, ACTIVITY_INVITE, ACTIVITY_JOIN);
 * ACTIVITY_SPECTATE after the person's spectate of a friend's game; the Connected Game's AUTHORIZE_REQUEST; and a token revoked after AUTHENTICATE closing the
 * connection with 4003.
 */
import { Client as XhayperClient } from '@xhayper/discord-rpc';
import DiscordRpc from 'discord-rpc';
import {
  ActivityActionTypes,
  AuthorizationTokenType,
  Client as SdkClient,
  ClientStatus,
  type ActivityInvite,
} from '@guildhall/social-sdk';
import { RpcCloseCodes, RpcErrorCodes } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { expandScopes } from '../src/oauth/index.js';
import { describeDrivers } from './support/drivers.js';
import { apiRequest } from './support/inject.js';
import { joinCallAt, speakerIn } from './support/voiceCalls.js';
import { rawIpc, useRpcWorld, withEnv, type Person, type RpcWorld } from './support/rpcFixture.js';

/** The library's methods its type declarations leave out (its source: discord-rpc/src/client.js). */
interface RpcMethods {
  connect(clientId: string): Promise<unknown>;
  subscribe(evt: string, args: Record<string, unknown>): Promise<unknown>;
  sendJoinInvite(userId: string): Promise<unknown>;
  closeJoinRequest(userId: string): Promise<unknown>;
}
type Rpc = Omit<InstanceType<typeof DiscordRpc.Client>, keyof RpcMethods> & RpcMethods;
interface RpcFailure {
  code: number;
  message: string;
}

async function accessToken(world: RpcWorld, person: Person, scopes: string[]): Promise<string> {
  const issued = await world.server.app.services.oauth.issueTokens({
    userId: person.userId,
    applicationId: world.dev.applicationId,
    scopes: expandScopes(scopes),
    refresh: false,
  });
  return issued.access_token;
}

/** The game on the player's machine: discord-rpc, logged in with an `rpc` token when asked. */
async function rpcGame(world: RpcWorld, scopes: string[] | null): Promise<Rpc> {
  const client = new DiscordRpc.Client({ transport: 'ipc' }) as unknown as Rpc;
  client.on('error', () => undefined);
  const clientId = world.dev.applicationId;
  await withEnv('XDG_RUNTIME_DIR', world.dir, async () => {
    if (scopes === null) await client.connect(clientId);
    else {
      const token = await accessToken(world, world.player, scopes);
      await client.login({ clientId, accessToken: token, scopes });
    }
  });
  return client;
}

function nextEvent<T>(client: Rpc, evt: string): Promise<T> {
  return new Promise((resolve) => {
    client.once(evt, (data: T) => {
      resolve(data);
    });
  });
}

async function failure(request: Promise<unknown>): Promise<RpcFailure> {
  try {
    await request;
  } catch (err) {
    return err as RpcFailure;
  }
  throw new Error('the command was answered');
}

/** The friend's game: the Social SDK's Node client with a token of the same application. */
async function sdkGame(world: RpcWorld): Promise<SdkClient> {
  const client = new SdkClient({ apiBase: world.server.app.apiUrl() });
  const token = await accessToken(world, world.friend, ['sdk.social_layer']);
  await client.updateToken(AuthorizationTokenType.Bearer, token);
  const ready = new Promise<void>((resolve) => {
    client.setStatusChangedCallback((status) => {
      if (status === ClientStatus.Ready) resolve();
    });
  });
  client.connect();
  await ready;
  return client;
}

describeDrivers('RPC commands and events with discord-rpc on $driver', (driver) => {
  const world = useRpcWorld(driver);

  const guildWithVoice = async () => {
    const created = await apiRequest(world.server.app, 'POST /guilds', {
      auth: world.player.token,
      payload: {
        name: 'Ada’s Hall',
        channels: [
          { id: 1, name: 'general', type: 0 },
          { id: 2, name: 'Lounge', type: 2 },
          { id: 3, name: 'Den', type: 2 },
        ],
      },
    });
    expect(created.statusCode).toBe(201);
    const guildId = created.json<{ id: string }>().id;
    const listed = await apiRequest(world.server.app, `GET /guilds/${guildId}/channels`, {
      auth: world.player.token,
    });
    const channels = listed.json<{ id: string; name: string }[]>();
    const named = (name: string) => channels.find((c) => c.name === name)?.id ?? '';
    return { guildId, text: named('general'), lounge: named('Lounge'), den: named('Den') };
  };

  /**
   * The voice tests use @xhayper/discord-rpc: discord-rpc's socket reader takes one frame per
   * read and drops the rest of a read, so it loses an event that arrives with an answer.
   */
  const xhayperGame = async (scopes: string[] | null) => {
    const client = new XhayperClient({ clientId: world.dev.applicationId });
    await withEnv('XDG_RUNTIME_DIR', world.dir, async () => {
      await client.connect();
      if (scopes !== null) {
        await client.login({
          accessToken: await accessToken(world, world.player, scopes),
          scopes: scopes as never,
        });
      }
    });
    const ask = async (cmd: string, args: Record<string, unknown> = {}, evt?: string) =>
      (await client.request(cmd as 'GET_GUILDS', args, evt as never)).data as unknown;
    const event = <T>(evt: string) =>
      new Promise<T>((resolve) => {
        client.once(
          evt as 'READY',
          ((data: T) => {
            resolve(data);
          }) as never,
        );
      });
    return { client, ask, event };
  };

  it('moves the person in voice, reads and writes the voice settings, with the events', async () => {
    const { guildId, text, lounge, den } = await guildWithVoice();
    const { client, ask, event } = await xhayperGame(['identify', 'rpc']);
    expect(await ask('GET_SELECTED_VOICE_CHANNEL')).toBeNull();

    await ask('SUBSCRIBE', {}, 'VOICE_CHANNEL_SELECT');
    await ask('SUBSCRIBE', { channel_id: lounge }, 'VOICE_STATE_CREATE');
    await ask('SUBSCRIBE', { channel_id: lounge }, 'VOICE_STATE_UPDATE');
    await ask('SUBSCRIBE', {}, 'VOICE_SETTINGS_UPDATE');
    const selected = event('VOICE_CHANNEL_SELECT');
    const created = event('VOICE_STATE_CREATE');
    const channel = (await ask('SELECT_VOICE_CHANNEL', { channel_id: lounge })) as Record<
      string,
      unknown
    >;
    expect(channel).toMatchObject({ id: lounge, guild_id: guildId, name: 'Lounge', type: 2 });
    expect(channel['voice_states']).toEqual([
      expect.objectContaining({
        user: expect.objectContaining({ id: world.player.userId }) as unknown,
      }),
    ]);
    expect(await selected).toEqual({ channel_id: lounge, guild_id: guildId });
    expect(await created).toMatchObject({
      user: { id: world.player.userId },
      voice_state: { self_mute: false, self_deaf: false },
    });
    expect(await ask('GET_SELECTED_VOICE_CHANNEL')).toMatchObject({ id: lounge });

    // The settings are the SDK's: volumes 0–100 in, 0–200 out; mute follows into voice.
    expect(await ask('GET_VOICE_SETTINGS')).toMatchObject({
      mute: false,
      deaf: false,
      input: { volume: 100, device_id: 'default', available_devices: [] },
      output: { volume: 100 },
      mode: { type: 'VOICE_ACTIVITY' },
    });
    const settingsEvent = event('VOICE_SETTINGS_UPDATE');
    const muted = event('VOICE_STATE_UPDATE');
    expect(
      await ask('SET_VOICE_SETTINGS', {
        mute: true,
        input: { volume: 40 },
        output: { volume: 150 },
        mode: { type: 'PUSH_TO_TALK', shortcut: [{ type: 0, code: 0, name: 'F' }] },
      }),
    ).toMatchObject({
      mute: true,
      input: { volume: 40 },
      output: { volume: 150 },
      mode: { type: 'PUSH_TO_TALK', shortcut: [{ name: 'F' }] },
    });
    expect(await settingsEvent).toMatchObject({ mute: true, input: { volume: 40 } });
    expect(await muted).toMatchObject({ voice_state: { self_mute: true } });
    expect(await failure(ask('SET_VOICE_SETTINGS', { output: { volume: 300 } }))).toMatchObject({
      code: RpcErrorCodes.INVALID_PAYLOAD,
    });
    expect(await failure(ask('SET_VOICE_SETTINGS', { echo_cancellation: true }))).toMatchObject({
      code: RpcErrorCodes.INVALID_PAYLOAD,
    });

    // Another channel needs force; a text channel is no voice channel.
    expect(await failure(ask('SELECT_VOICE_CHANNEL', { channel_id: den }))).toMatchObject({
      code: RpcErrorCodes.SELECT_VOICE_FORCE_REQUIRED,
    });
    expect(await failure(ask('SELECT_VOICE_CHANNEL', { channel_id: text }))).toMatchObject({
      code: RpcErrorCodes.INVALID_CHANNEL,
    });
    expect(await ask('SELECT_VOICE_CHANNEL', { channel_id: den, force: true })).toMatchObject({
      id: den,
    });
    expect(await ask('SELECT_TEXT_CHANNEL', { channel_id: text })).toMatchObject({
      id: text,
      type: 0,
    });
    expect(
      await failure(ask('SELECT_TEXT_CHANNEL', { channel_id: '123456789012345678' })),
    ).toMatchObject({ code: RpcErrorCodes.INVALID_CHANNEL });
    const left = event('VOICE_CHANNEL_SELECT');
    expect(await ask('SELECT_VOICE_CHANNEL', { channel_id: null })).toBeNull();
    expect(await left).toEqual({ channel_id: null, guild_id: null });
    expect(await ask('GET_SELECTED_VOICE_CHANNEL')).toBeNull();
    await client.destroy();
  });

  it('SPEAKING_START and STOP: who speaks in a voice channel, followed through the gateway', async () => {
    const { guildId, lounge } = await guildWithVoice();
    const { client, ask, event } = await xhayperGame(['identify', 'rpc']);
    await ask('SUBSCRIBE', { channel_id: lounge }, 'SPEAKING_START');
    await ask('SUBSCRIBE', { channel_id: lounge }, 'SPEAKING_STOP');
    // The person speaks in Lounge from their voice client (another gateway session of theirs).
    const phone = await joinCallAt(world.server.app.gatewayUrl(), world.player.token, {
      guildId,
      channelId: lounge,
    });
    const talker = await speakerIn(phone);
    const started = event('SPEAKING_START');
    talker.speak(1);
    expect(await started).toEqual({ channel_id: lounge, user_id: world.player.userId });
    const stopped = event('SPEAKING_STOP');
    talker.speak(0);
    expect(await stopped).toEqual({ channel_id: lounge, user_id: world.player.userId });
    talker.voice.raw.terminate();
    phone.client.raw.terminate();
    await client.destroy();
  });

  it('the voice commands and events need AUTHENTICATE with rpc; the game events do not', async () => {
    const { client, ask } = await xhayperGame(null);
    expect(await failure(ask('GET_VOICE_SETTINGS'))).toMatchObject({
      code: RpcErrorCodes.INVALID_PERMISSIONS,
    });
    expect(await failure(ask('SUBSCRIBE', {}, 'VOICE_SETTINGS_UPDATE'))).toMatchObject({
      code: RpcErrorCodes.INVALID_PERMISSIONS,
    });
    for (const evt of ['ACTIVITY_JOIN', 'ACTIVITY_SPECTATE', 'ACTIVITY_JOIN_REQUEST']) {
      expect(await ask('SUBSCRIBE', {}, evt)).toEqual({ evt });
    }
    expect(
      await failure(ask('CLOSE_ACTIVITY_REQUEST', { user_id: world.friend.userId })),
    ).toMatchObject({ code: RpcErrorCodes.INVALID_PAYLOAD });
    await client.destroy();
  });

  it('Connected Game: the person’s request to link reaches the game as AUTHORIZE_REQUEST', async () => {
    const { client, ask, event } = await xhayperGame(null);
    expect(await ask('SUBSCRIBE', {}, 'AUTHORIZE_REQUEST')).toEqual({ evt: 'AUTHORIZE_REQUEST' });
    const asked = event('AUTHORIZE_REQUEST');
    const sent = await apiRequest(
      world.server.app,
      `POST /users/@me/applications/${world.dev.applicationId}/authorize-request`,
      { auth: world.player.token, payload: {} },
    );
    expect(sent.statusCode).toBe(204);
    expect(await asked).toEqual({ application_id: world.dev.applicationId });
    // The game then runs AUTHORIZE as usual (rpcClients.test.ts).
    await client.destroy();
  });

  it('join requests: the SDK game asks, the RPC game invites or declines, the SDK game joins', async () => {
    const host = await rpcGame(world, null);
    await host.subscribe('ACTIVITY_JOIN_REQUEST', {});
    // The library maps joinSecret to secrets.join (its types leave it out).
    const withParty: Record<string, unknown> = {
      details: 'Lobby',
      partyId: 'party-ada',
      partySize: 1,
      partyMax: 4,
      joinSecret: 'ada-secret',
    };
    await host.setActivity(withParty);
    const guest = await sdkGame(world);
    const invites: ActivityInvite[] = [];
    guest.setActivityInviteCreatedCallback((invite) => invites.push(invite));
    // The guest's client sees the host's party once the presence arrives.
    await expect
      .poll(
        () =>
          guest.sendActivityJoinRequest(world.player.userId).then(
            () => true,
            () => false,
          ),
        { timeout: 10_000 },
      )
      .toBe(true);
    const request = await nextEvent<{ user: { id: string } }>(host, 'ACTIVITY_JOIN_REQUEST');
    expect(request.user.id).toBe(world.friend.userId);
    await host.sendJoinInvite(world.friend.userId);
    await expect.poll(() => invites.length, { timeout: 10_000 }).toBe(1);
    const [invite] = invites;
    if (invite === undefined) throw new Error('no invite');
    expect(invite.type()).toBe(ActivityActionTypes.Join);
    expect(invite.senderId()).toBe(world.player.userId);
    expect(await guest.acceptActivityInvite(invite)).toBe('ada-secret');
    // Answered once: a second answer has no request to answer.
    expect(await failure(host.sendJoinInvite(world.friend.userId))).toMatchObject({
      code: RpcErrorCodes.INVALID_PAYLOAD,
    });

    const again = nextEvent(host, 'ACTIVITY_JOIN_REQUEST');
    await guest.sendActivityJoinRequest(world.player.userId);
    await again;
    await host.closeJoinRequest(world.friend.userId);
    expect(await failure(host.closeJoinRequest(world.friend.userId))).toMatchObject({
      code: RpcErrorCodes.INVALID_PAYLOAD,
    });
    guest.disconnect();
    await host.destroy();
  });

  it('join requests the other way: the RPC game asks, the SDK game replies, the RPC game joins', async () => {
    const host = await sdkGame(world);
    const requests: ActivityInvite[] = [];
    host.setActivityInviteCreatedCallback((invite) => requests.push(invite));
    const { Activity, ActivityParty, ActivitySecrets, ActivityPartyPrivacy } =
      await import('@guildhall/social-sdk');
    const activity = new Activity();
    const party = new ActivityParty();
    party.setId('party-bob');
    party.setCurrentSize(1);
    party.setMaxSize(4);
    party.setPrivacy(ActivityPartyPrivacy.Private);
    activity.setParty(party);
    const secrets = new ActivitySecrets();
    secrets.setJoin('bob-secret');
    activity.setSecrets(secrets);
    await host.updateRichPresence(activity);

    const game = await rpcGame(world, null);
    await game.subscribe('ACTIVITY_INVITE', {});
    await game.subscribe('ACTIVITY_JOIN', {});
    await expect
      .poll(
        () =>
          // The library's sendJoinRequest names a command its constants lack (cmd undefined).
          game.request('SEND_ACTIVITY_JOIN_REQUEST', { user_id: world.friend.userId }).then(
            () => true,
            () => false,
          ),
        { timeout: 10_000 },
      )
      .toBe(true);
    await expect.poll(() => requests.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const [request] = requests;
    if (request === undefined) throw new Error('no join request');
    expect(request.type()).toBe(ActivityActionTypes.JoinRequest);
    expect(request.senderId()).toBe(world.player.userId);
    const invited = nextEvent<Record<string, unknown>>(game, 'ACTIVITY_INVITE');
    await host.sendActivityJoinRequestReply(request);
    const invite = await invited;
    expect(invite).toMatchObject({
      type: 1,
      user: { id: world.friend.userId },
      activity: { party: { id: 'party-bob' } },
    });
    // The person accepts in their client (the web client's Join): the game hears ACTIVITY_JOIN.
    const joined = nextEvent<{ secret: string }>(game, 'ACTIVITY_JOIN');
    const accepted = await apiRequest(
      world.server.app,
      'POST /users/@me/activities/party-bob/join',
      {
        auth: world.player.token,
        payload: {
          user_id: world.friend.userId,
          channel_id: invite['channel_id'],
          message_id: invite['message_id'],
        },
      },
    );
    expect(accepted.statusCode).toBe(200);
    expect(await joined).toEqual({ secret: 'bob-secret' });
    host.disconnect();
    await game.destroy();
  });

  it('spectate: the person chooses to watch a friend’s game, theirs hears ACTIVITY_SPECTATE', async () => {
    // The friend's own client publishes an activity of this game that can be spectated.
    world.watcher.send(3, {
      status: 'online',
      since: null,
      afk: false,
      activities: [
        {
          name: 'Tiny Tanks',
          type: 0,
          application_id: world.dev.applicationId,
          party: { id: 'party-bob' },
          secrets: { spectate: 'bob-spectate' },
        },
      ],
    });
    const game = await rpcGame(world, null);
    await game.subscribe('ACTIVITY_SPECTATE', {});
    const spectating = nextEvent<{ secret: string }>(game, 'ACTIVITY_SPECTATE');
    // The person's Spectate in the web client, once the friend's activity is stored.
    await expect
      .poll(
        async () =>
          (
            await apiRequest(world.server.app, 'POST /users/@me/activities/party-bob/spectate', {
              auth: world.player.token,
              payload: { user_id: world.friend.userId },
            })
          ).statusCode,
        { timeout: 10_000 },
      )
      .toBe(200);
    expect(await spectating).toEqual({ secret: 'bob-spectate' });
    await game.destroy();
  });

  it('notices a token revoked after AUTHENTICATE: the connection closes with 4003', async () => {
    const token = await accessToken(world, world.player, ['identify', 'rpc']);
    const ipc = await rawIpc(world.rpc.daemon.path);
    ipc.send(0, { v: 1, client_id: world.dev.applicationId });
    const answer = (nonce: string) =>
      ipc.next((f) => (f.data as { nonce?: string }).nonce === nonce);
    ipc.send(1, { cmd: 'AUTHENTICATE', args: { access_token: token }, nonce: 'a' });
    expect((await answer('a')).data).toMatchObject({ evt: null });
    const revoked = await fetch(`${world.server.baseUrl}/api/v10/oauth2/token/revoke`, {
      method: 'POST',
      body: new URLSearchParams({
        token,
        client_id: world.dev.applicationId,
        client_secret: world.dev.clientSecret,
      }),
    });
    expect(revoked.status).toBe(200);
    ipc.send(1, { cmd: 'GET_GUILDS', args: {}, nonce: 'g' });
    const closed = await ipc.next((f) => f.op === 2);
    expect(closed.data).toEqual({
      code: RpcCloseCodes.TOKEN_REVOKED,
      message: 'The access token was revoked.',
    });
    await ipc.ended;
  });
});
