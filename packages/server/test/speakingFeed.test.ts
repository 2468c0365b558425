/**
 * Guildhall's op 1001 (docs/gateway.md#guildhalls-own): a person's session that follows a guild
 * voice channel gets SPEAKING_UPDATE when a member of its call starts or stops speaking (voice
 * gateway op 5 on the voice node, through the bus to the main gateway), and nothing when it
 * follows another channel, follows nothing, or may no longer connect there; a bot may not follow.
 * Real main and voice gateway WebSockets.
 */
import {
  GatewayCloseCodes as Close,
  GatewayIntentBits as I,
  GuildhallGatewayOpcodes as GuildhallOp,
  PermissionFlags as P,
} from '@guildhall/protocol';
import { describe, expect, it } from 'vitest';
import type { Frame, GatewayClient } from './support/gatewayClient.js';
import { useGatewayFixture } from './support/gatewayFixture.js';
import { speakerIn, voiceCalls } from './support/voiceCalls.js';

describe('who speaks, for a client not in the call (op 1001)', () => {
  const gw = useGatewayFixture({ driver: 'sqlite' });
  const { voiceChannel, joinCall } = voiceCalls(gw);

  /** A person's session following `channelId` (null: nothing). */
  const follower = async (name: string, channelId: string | null) => {
    const person = await gw.guild.join(name);
    const { client } = await gw.session({ token: person.token, intents: I.GUILDS });
    client.send(GuildhallOp.SPEAKING_SUBSCRIBE, {
      guild_id: gw.guild.guildId,
      channel_id: channelId,
    });
    return { client, person };
  };

  /** The next SPEAKING_UPDATE the client has not been handed yet (frames are kept from the start). */
  const taken = new Map<GatewayClient, number>();
  const nextSpeaking = async (client: GatewayClient) => {
    const count = taken.get(client) ?? 0;
    const updates = () => client.frames.filter((f) => f.t === 'SPEAKING_UPDATE');
    const frame = await client.next((f: Frame) => updates().indexOf(f) === count);
    taken.set(client, count + 1);
    return frame.d;
  };

  it('sends each start and stop to the followers of the channel, and only to them', async () => {
    const channelId = await voiceChannel();
    const other = await voiceChannel();
    const ann = await follower('ann', channelId);
    const bea = await follower('bea', other);
    const cat = await follower('cat', channelId);
    // Cat stops following: she gets no more.
    cat.client.send(GuildhallOp.SPEAKING_SUBSCRIBE, {
      guild_id: gw.guild.guildId,
      channel_id: null,
    });
    const owner = await joinCall(gw.guild.owner.token, channelId);
    const speaker = await speakerIn(owner);

    const expected = (speaking: boolean) => ({
      guild_id: gw.guild.guildId,
      channel_id: channelId,
      user_id: owner.userId,
      speaking,
    });
    speaker.speak(1);
    expect(await nextSpeaking(ann.client)).toEqual(expected(true));
    // Still speaking (another flag): no change; then silent.
    speaker.speak(5);
    speaker.speak(0);
    expect(await nextSpeaking(ann.client)).toEqual(expected(false));
    // Speaking again, then out of the call (op 4 to no channel): stopped.
    speaker.speak(1);
    expect(await nextSpeaking(ann.client)).toEqual(expected(true));
    owner.client.send(4, { guild_id: gw.guild.guildId, channel_id: null });
    expect(await nextSpeaking(ann.client)).toEqual(expected(false));

    // Bea follows another channel and Cat nothing: in a call of Bea's channel, the first change
    // each of them could see is Bea's channel's, not the one before.
    const bot = await joinCall(gw.guild.bot.token, other);
    const botSpeaker = await speakerIn(bot);
    botSpeaker.speak(1);
    expect(await nextSpeaking(bea.client)).toMatchObject({ channel_id: other, speaking: true });
    const catFrames = cat.client.frames.filter((f) => f.t === 'SPEAKING_UPDATE');
    expect(catFrames).toEqual([]);
  });

  it('stops when the follower may no longer connect to the channel', async () => {
    const channelId = await voiceChannel();
    const dee = await follower('dee', channelId);
    const owner = await joinCall(gw.guild.owner.token, channelId);
    const speaker = await speakerIn(owner);
    speaker.speak(1);
    expect(await nextSpeaking(dee.client)).toMatchObject({ speaking: true });
    // CONNECT denied to Dee in the channel: the overwrite's CHANNEL_UPDATE reaches her node.
    const denied = await gw.guild.call(
      'PUT',
      `/channels/${channelId}/permissions/${dee.person.userId}`,
      {
        auth: gw.guild.owner.token,
        payload: { type: 1, allow: '0', deny: String(P.CONNECT) },
      },
    );
    expect(denied.statusCode).toBe(204);
    await dee.client.dispatch('CHANNEL_UPDATE');
    speaker.speak(0);
    // A second follower sees the stop; Dee does not.
    const eve = await follower('eve', channelId);
    speaker.speak(1);
    expect(await nextSpeaking(eve.client)).toMatchObject({ speaking: true });
    expect(dee.client.frames.filter((f) => f.t === 'SPEAKING_UPDATE')).toHaveLength(1);
  });

  it('is for a person’s client: a bot that asks is closed 4001', async () => {
    const channelId = await voiceChannel();
    const { client } = await gw.session({ token: gw.guild.bot.token, intents: I.GUILDS });
    client.send(GuildhallOp.SPEAKING_SUBSCRIBE, {
      guild_id: gw.guild.guildId,
      channel_id: channelId,
    });
    expect((await client.closed).code).toBe(Close.UNKNOWN_OPCODE);
  });
});
