/**
 * Op 4 hands out a voice server: VOICE_SERVER_UPDATE `{token, guild_id, endpoint}` after the
 * session's own VOICE_STATE_UPDATE, to that session only, with a token the voice node verifies
 * with the deployment's secret key.
 *
 * @module
 */
import { GatewayIntentBits as I } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { loadKeyring } from '../src/secrets.js';
import { createVoiceTokens } from '../src/voice/token.js';
import { currentVoiceState } from '../src/voice/voiceStates.js';
import { describeDrivers } from './support/drivers.js';
import type { Frame, GatewayClient } from './support/gatewayClient.js';
import { useGatewayFixture } from './support/gatewayFixture.js';

const INTENTS = I.GUILDS | I.GUILD_VOICE_STATES;

describeDrivers('op 4 and VOICE_SERVER_UPDATE on $driver', (driver) => {
  const gw = useGatewayFixture({ driver });
  const after = (client: GatewayClient, type: string, seen: number) =>
    client.next((f: Frame) => f.t === type && (f.s ?? 0) > seen);
  /** The voice state and server dispatches a client received after `from` up to `to`. */
  const between = (client: GatewayClient, from: number, to: number) =>
    client.frames
      .filter((f) => (f.s ?? 0) > from && (f.s ?? 0) <= to)
      .map((f) => f.t)
      .filter((t) => t === 'VOICE_STATE_UPDATE' || t === 'VOICE_SERVER_UPDATE');

  async function voiceChannel(name: string): Promise<string> {
    const created = await gw.guild.call('POST', `/guilds/${gw.guild.guildId}/channels`, {
      auth: gw.guild.owner.token,
      payload: { name, type: 2 },
    });
    expect(created.statusCode).toBe(201);
    return created.json<{ id: string }>().id;
  }

  const join = (client: GatewayClient, channelId: string | null, selfMute = false) => {
    client.send(4, {
      guild_id: gw.guild.guildId,
      channel_id: channelId,
      self_mute: selfMute,
      self_deaf: false,
    });
  };

  it('answers a join with VOICE_SERVER_UPDATE after the voice state, with a genuine token', async () => {
    const channelId = await voiceChannel('talk');
    const { client, ready } = await gw.session({ token: gw.guild.bot.token, intents: INTENTS });
    const sessionId = ready.session_id;
    const seen = gw.lastSeq(client);
    join(client, channelId);
    const server = await after(client, 'VOICE_SERVER_UPDATE', seen);
    const state = await after(client, 'VOICE_STATE_UPDATE', seen);
    expect(state.s ?? 0).toBeLessThan(server.s ?? 0);
    expect(state.d).toMatchObject({ channel_id: channelId, session_id: sessionId });
    const d = server.d as { token: string; guild_id: string; endpoint: string };
    expect(Object.keys(d).sort()).toEqual(['endpoint', 'guild_id', 'token']);
    expect(d.guild_id).toBe(gw.guild.guildId);
    expect(d.endpoint).toBe(gw.server.app.voice?.endpoint());
    expect(d.endpoint).toMatch(/^[\w.-]+:\d+$/);

    const tokens = createVoiceTokens(loadKeyring(gw.server.app.config).keyring);
    expect(tokens.verify(d.token, gw.clock.now())).toEqual({
      userId: gw.guild.bot.userId,
      sessionId,
      serverId: gw.guild.guildId,
      guildId: gw.guild.guildId,
      channelId,
      expiresAtMs: gw.clock.now() + 10 * 60_000,
    });
    // Another deployment's key does not accept it.
    expect(createVoiceTokens(Buffer.alloc(32, 1)).verify(d.token, gw.clock.now())).toBeNull();
    // What the voice node checks at Identify: the state names this channel and session.
    const storage = gw.server.app.storage;
    const q = { guildId: gw.guild.guildId, channelId, userId: gw.guild.bot.userId };
    expect(await currentVoiceState(storage, q)).toEqual({
      channelId,
      sessionId,
      selfMute: false,
      selfDeaf: false,
      muted: false,
      deafened: false,
    });
    expect(await currentVoiceState(storage, { ...q, channelId: gw.guild.guildId })).toBeNull();
    expect(await currentVoiceState(storage, { ...q, guildId: null })).toBeNull();
    const seenAgain = gw.lastSeq(client);
    join(client, null);
    await after(client, 'VOICE_STATE_UPDATE', seenAgain);
    expect(await currentVoiceState(storage, q)).toBeNull();
  });

  it('sends none for a mute in the same channel or a leave; again for a move or a rejoin', async () => {
    const first = await voiceChannel('one');
    const second = await voiceChannel('two');
    const { client } = await gw.session({ token: gw.guild.bot.token, intents: INTENTS });
    const start = gw.lastSeq(client);
    join(client, first);
    const joined = await after(client, 'VOICE_SERVER_UPDATE', start);

    // Muting: a voice state and no voice server (the connection stays as it is).
    join(client, first, true);
    const muted = await after(client, 'VOICE_STATE_UPDATE', joined.s ?? 0);
    expect(muted.d).toMatchObject({ channel_id: first, self_mute: true });
    // The same op 4 again is a rejoin: a fresh voice server.
    join(client, first, true);
    const rejoined = await after(client, 'VOICE_SERVER_UPDATE', muted.s ?? 0);
    expect(between(client, joined.s ?? 0, rejoined.s ?? 0)).toEqual([
      'VOICE_STATE_UPDATE',
      'VOICE_STATE_UPDATE',
      'VOICE_SERVER_UPDATE',
    ]);

    join(client, second, true);
    const moved = await after(client, 'VOICE_SERVER_UPDATE', rejoined.s ?? 0);
    expect(between(client, rejoined.s ?? 0, moved.s ?? 0)).toContain('VOICE_STATE_UPDATE');
    expect((moved.d as { token: string }).token).not.toBe((joined.d as { token: string }).token);
    const tokens = createVoiceTokens(loadKeyring(gw.server.app.config).keyring);
    expect(tokens.verify((moved.d as { token: string }).token, gw.clock.now())?.channelId).toBe(
      second,
    );

    join(client, null);
    const left = await after(client, 'VOICE_STATE_UPDATE', moved.s ?? 0);
    expect(left.d).toMatchObject({ channel_id: null });
    // A later join proves nothing else came in between.
    join(client, first);
    const back = await after(client, 'VOICE_SERVER_UPDATE', left.s ?? 0);
    expect(
      between(client, moved.s ?? 0, back.s ?? 0).filter((t) => t === 'VOICE_SERVER_UPDATE'),
    ).toEqual(['VOICE_SERVER_UPDATE']);
  });

  it('sends the voice server to the session that joined only', async () => {
    const channelId = await voiceChannel('private');
    const one = await gw.session({ token: gw.guild.bot.token, intents: INTENTS });
    const two = await gw.session({ token: gw.guild.bot.token, intents: INTENTS });
    const oneId = one.ready.session_id;
    const seenTwo = gw.lastSeq(two.client);
    join(one.client, channelId);
    await after(one.client, 'VOICE_SERVER_UPDATE', 0);
    const seen = await after(two.client, 'VOICE_STATE_UPDATE', seenTwo);
    expect(seen.d).toMatchObject({ session_id: oneId, channel_id: channelId });
    // The second session moves the user's voice state to itself: it gets a voice server, and
    // the first session sees only the voice state.
    const twoId = two.ready.session_id;
    const oneSeen = gw.lastSeq(one.client);
    join(two.client, channelId);
    const own = await after(two.client, 'VOICE_SERVER_UPDATE', seen.s ?? 0);
    const tokens = createVoiceTokens(loadKeyring(gw.server.app.config).keyring);
    expect(tokens.verify((own.d as { token: string }).token, gw.clock.now())?.sessionId).toBe(
      twoId,
    );
    const moved = await after(one.client, 'VOICE_STATE_UPDATE', oneSeen);
    expect(moved.d).toMatchObject({ session_id: twoId });
    join(one.client, null);
    await after(one.client, 'VOICE_STATE_UPDATE', moved.s ?? 0);
    expect(between(one.client, oneSeen, gw.lastSeq(one.client))).not.toContain(
      'VOICE_SERVER_UPDATE',
    );
    expect(
      between(two.client, 0, gw.lastSeq(two.client)).filter((t) => t === 'VOICE_SERVER_UPDATE'),
    ).toEqual(['VOICE_SERVER_UPDATE']);
  });

  it('sends a join to the voice node holding the call: this process’s own', async () => {
    const first = await voiceChannel('first');
    const { client } = await gw.session({ token: gw.guild.bot.token, intents: INTENTS });
    // The voice node of this process announced itself when it started listening.
    const own = gw.server.app.voice?.endpoint();
    expect(own).toMatch(/^127\.0\.0\.1:[1-9]\d*$/);
    const seen = gw.lastSeq(client);
    join(client, first);
    const listed = await after(client, 'VOICE_SERVER_UPDATE', seen);
    expect((listed.d as { endpoint: string }).endpoint).toBe(own);
  });

  it('ends the voice state of a session that ends, not one another session took over', async () => {
    const channelId = await voiceChannel('ends');
    const watcher = await gw.session({ token: gw.guild.bot.token, intents: INTENTS });
    const first = await gw.session({ token: gw.guild.bot.token, intents: INTENTS });
    const storage = gw.server.app.storage;
    const q = { guildId: gw.guild.guildId, channelId, userId: gw.guild.bot.userId };
    let seen = gw.lastSeq(watcher.client);
    join(first.client, channelId);
    await after(watcher.client, 'VOICE_STATE_UPDATE', seen);
    // The session closes normally: its state ends, the emptied channel's start time too.
    seen = gw.lastSeq(watcher.client);
    await first.client.close(1000);
    const left = await after(watcher.client, 'VOICE_STATE_UPDATE', seen);
    expect(left.d).toMatchObject({
      channel_id: null,
      session_id: first.ready.session_id,
      user_id: gw.guild.bot.userId,
    });
    const cleared = await after(watcher.client, 'VOICE_CHANNEL_START_TIME_UPDATE', seen);
    expect(cleared.d).toEqual({
      id: channelId,
      guild_id: gw.guild.guildId,
      voice_start_time: null,
    });
    expect(await currentVoiceState(storage, q)).toBeNull();

    // Taken over by another session: the first one's end leaves it.
    const second = await gw.session({ token: gw.guild.bot.token, intents: INTENTS });
    const third = await gw.session({ token: gw.guild.bot.token, intents: INTENTS });
    join(second.client, channelId);
    await after(second.client, 'VOICE_SERVER_UPDATE', 0);
    join(third.client, channelId);
    await after(third.client, 'VOICE_SERVER_UPDATE', 0);
    seen = gw.lastSeq(watcher.client);
    await second.client.close(1000);
    // The next voice state the watcher sees is the third session leaving, not the second's end.
    join(third.client, null);
    const next = await after(watcher.client, 'VOICE_STATE_UPDATE', seen);
    expect(next.d).toMatchObject({ channel_id: null, session_id: third.ready.session_id });
  });
});
