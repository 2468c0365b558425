/**
 * The voice WebSocket's handshake for a Node voice connection (nodeVoice.ts): what Identify and
 * Resume say, what Session Description must hold, the DAVE session it starts, and what each close
 * code means for the call.
 *
 * @module
 */
import { CallError } from '../enums.js';
import type { VoiceConnectOptions } from '../voiceTransport.js';
import { DaveDriver } from './nodeVoiceDave.js';
import type { TransportMode } from './nodeVoiceRtp.js';
import { VoiceOp, type VoiceSocket } from './nodeVoiceSocket.js';
import { IDENTIFY_STREAMS } from './nodeVoiceVideo.js';

/** Close codes after which the platform refused the player (`CallError.Forbidden`). */
const FORBIDDEN_CLOSE_CODES = new Set([4003, 4004, 4014]);
/** What the voice gateway's close codes mean (docs/voice.md), for the log line of an ended call. */
const CLOSE_MEANINGS: Readonly<Record<number, string>> = {
  4001: 'unknown opcode',
  4002: 'a frame the server could not decode',
  4003: 'not identified',
  4004: 'the voice token was refused',
  4005: 'identified twice',
  4006: 'the session is no longer valid',
  4009: 'heartbeats missed',
  4011: 'server not found',
  4012: 'unknown protocol',
  4014: 'the voice state left the call (moved, kicked, or joined elsewhere)',
  4015: 'the voice server crashed',
  4016: 'unknown encryption mode',
  4017: 'end-to-end encryption (DAVE) required',
  4020: 'a malformed request',
  4021: 'rate limited',
  4022: 'the call is full',
};
/** The voice gateway requires a DAVE version this build does not offer. */
const E2EE_REQUIRED_CLOSE_CODE = 4017;
/** Close codes after which the session can be resumed (others end the call). */
export function resumable(code: number): boolean {
  return code < 4000 || code === 4015;
}

/** Why a close that cannot be resumed ended the call: the error and the words. */
export function closeFailure(code: number, reason: string, signaled: boolean): [CallError, string] {
  const meaning = CLOSE_MEANINGS[code];
  const said =
    (meaning === undefined ? '' : `: ${meaning}`) +
    (reason === '' ? '' : ` ("${reason.slice(0, 120)}")`);
  if (code === E2EE_REQUIRED_CLOSE_CODE) {
    return [
      CallError.SignalingConnectionFailed,
      `the voice server requires end-to-end encryption (DAVE) of a version this SDK does not offer (it offers v${DaveDriver.maxVersion}); close 4017${said}`,
    ];
  }
  if (FORBIDDEN_CLOSE_CODES.has(code)) {
    return [CallError.Forbidden, `the voice server refused the player (close ${code}${said})`];
  }
  return signaled
    ? [CallError.SignalingUnexpectedClose, `the voice WebSocket closed (close ${code}${said})`]
    : [
        CallError.SignalingConnectionFailed,
        `the voice WebSocket closed before Ready (close ${code}${said})`,
      ];
}

/** What the connection sends when its WebSocket opens: Resume (`resumeSeq`), or Identify. */
export function greeting(
  options: VoiceConnectOptions,
  resumeSeq: number | null,
): { op: number; d: Record<string, unknown> } {
  const { serverId, sessionId, token } = options;
  if (resumeSeq !== null) {
    return {
      op: VoiceOp.Resume,
      d: { server_id: serverId, session_id: sessionId, token, seq_ack: resumeSeq },
    };
  }
  return {
    op: VoiceOp.Identify,
    d: {
      server_id: serverId,
      user_id: options.userId,
      session_id: sessionId,
      token,
      max_dave_protocol_version: DaveDriver.maxVersion,
      video: true,
      streams: IDENTIFY_STREAMS,
    },
  };
}

/** The connection's DAVE session at `version`, speaking through its voice WebSocket. */
export function startDave(
  options: VoiceConnectOptions,
  socket: VoiceSocket,
  { version, established }: { version: number; established: () => void },
): DaveDriver {
  return new DaveDriver({
    userId: options.userId,
    channelId: options.channelId,
    version,
    logger: options.logger,
    send: {
      json: (op, d) => {
        socket.sendJson(op, d);
      },
      binary: (op, payload) => {
        socket.sendBinary(op, payload);
      },
    },
    onEstablished: established,
  });
}

/** Session Description's (4) mode, key and DAVE version; or why it cannot be used. */
export function sessionKeys(
  data: Record<string, unknown>,
  pendingMode: TransportMode | null,
): { mode: TransportMode; key: Uint8Array; daveVersion: number } | string {
  const { mode, secret_key: secretKey, dave_protocol_version: daveVersion } = data;
  if (
    mode !== pendingMode ||
    !Array.isArray(secretKey) ||
    secretKey.length !== 32 ||
    !secretKey.every((b) => Number.isInteger(b) && (b as number) >= 0 && (b as number) <= 255)
  ) {
    return 'the voice server sent a malformed Session Description';
  }
  if (!Number.isInteger(daveVersion) || (daveVersion as number) < 1) {
    // Calls are end-to-end encrypted only: no audio goes out under transport encryption alone.
    return 'the voice server offered no end-to-end encryption (DAVE version 0); Guildhall calls are end-to-end encrypted only';
  }
  return {
    mode: mode as TransportMode,
    key: Uint8Array.from(secretKey as number[]),
    daveVersion: daveVersion as number,
  };
}
