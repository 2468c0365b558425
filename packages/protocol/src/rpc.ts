/**
 * The RPC command protocol that apps speak to a running platform client: over local IPC (native
 * apps, `guildhall rpc`) and over postMessage (activities, the embedded app SDK in the web client's
 * frame). Both carry the same payloads, `{cmd, nonce?, evt?, data?, args?}`; they differ in their
 * framing opcodes and in which commands they answer (docs/rpc.md, docs/activities.md).
 */

/** Opcodes of the IPC framing: 4-byte little-endian opcode, 4-byte little-endian length, JSON. */
export const IpcOpcodes = {
  HANDSHAKE: 0,
  FRAME: 1,
  CLOSE: 2,
  PING: 3,
  PONG: 4,
} as const;

/** Opcodes of the embedded app SDK's postMessage messages, `[opcode, payload]`. */
export const FrameOpcodes = {
  HANDSHAKE: 0,
  FRAME: 1,
  CLOSE: 2,
  HELLO: 3,
} as const;

/** Codes of an `evt: "ERROR"` answer. */
export const RpcErrorCodes = {
  UNKNOWN_ERROR: 1000,
  INVALID_PAYLOAD: 4000,
  INVALID_COMMAND: 4002,
  INVALID_GUILD: 4003,
  INVALID_EVENT: 4004,
  INVALID_CHANNEL: 4005,
  INVALID_PERMISSIONS: 4006,
  INVALID_CLIENTID: 4007,
  INVALID_ORIGIN: 4008,
  INVALID_TOKEN: 4009,
  INVALID_USER: 4010,
  OAUTH2_ERROR: 5000,
  SELECT_CHANNEL_TIMED_OUT: 5001,
  GET_GUILD_TIMED_OUT: 5002,
  SELECT_VOICE_FORCE_REQUIRED: 5003,
  CAPTURE_SHORTCUT_ALREADY_LISTENING: 5004,
} as const;

/** Codes of a CLOSE frame (IPC) or of the frame's close message (activities). */
export const RpcCloseCodes = {
  CLOSE_NORMAL: 1000,
  CLOSE_UNSUPPORTED: 1003,
  CLOSE_ABNORMAL: 1006,
  INVALID_CLIENTID: 4000,
  INVALID_ORIGIN: 4001,
  RATELIMITED: 4002,
  TOKEN_REVOKED: 4003,
  INVALID_VERSION: 4004,
  INVALID_ENCODING: 4005,
} as const;

/** The RPC protocol version both transports speak (`v` of the handshake). */
export const RPC_VERSION = 1;

/** One RPC message, as both transports carry it. */
export interface RpcPayload {
  cmd: string;
  nonce?: string | null;
  evt?: string | null;
  data?: unknown;
  args?: Record<string, unknown>;
}

/** The `data` of an `evt: "ERROR"` answer. */
export interface RpcErrorData {
  code: number;
  message: string;
}
