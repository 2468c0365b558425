import { GatewayIntentBits as I } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from './support/drivers.js';
import type { Frame, GatewayClient } from './support/gatewayClient.js';
import { useGatewayFixture } from './support/gatewayFixture.js';
import { dataUri, mp3 } from './support/voiceFixture.js';

const INTENTS = I.GUILDS | I.GUILD_VOICE_STATES | I.GUILD_EXPRESSIONS;

/** The gateway's voice states and the REST voice routes change the same records (issue 18). */
describeDrivers('voice on the gateway and REST on $driver', (driver) => {
  const gw = useGatewayFixture({ driver });
  const after = (client: GatewayClient, type: string, seen: number) =>
    client.next((f: Frame) => f.t === type && (f.s ?? 0) > seen);

  it('op 4 joins a stage as a listener; REST moves it; op 31 and events carry real sounds', async () => {
    const owner = gw.guild.owner.token;
    const call = (method: 'GET' | 'POST' | 'PATCH', path: string, payload?: object) =>
      gw.guild.call(method, path, { auth: owner, ...(payload === undefined ? {} : { payload }) });
    const created = await call('POST', `/guilds/${gw.guild.guildId}/channels`, {
      name: 'stage',
      type: 13,
    });
    expect(created.statusCode).toBe(201);
    const stageId = created.json<{ id: string }>().id;
    const { client } = await gw.session({ token: gw.guild.bot.token, intents: INTENTS });

    let seen = gw.lastSeq(client);
    client.send(4, {
      guild_id: gw.guild.guildId,
      channel_id: stageId,
      self_mute: false,
      self_deaf: false,
    });
    expect((await after(client, 'VOICE_STATE_UPDATE', seen)).d).toMatchObject({
      channel_id: stageId,
      user_id: gw.guild.bot.userId,
      suppress: true,
      request_to_speak_timestamp: null,
    });
    const rest = await call(
      'GET',
      `/guilds/${gw.guild.guildId}/voice-states/${gw.guild.bot.userId}`,
    );
    expect(rest.json()).toMatchObject({ channel_id: stageId, suppress: true });

    seen = gw.lastSeq(client);
    const invited = await call(
      'PATCH',
      `/guilds/${gw.guild.guildId}/voice-states/${gw.guild.bot.userId}`,
      { channel_id: stageId, suppress: false },
    );
    expect(invited.statusCode).toBe(204);
    expect((await after(client, 'VOICE_STATE_UPDATE', seen)).d).toMatchObject({
      channel_id: stageId,
      user_id: gw.guild.bot.userId,
      suppress: false,
    });
    // Op 4 again in the same channel (muting itself) keeps the speaker's place.
    seen = gw.lastSeq(client);
    client.send(4, {
      guild_id: gw.guild.guildId,
      channel_id: stageId,
      self_mute: true,
      self_deaf: false,
    });
    expect((await after(client, 'VOICE_STATE_UPDATE', seen)).d).toMatchObject({
      self_mute: true,
      suppress: false,
    });

    seen = gw.lastSeq(client);
    const sound = await call('POST', `/guilds/${gw.guild.guildId}/soundboard-sounds`, {
      name: 'tick',
      sound: dataUri('audio/mpeg', mp3(12)),
    });
    expect(sound.statusCode).toBe(201);
    const soundId = sound.json<{ sound_id: string }>().sound_id;
    expect((await after(client, 'GUILD_SOUNDBOARD_SOUND_CREATE', seen)).d).toMatchObject({
      sound_id: soundId,
      guild_id: gw.guild.guildId,
      name: 'tick',
    });
    seen = gw.lastSeq(client);
    client.send(31, { guild_ids: [gw.guild.guildId, '1234'] });
    const listed = (await after(client, 'SOUNDBOARD_SOUNDS', seen)).d as {
      guild_id: string;
      soundboard_sounds: { sound_id: string; user?: { id: string } }[];
    };
    expect(listed.guild_id).toBe(gw.guild.guildId);
    expect(listed.soundboard_sounds.map((s) => [s.sound_id, s.user?.id])).toEqual([
      [soundId, gw.guild.owner.userId],
    ]);

    seen = gw.lastSeq(client);
    const opened = await call('POST', '/stage-instances', { channel_id: stageId, topic: 'Live' });
    expect(opened.statusCode).toBe(200);
    expect((await after(client, 'STAGE_INSTANCE_CREATE', seen)).d).toEqual(opened.json());
    // A new session's GUILD_CREATE carries the open stage and the guild's sounds.
    const second = await gw.session({ token: gw.guild.bot.token, intents: INTENTS });
    expect(second.guild['stage_instances']).toEqual([opened.json()]);
    expect(
      (second.guild['soundboard_sounds'] as { sound_id: string }[]).map((s) => s.sound_id),
    ).toEqual([soundId]);
  });
});
