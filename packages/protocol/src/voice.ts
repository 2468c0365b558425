/**
 * The voice gateway (`?v=8`) and the media relay's wire constants, shared by the server's voice
 * node and the SDK's Node voice client (docs/voice.md). Calls are end-to-end encrypted only: a
 * client that does not offer DAVE is refused with `VoiceCloseCodes.E2EE_REQUIRED`.
 */

/** Opcodes of the voice WebSocket. 25–28 and 30 travel as binary frames; the rest as JSON. */
export const VoiceOpcodes = {
  IDENTIFY: 0,
  SELECT_PROTOCOL: 1,
  READY: 2,
  HEARTBEAT: 3,
  SESSION_DESCRIPTION: 4,
  SPEAKING: 5,
  HEARTBEAT_ACK: 6,
  RESUME: 7,
  HELLO: 8,
  RESUMED: 9,
  CLIENTS_CONNECT: 11,
  VIDEO: 12,
  CLIENT_DISCONNECT: 13,
  MEDIA_SINK_WANTS: 15,
  VOICE_BACKEND_VERSION: 16,
  DAVE_PREPARE_TRANSITION: 21,
  DAVE_EXECUTE_TRANSITION: 22,
  DAVE_TRANSITION_READY: 23,
  DAVE_PREPARE_EPOCH: 24,
  DAVE_MLS_EXTERNAL_SENDER: 25,
  DAVE_MLS_KEY_PACKAGE: 26,
  DAVE_MLS_PROPOSALS: 27,
  DAVE_MLS_COMMIT_WELCOME: 28,
  DAVE_MLS_ANNOUNCE_COMMIT_TRANSITION: 29,
  DAVE_MLS_WELCOME: 30,
  DAVE_MLS_INVALID_COMMIT_WELCOME: 31,
} as const;

export type VoiceOpcode = (typeof VoiceOpcodes)[keyof typeof VoiceOpcodes];

/** Close codes of the voice WebSocket. */
export const VoiceCloseCodes = {
  UNKNOWN_OPCODE: 4001,
  FAILED_TO_DECODE: 4002,
  NOT_AUTHENTICATED: 4003,
  AUTHENTICATION_FAILED: 4004,
  ALREADY_AUTHENTICATED: 4005,
  SESSION_NO_LONGER_VALID: 4006,
  SESSION_TIMEOUT: 4009,
  SERVER_NOT_FOUND: 4011,
  UNKNOWN_PROTOCOL: 4012,
  DISCONNECTED: 4014,
  VOICE_SERVER_CRASHED: 4015,
  UNKNOWN_ENCRYPTION_MODE: 4016,
  E2EE_REQUIRED: 4017,
  BAD_REQUEST: 4020,
  RATE_LIMITED: 4021,
  CALL_TERMINATED: 4022,
} as const;

export type VoiceCloseCode = (typeof VoiceCloseCodes)[keyof typeof VoiceCloseCodes];

/** Transport encryption modes, most preferred first (the order of Ready's `modes`). */
export const VOICE_ENCRYPTION_MODES = [
  'aead_aes256_gcm_rtpsize',
  'aead_xchacha20_poly1305_rtpsize',
] as const;

export type VoiceEncryptionMode = (typeof VOICE_ENCRYPTION_MODES)[number];

/** The DAVE protocol version the platform speaks (`max_dave_protocol_version` must reach it). */
export const DAVE_PROTOCOL_VERSION = 1;

/** The RTP payload type of Opus audio. */
export const RTP_OPUS_PAYLOAD_TYPE = 0x78;

/** IP discovery: request type 1, answer type 2, 74 bytes each (type, length 70, ssrc, address, port). */
export const IP_DISCOVERY_REQUEST = 1;
export const IP_DISCOVERY_RESPONSE = 2;
export const IP_DISCOVERY_LENGTH = 74;

/** Speaking flags (op 5 `speaking`). */
export const SpeakingFlags = {
  MICROPHONE: 1 << 0,
  SOUNDSHARE: 1 << 1,
  PRIORITY: 1 << 2,
} as const;
