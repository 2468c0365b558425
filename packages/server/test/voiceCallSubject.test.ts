/**
 * The voice node of a lobby call watches the call's own subject (`voice.call.<lobby id>`), not
 * its members' user subjects (docs/gateway.md#subjects): each voice state reaches it once
 * whatever the number of members in the call, and a member's unrelated user dispatches (a lobby
 * message, a DM) never reach it. It still acts on the call's voice states: a member who leaves
 * the call on the main gateway is disconnected. The bus subscriptions made while the members
 * identify on the voice node are the node's own (their sessions' subjects were watched before).
 * Through real WebSockets on both storage drivers.
 *
 * @module
 */
import { VoiceCloseCodes as Close, VoiceOpcodes as VOp } from '@guildhall/protocol';
import { afterEach, expect, it } from 'vitest';
import type { EventBus } from '../src/bus/index.js';
import { describeDrivers } from './support/drivers.js';
import type { Frame } from './support/gatewayClient.js';
import { useGatewayFixture } from './support/gatewayFixture.js';
import { sdkPlayer, type SdkPlayer } from './support/sdkPlayer.js';
import { apiRequest } from './support/inject.js';
import { uniqueName } from './support/fileServer.js';
import { connectVoice, type VoiceClient } from './support/voiceClient.js';
import { seedDeveloper } from './support/testServer.js';

type Player = SdkPlayer;

/** What the subscriptions made from now on receive: their subjects and the events' types. */
function spySubscriptions(bus: EventBus) {
  const subscribed: string[] = [];
  const received: { subject: string; type: string; data: unknown }[] = [];
  const original = bus.subscribe.bind(bus);
  bus.subscribe = (subject, handler, options) => {
    subscribed.push(subject);
    return original(
      subject,
      (event, delivered) => {
        received.push({ subject: delivered, type: event.type, data: event.data });
        return handler(event, delivered);
      },
      options,
    );
  };
  return {
    subscribed,
    received,
    restore: () => {
      bus.subscribe = original;
    },
  };
}

describeDrivers('the voice node of a lobby call ($driver)', (driver) => {
  const gw = useGatewayFixture({ driver });
  const voices: VoiceClient[] = [];
  afterEach(() => {
    for (const voice of voices.splice(0)) voice.raw.terminate();
  });

  const player = (game: Awaited<ReturnType<typeof seedDeveloper>>, name: string) =>
    sdkPlayer(gw, name, game.applicationId);

  const op4 = (p: Player, channelId: string | null, selfMute = false) => {
    p.client.send(4, {
      guild_id: null,
      channel_id: channelId,
      self_mute: selfMute,
      self_deaf: false,
    });
  };

  /** Joins the lobby call on the main gateway, then identifies on the voice node. */
  async function joinVoice(p: Player, lobbyId: string) {
    const seen = gw.lastSeq(p.client);
    op4(p, lobbyId);
    const server = (
      await p.client.next((f: Frame) => f.t === 'VOICE_SERVER_UPDATE' && (f.s ?? 0) > seen)
    ).d as { token: string; endpoint: string };
    const voice = await connectVoice(server.endpoint);
    voices.push(voice);
    voice.send(VOp.IDENTIFY, {
      server_id: lobbyId,
      user_id: p.id,
      session_id: p.sessionId,
      token: server.token,
      max_dave_protocol_version: 1,
    });
    await voice.op(VOp.READY);
    return voice;
  }

  it('receives each voice state of the call once, and none of its members’ other dispatches', async () => {
    const game = await seedDeveloper(gw.server.app, uniqueName('game'));
    const ann = await player(game, 'ann');
    const bob = await player(game, 'bob');
    const created = await apiRequest(gw.server.app, 'POST /lobbies', {
      auth: `Bot ${game.botToken}`,
      payload: { members: [{ id: ann.id }, { id: bob.id }] },
    });
    expect(created.statusCode).toBe(201);
    const lobbyId = created.json<{ id: string }>().id;

    const spy = spySubscriptions(gw.server.app.bus);
    try {
      const annVoice = await joinVoice(ann, lobbyId);
      await joinVoice(bob, lobbyId);
      // The node's own subscriptions: the call's subject, no user's.
      expect(spy.subscribed).toEqual([`voice.call.${lobbyId}`]);

      // A lobby message to both members, then Ann mutes: a voice state to both.
      const sent = await apiRequest(gw.server.app, `POST /lobbies/${lobbyId}/messages`, {
        auth: bob.bearer,
        payload: { content: 'not for the voice node' },
      });
      expect(sent.statusCode).toBe(201);
      const seen = gw.lastSeq(ann.client);
      op4(ann, lobbyId, true);
      await ann.client.next(
        (f: Frame) =>
          f.t === 'VOICE_STATE_UPDATE' &&
          (f.s ?? 0) > seen &&
          (f.d as { self_mute?: boolean }).self_mute === true,
      );
      await bob.client.next((f: Frame) => f.t === 'LOBBY_MESSAGE_CREATE');
      const types = spy.received.map((r) => r.type);
      expect(types).not.toContain('LOBBY_MESSAGE_CREATE');
      const muted = spy.received.filter(
        (r) =>
          r.type === 'VOICE_STATE_UPDATE' &&
          (r.data as { data: { self_mute: boolean } }).data.self_mute,
      );
      expect(muted.map((r) => r.subject)).toEqual([`voice.call.${lobbyId}`]);

      // Ann leaves the call on the main gateway: the node disconnects her.
      op4(ann, null);
      expect((await annVoice.closed).code).toBe(Close.DISCONNECTED);
    } finally {
      spy.restore();
    }
  });
});
