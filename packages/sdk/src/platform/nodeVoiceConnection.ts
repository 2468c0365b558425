/**
 * `@guildhall/social-sdk/voice` (Node only): the voice client's connection and Opus codec on their
 * own, for a program that joins a call its own way (the testkit joins guild voice channels with a
 * person's gateway session) and then speaks and hears through the same client a game's `Call`
 * uses: the voice WebSocket, the media socket, transport encryption and DAVE.
 *
 * @module
 */
export { openVoiceConnection, createOpusCodec } from './nodeVoice.js';
export { Logger } from '../log.js';
export type {
  OpenVoiceConnection,
  OpusCodec,
  OpusFrameInfo,
  OpusSendResult,
  VoiceConnectOptions,
  VoiceConnection,
  VoiceConnectionEvents,
  VoiceConnectionStats,
} from '../voiceTransport.js';
