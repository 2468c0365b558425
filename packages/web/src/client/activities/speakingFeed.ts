/**
 * Who speaks in an activity's voice channel, for the frame's SPEAKING_START and SPEAKING_STOP.
 * The web client is in no call (docs/web.md#voice), so it asks the gateway to follow the channel
 * with Guildhall's op 1001 (docs/gateway.md#guildhalls-own) and turns each SPEAKING_UPDATE of
 * that channel into the embedded app SDK's event. It asks again after every READY and RESUMED
 * (what is followed lives on the gateway node) and stops following when the frame closes.
 *
 * @module
 */
import { ChannelType } from 'discord-api-types/v10';
import { GuildhallGatewayOpcodes } from '@guildhall/protocol';
import type { GatewayClient } from '../../lib/gateway.js';

/** A SPEAKING_UPDATE's data, as the gateway sends it. */
interface SpeakingUpdate {
  guild_id: string;
  channel_id: string;
  user_id: string;
  speaking: boolean;
}

function isSpeakingUpdate(data: unknown): data is SpeakingUpdate {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as Record<string, unknown>;
  return (
    typeof d['channel_id'] === 'string' &&
    typeof d['user_id'] === 'string' &&
    typeof d['speaking'] === 'boolean'
  );
}

/** The channel types whose calls have speakers to follow. */
const VOICE_TYPES = new Set<number>([ChannelType.GuildVoice, ChannelType.GuildStageVoice]);

/**
 * Follows who speaks in `channelId` while the returned function is not called; `dispatch` gets
 * the SDK's event and its data (`{channel_id, user_id}`). Nothing for a channel that is not a
 * guild voice or stage channel.
 */
export function followSpeaking(
  gateway: Pick<GatewayClient, 'on' | 'send'>,
  place: { guildId: string | null; channelId: string; channelType: number | undefined },
  dispatch: (evt: 'SPEAKING_START' | 'SPEAKING_STOP', data: object) => void,
): () => void {
  const { guildId, channelId, channelType } = place;
  if (guildId === null || channelType === undefined || !VOICE_TYPES.has(channelType)) {
    return () => undefined;
  }
  const follow = (target: string | null) => {
    gateway.send(GuildhallGatewayOpcodes.SPEAKING_SUBSCRIBE, {
      guild_id: guildId,
      channel_id: target,
    });
  };
  follow(channelId);
  const offs = [
    gateway.on('READY', () => {
      follow(channelId);
    }),
    gateway.on('RESUMED', () => {
      follow(channelId);
    }),
    gateway.on('SPEAKING_UPDATE', (data) => {
      if (!isSpeakingUpdate(data) || data.channel_id !== channelId) return;
      dispatch(data.speaking ? 'SPEAKING_START' : 'SPEAKING_STOP', {
        channel_id: data.channel_id,
        user_id: data.user_id,
      });
    }),
  ];
  return () => {
    for (const off of offs) off();
    follow(null);
  };
}
