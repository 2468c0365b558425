/** @module resources/channels: the public surface of guild channels and their overwrites. */
export { loadChannelAccess } from './access.js';
export { channelPatch } from './fields.js';
export { createOverwriteService } from './overwrites.js';
export { createChannelPositionService } from './positions.js';
export { registerChannelRoutes } from './routes.js';
export {
  CHANNEL_FIELD_LIMITS,
  DEFAULT_BITRATE,
  isCategory,
  type GuildChannelType,
} from './rules.js';
export { ChannelParams, GuildChannelTypeInput, PutOverwriteBody } from './schemas.js';
export {
  obfuscateChannel,
  overwritesByChannel,
  serializeChannel,
  type ChannelWire,
} from './serialize.js';
export { createChannelService } from './service.js';
export { createVoiceStatusService } from './voiceStatus.js';
export { channelsModule } from './module.js';
