/**
 * Joining a guild voice call as the voice gateway's tests do: a voice channel, a main gateway
 * session whose op 4 gets VOICE_SERVER_UPDATE, and the voice Identify it allows.
 *
 * @module
 */
import { GatewayIntentBits as I, VoiceOpcodes as VOp } from '@guildhall/protocol';
import { expect } from 'vitest';
import type { Frame } from './gatewayClient.js';
import type { GatewayFixture } from './gatewayFixture.js';
import type { VoiceClient } from './voiceClient.js';

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

    /** Sends the voice Identify of `who` (DAVE version `dave`). */
    identify: (voice: VoiceClient, who: CallSeat, dave = 1) => {
      voice.send(VOp.IDENTIFY, {
        server_id: who.server.guild_id,
        user_id: who.userId,
        session_id: who.sessionId,
        token: who.server.token,
        max_dave_protocol_version: dave,
      });
    },
  };
}
