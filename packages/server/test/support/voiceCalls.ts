/**
 * Joining a guild voice call as the voice gateway's tests do: a voice channel, a main gateway
 * session whose op 4 gets VOICE_SERVER_UPDATE, the voice Identify it allows, and a member past
 * Select Protocol who speaks.
 *
 * @module
 */
import { GatewayIntentBits as I, VoiceOpcodes as VOp } from '@guildhall/protocol';
import { expect } from 'vitest';
import { identifyGateway, type Frame, type GatewayClient } from './gatewayClient.js';
import type { GatewayFixture } from './gatewayFixture.js';
import { connectVoice, type VoiceClient } from './voiceClient.js';

const INTENTS = I.GUILDS | I.GUILD_VOICE_STATES;

export interface ServerUpdate {
  token: string;
  guild_id: string;
  endpoint: string;
}

/** A main gateway session in a call: what its voice Identify names. */
export interface CallSeat {
  sessionId: string;
  server: ServerUpdate;
  userId: string;
}

/** Sends the voice Identify of `who` (DAVE version `dave`). */
export function identifyVoice(voice: VoiceClient, who: CallSeat, dave = 1): void {
  voice.send(VOp.IDENTIFY, {
    server_id: who.server.guild_id,
    user_id: who.userId,
    session_id: who.sessionId,
    token: who.server.token,
    max_dave_protocol_version: dave,
  });
}

/**
 * A new main gateway session at `gatewayUrl` (any node) that joins a guild voice channel, with
 * its voice server answer; the caller ends `client`.
 */
export async function joinCallAt(
  gatewayUrl: string,
  token: string,
  place: { guildId: string; channelId: string },
): Promise<CallSeat & { client: GatewayClient }> {
  const { client, ready } = await identifyGateway(gatewayUrl, { token, intents: INTENTS });
  client.send(4, {
    guild_id: place.guildId,
    channel_id: place.channelId,
    self_mute: false,
    self_deaf: false,
  });
  const server = (await client.next((f: Frame) => f.t === 'VOICE_SERVER_UPDATE')).d as ServerUpdate;
  const userId = (ready['user'] as { id: string }).id;
  return { client, sessionId: ready.session_id, server, userId };
}

/**
 * A member of the call `who` joined, past Select Protocol (so its Speaking, voice op 5, reaches
 * the node): `speak(flags)`; the caller ends `voice`.
 */
export async function speakerIn(who: CallSeat) {
  const voice = await connectVoice(who.server.endpoint);
  await voice.op(VOp.HELLO);
  identifyVoice(voice, who);
  const { ssrc } = (await voice.op(VOp.READY)).d as { ssrc: number };
  voice.send(VOp.SELECT_PROTOCOL, {
    protocol: 'udp',
    data: { address: '127.0.0.1', port: 40_000, mode: 'aead_aes256_gcm_rtpsize' },
  });
  await voice.op(VOp.SESSION_DESCRIPTION);
  return {
    voice,
    speak: (speaking: number) => {
      voice.send(VOp.SPEAKING, { speaking, delay: 0, ssrc });
    },
  };
}

export function voiceCalls(gw: GatewayFixture) {
  return {
    /** A new voice channel in the fixture's guild. */
    voiceChannel: async () => {
      const created = await gw.guild.call('POST', `/guilds/${gw.guild.guildId}/channels`, {
        auth: gw.guild.owner.token,
        payload: { name: 'Lounge', type: 2 },
      });
      expect(created.statusCode).toBe(201);
      return created.json<{ id: string }>().id;
    },

    /** A main gateway session that joins `channelId` and its voice server answer. */
    joinCall: async (token: string, channelId: string) => {
      const { client, ready } = await gw.session({ token, intents: INTENTS });
      const sessionId = ready.session_id;
      const seen = gw.lastSeq(client);
      client.send(4, {
        guild_id: gw.guild.guildId,
        channel_id: channelId,
        self_mute: false,
        self_deaf: false,
      });
      const server = (
        await client.next((f: Frame) => f.t === 'VOICE_SERVER_UPDATE' && (f.s ?? 0) > seen)
      ).d as ServerUpdate;
      const userId = (ready['user'] as { id: string }).id;
      return { client, sessionId, server, userId };
    },

    identify: identifyVoice,
  };
}
