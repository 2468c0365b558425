/**
 * DM and group-DM calls on the gateway (docs/voice.md#dm-and-group-dm-calls): op 4 with
 * `guild_id: null` and a private channel's id. The first recipient to join starts the call: its
 * system message (type 3 CALL), CALL_CREATE ringing the others, its voice state and
 * VOICE_SERVER_UPDATE `{token, guild_id: null, channel_id, endpoint}`. Joining takes a recipient
 * off the ringing list, stop-ringing declines, the last to leave ends it (CALL_DELETE, the
 * message's `ended_timestamp`). Only recipients join, no bot, never across a block in a DM.
 * Through a real WebSocket and the HTTP routes, on both storage drivers.
 *
 * @module
 */
import { GatewayIntentBits as I } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { RING_TIMEOUT_MS } from '../src/resources/calls/ringing.js';
import { loadKeyring } from '../src/secrets.js';
import { createVoiceTokens } from '../src/voice/token.js';
import { currentVoiceState } from '../src/voice/voiceStates.js';
import { expectApiError } from './support/dmFixture.js';
import { describeDrivers } from './support/drivers.js';
import type { Frame, GatewayClient } from './support/gatewayClient.js';
import { useGatewayFixture } from './support/gatewayFixture.js';
import { apiRequest } from './support/inject.js';

interface Caller {
  id: string;
  token: string;
  client: GatewayClient;
  sessionId: string;
}

