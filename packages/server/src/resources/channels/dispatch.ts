/**
 * @module resources/channels/dispatch: CHANNEL_CREATE, UPDATE and DELETE, and VOICE_CHANNEL_STATUS_UPDATE. Each builder returns the exact wire payload (`d`),
 * checked against discord-api-types' dispatch data (`satisfies WireShape<…>`).
 */
import type { GatewayVoiceChannelStatusUpdateDispatchData } from 'discord-api-types/v10';
import { guildEvent, type TypedDispatch } from '../dispatches.js';
import type { WireShape } from '../wireShape.js';
import type { ChannelWire } from './serialize.js';

/** The gateway dispatches of channels, built from the serializer's wire objects. */
export const channelDispatches = {
  /**
   * Channel events are gated by VIEW_CHANNEL on the channel itself. The payload is checked by its
   * serializer, per channel type (the library's APIChannel union ties fields to the type).
   */
  channel: <TType extends 'CHANNEL_CREATE' | 'CHANNEL_UPDATE' | 'CHANNEL_DELETE'>(
    type: TType,
    channel: ChannelWire,
  ): TypedDispatch<TType, ChannelWire> => ({
    type,
    guildId: channel.guild_id,
    channelId: channel.id,
    data: channel,
  }),

  voiceChannelStatusUpdate: (channel: { id: string; guildId: string; status: string | null }) => ({
    ...guildEvent('VOICE_CHANNEL_STATUS_UPDATE', channel.guildId, {
      id: channel.id,
      guild_id: channel.guildId,
      status: channel.status,
    } satisfies WireShape<GatewayVoiceChannelStatusUpdateDispatchData>),
    channelId: channel.id,
  }),
};

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    VOICE_CHANNEL_STATUS_UPDATE: ReturnType<
      typeof channelDispatches.voiceChannelStatusUpdate
    >['data'];
  }
}