describeDrivers('DM calls on the gateway ($driver)', (driver) => {
  const gw = useGatewayFixture({ driver });

  const after = (client: GatewayClient, match: (f: Frame) => boolean, seq: number) =>
    client.next((f: Frame) => match(f) && (f.s ?? 0) > seq);
  const voiceOf = (userId: string, channelId: string | null) => (f: Frame) =>
    f.t === 'VOICE_STATE_UPDATE' &&
    (f.d as { user_id: string }).user_id === userId &&
    (f.d as { channel_id: string | null }).channel_id === channelId;
  const isType = (t: string) => (f: Frame) => f.t === t;
  const api = (request: string, auth: string, payload?: object) =>
    apiRequest(gw.server.app, request, { auth, ...(payload ? { payload } : {}) });

  /** A person of the fixture's guild with a gateway session of their own client. */
  async function person(name: string): Promise<Caller> {
    const { userId: id, token } = await gw.guild.join(name);
    const { client, ready } = await gw.identify({ token, intents: I.DIRECT_MESSAGES });
    return { id, token, client, sessionId: ready.session_id };
  }

  async function dmOf(a: Caller, b: Caller): Promise<string> {
    const res = await api('POST /users/@me/channels', a.token, { recipient_id: b.id });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: string }>().id;
  }

  const op4 = (p: Caller, channelId: string | null, selfVideo = false) => {
    p.client.send(4, {
      guild_id: null,
      channel_id: channelId,
      self_mute: false,
      self_deaf: false,
      self_video: selfVideo,
    });
  };

  it('rings, joins, declines and ends a DM call with its message and voice server', async () => {
    const ann = await person('ann');
    const bob = await person('bob');
    const dm = await dmOf(ann, bob);
    const annSeen = gw.lastSeq(ann.client);
    let bobSeen = gw.lastSeq(bob.client);

    op4(ann, dm);
    const created = await after(bob.client, isType('CALL_CREATE'), bobSeen);
    const message = await after(bob.client, isType('MESSAGE_CREATE'), bobSeen);
    expect(message.d).toMatchObject({
      type: 3,
      channel_id: dm,
      author: { id: ann.id },
      content: '',
      call: { participants: [ann.id], ended_timestamp: null },
    });
    const messageId = (message.d as { id: string }).id;
    expect(created.d).toEqual({
      channel_id: dm,
      message_id: messageId,
      region: 'guildhall',
      ringing: [bob.id],
      voice_states: [expect.objectContaining({ user_id: ann.id, channel_id: dm })],
      embedded_activities: [],
    });
    const annState = await after(ann.client, voiceOf(ann.id, dm), annSeen);
    expect(annState.d).toEqual({
      guild_id: null,
      channel_id: dm,
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
    const server = await after(ann.client, isType('VOICE_SERVER_UPDATE'), annSeen);
    expect(server.s ?? 0).toBeGreaterThan(annState.s ?? 0);
    const d = server.d as Record<string, string | null>;
    expect(Object.keys(d).sort()).toEqual(['channel_id', 'endpoint', 'guild_id', 'token']);
    expect(d).toMatchObject({ guild_id: null, channel_id: dm });
    const tokens = createVoiceTokens(loadKeyring(gw.server.app.config).keyring);
    expect(tokens.verify(d['token'] ?? '', gw.clock.now())).toMatchObject({
      userId: ann.id,
      sessionId: ann.sessionId,
      serverId: dm,
      guildId: null,
      channelId: dm,
    });
    const q = { guildId: null, channelId: dm, userId: ann.id };
    expect(await currentVoiceState(gw.server.app.storage, q)).toMatchObject({
      channelId: dm,
      sessionId: ann.sessionId,
    });

    // Bob declines: ringing stops (CALL_UPDATE), and ann rings him again.
    bobSeen = gw.lastSeq(bob.client);
    expect((await api(`POST /channels/${dm}/call/stop-ringing`, bob.token, {})).statusCode).toBe(
      204,
    );
    const declined = await after(bob.client, isType('CALL_UPDATE'), bobSeen);
    expect(declined.d).toEqual({
      channel_id: dm,
      message_id: messageId,
      region: 'guildhall',
      ringing: [],
    });
    bobSeen = declined.s ?? 0;
    expect((await api(`POST /channels/${dm}/call/ring`, ann.token, {})).statusCode).toBe(204);
    const rung = await after(bob.client, isType('CALL_UPDATE'), bobSeen);
    expect(rung.d).toMatchObject({ ringing: [bob.id] });

    // Bob accepts: ann's state first, then his own, then his voice server; ringing ends.
    bobSeen = gw.lastSeq(bob.client);
    op4(bob, dm, true);
    const bobServer = await after(bob.client, isType('VOICE_SERVER_UPDATE'), bobSeen);
    const seen = bob.client.frames.filter(
      (f) => (f.s ?? 0) > bobSeen && (f.s ?? 0) <= (bobServer.s ?? 0),
    );
    expect(
      seen
        .filter((f) => f.t !== 'CALL_UPDATE')
        .map((f) => [f.t, (f.d as { user_id?: string }).user_id]),
    ).toEqual([
      ['VOICE_STATE_UPDATE', ann.id],
      ['VOICE_STATE_UPDATE', bob.id],
      ['VOICE_SERVER_UPDATE', undefined],
    ]);
    expect((await after(bob.client, isType('CALL_UPDATE'), bobSeen)).d).toMatchObject({
      ringing: [],
    });
    expect(seen.find(voiceOf(bob.id, dm))?.d).toMatchObject({ self_video: true });

    // Both leave: the call ends with its message's participants and end.
    const annLeft = gw.lastSeq(ann.client);
    op4(bob, null);
    await after(ann.client, voiceOf(bob.id, null), annLeft);
    op4(ann, null);
    const ended = await after(ann.client, isType('CALL_DELETE'), annLeft);
    expect(ended.d).toEqual({ channel_id: dm });
    const update = await after(ann.client, isType('MESSAGE_UPDATE'), annLeft);
    const updated = update.d as { id: string; type: number; call: Record<string, unknown> };
    expect([updated.id, updated.type, updated.call['participants']]).toEqual([
      messageId,
      3,
      [ann.id, bob.id],
    ]);
    expect(typeof updated.call['ended_timestamp']).toBe('string');
    const read = await api(`GET /channels/${dm}/messages/${messageId}`, bob.token);
    expect(read.json()).toMatchObject({ call: { participants: [ann.id, bob.id] } });
    expect(await gw.server.app.storage.calls.findCall(dm)).toBeNull();
  });

  it('rings a group DM; a session ending or a removal leaves it; the last leave ends it', async () => {
    const [ann, bob, cat, dan] = [
      await person('ann'),
      await person('bob'),
      await person('cat'),
      await person('dan'),
    ];
    for (const other of [bob, cat, dan]) {
      await api(`PUT /users/@me/relationships/${other.id}`, ann.token, {});
      await api(`PUT /users/@me/relationships/${ann.id}`, other.token, {});
    }
    const group = await api('POST /users/@me/channels', ann.token, {
      recipients: [bob.id, cat.id, dan.id],
    });
    expect(group.statusCode, group.body).toBe(200);
    const groupId = group.json<{ id: string }>().id;
    let danSeen = gw.lastSeq(dan.client);
    op4(ann, groupId);
    const created = await after(dan.client, isType('CALL_CREATE'), danSeen);
    expect((created.d as { ringing: string[] }).ringing.sort()).toEqual(
      [bob.id, cat.id, dan.id].sort(),
    );
    for (const joiner of [cat, bob]) {
      const seen = gw.lastSeq(joiner.client);
      op4(joiner, groupId);
      await after(joiner.client, isType('VOICE_SERVER_UPDATE'), seen);
    }
    // Cat's session ends: her state goes. Bob is removed from the group: his state goes.
    danSeen = gw.lastSeq(dan.client);
    await cat.client.close();
    await after(dan.client, voiceOf(cat.id, null), danSeen);
    const removed = await api(`DELETE /channels/${groupId}/recipients/${bob.id}`, ann.token);
    expect(removed.statusCode, removed.body).toBe(204);
    await after(dan.client, voiceOf(bob.id, null), danSeen);
    expect(await gw.server.app.storage.calls.findVoiceState(bob.id)).toBeNull();
    // Ann hangs up, the last one: the call ends.
    op4(ann, null);
    await after(dan.client, isType('CALL_DELETE'), danSeen);
    expect(await gw.server.app.storage.calls.listVoiceStates(groupId)).toEqual([]);
  });

  it('stops ringing once the call rang for the ring timeout', async () => {
    const ann = await person('ann');
    const bob = await person('bob');
    const dm = await dmOf(ann, bob);
    const bobSeen = gw.lastSeq(bob.client);
    op4(ann, dm);
    await after(bob.client, isType('CALL_CREATE'), bobSeen);
    const { calls, services } = {
      calls: gw.server.app.storage.calls,
      services: gw.server.app.services,
    };
    // Just short of the timeout the sweep leaves it ringing; at the timeout it stops.
    gw.clock.advance(RING_TIMEOUT_MS - 1);
    await services.calls.ringing.stopExpiredRinging(100);
    expect((await calls.findCall(dm))?.ringing).toEqual([bob.id]);
    gw.clock.advance(1);
    expect(await services.calls.ringing.stopExpiredRinging(100)).toBeGreaterThanOrEqual(1);
    const stopped = await after(bob.client, isType('CALL_UPDATE'), bobSeen);
    expect(stopped.d).toMatchObject({ channel_id: dm, ringing: [] });
    expect((await calls.findCall(dm))?.ringing).toEqual([]);
    op4(ann, null);
    await after(bob.client, isType('CALL_DELETE'), bobSeen);
  });

  it("sends CALL_CREATE after READY for each call in progress in the person's DMs", async () => {
    const ann = await person('ann');
    const bob = await person('bob');
    const eve = await person('eve');
    const dm = await dmOf(ann, bob);
    const bobSeen = gw.lastSeq(bob.client);
    op4(ann, dm);
    await after(bob.client, isType('CALL_CREATE'), bobSeen);
    // Bob opens another client: after its READY, the call in his DM with ann.
    const again = await gw.identify({ token: bob.token, intents: I.DIRECT_MESSAGES });
    const created = await again.client.next(isType('CALL_CREATE'));
    const ready = again.client.frames.find(isType('READY'));
    expect(created.s ?? 0).toBeGreaterThan(ready?.s ?? 0);
    expect(created.d).toMatchObject({
      channel_id: dm,
      ringing: [bob.id],
      voice_states: [expect.objectContaining({ user_id: ann.id, channel_id: dm })],
    });
    // Eve, in no DM with a call, gets none.
    const hers = await gw.identify({ token: eve.token, intents: I.DIRECT_MESSAGES });
    hers.client.send(8, { guild_id: gw.guild.guildId, user_ids: [eve.id], nonce: 'after' });
    await hers.client.next(isType('GUILD_MEMBERS_CHUNK'));
    expect(hers.client.frames.some(isType('CALL_CREATE'))).toBe(false);
    op4(ann, null);
    await after(bob.client, isType('CALL_DELETE'), bobSeen);
  });

  it('ends a group DM call for whoever leaves the group, and with the group', async () => {
    const [ann, bob, cat] = [await person('ann'), await person('bob'), await person('cat')];
    for (const other of [bob, cat]) {
      await api(`PUT /users/@me/relationships/${other.id}`, ann.token, {});
      await api(`PUT /users/@me/relationships/${ann.id}`, other.token, {});
    }
    const group = await api('POST /users/@me/channels', ann.token, {
      recipients: [bob.id, cat.id],
    });
    const groupId = group.json<{ id: string }>().id;
    let bobSeen = gw.lastSeq(bob.client);
    const catSeen = gw.lastSeq(cat.client);
    op4(ann, groupId);
    await after(bob.client, isType('CALL_CREATE'), bobSeen);
    // Cat, rung, leaves the group: the call is gone for her; the others stop ringing her.
    expect((await api(`DELETE /channels/${groupId}`, cat.token)).statusCode).toBe(200);
    expect((await after(cat.client, isType('CALL_DELETE'), catSeen)).d).toEqual({
      channel_id: groupId,
    });
    expect((await after(bob.client, isType('CALL_UPDATE'), bobSeen)).d).toMatchObject({
      ringing: [bob.id],
    });
    // Bob joins, then leaves the group: out of the call, which is gone for him.
    bobSeen = gw.lastSeq(bob.client);
    op4(bob, groupId);
    await after(bob.client, isType('VOICE_SERVER_UPDATE'), bobSeen);
    const annSeen = gw.lastSeq(ann.client);
    expect((await api(`DELETE /channels/${groupId}`, bob.token)).statusCode).toBe(200);
    await after(ann.client, voiceOf(bob.id, null), annSeen);
    await after(bob.client, isType('CALL_DELETE'), bobSeen);
    // Ann, the last, leaves in the call: the group and its call end with a CALL_DELETE.
    expect((await api(`DELETE /channels/${groupId}`, ann.token)).statusCode).toBe(200);
    expect((await after(ann.client, isType('CALL_DELETE'), annSeen)).d).toEqual({
      channel_id: groupId,
    });
    expect(await gw.server.app.storage.calls.findVoiceState(ann.id)).toBeNull();
    expect(await gw.server.app.storage.calls.findCall(groupId)).toBeNull();
  });

  it('refuses a stranger, a bot and a blocked caller', async () => {
    const ann = await person('ann');
    const bob = await person('bob');
    const eve = await person('eve');
    const dm = await dmOf(ann, bob);
    op4(eve, dm);
    expect((await eve.client.closed).code).toBe(4001);
    const { client } = await gw.identify({ token: gw.guild.bot.token, intents: I.GUILDS });
    client.send(4, { guild_id: null, channel_id: dm, self_mute: false, self_deaf: false });
    expect((await client.closed).code).toBe(4001);
    expectApiError(await api(`POST /channels/${dm}/call/ring`, eve.token, {}), 10003);
    expectApiError(await api(`GET /channels/${dm}/call`, gw.guild.bot.token), 20001);
    expectApiError(await api(`POST /channels/${dm}/call/ring`, ann.token, {}), 40032);
    expect((await api(`GET /channels/${dm}/call`, ann.token)).json()).toEqual({ ringable: true });

    // Bob blocks ann: her op 4 in their DM is ignored, and she cannot ring him.
    await api(`PUT /users/@me/relationships/${ann.id}`, bob.token, { type: 2 });
    expect((await api(`GET /channels/${dm}/call`, ann.token)).json()).toEqual({ ringable: false });
    const seen = gw.lastSeq(ann.client);
    op4(ann, dm);
    // Commands run in order: the answer to the next one comes after the first was handled.
    ann.client.send(8, { guild_id: gw.guild.guildId, user_ids: [ann.id], nonce: 'after' });
    await after(ann.client, isType('GUILD_MEMBERS_CHUNK'), seen);
    expect(ann.client.frames.some((f) => (f.s ?? 0) > seen && f.t === 'CALL_CREATE')).toBe(false);
    expect(await gw.server.app.storage.calls.findCall(dm)).toBeNull();
  });
});
