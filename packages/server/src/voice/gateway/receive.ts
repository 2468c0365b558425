/**
 * @module voice/gateway/receive: one client frame, in order. The per-connection rate limit and
 * the size cap before Identify come first; a JSON frame is a Heartbeat, an Identify or Resume
 * (voice/gateway/handshake.ts) or a member's command (voice/gateway/commands.ts), a binary one is
 * DAVE's. What a frame throws closes its connection with the matching code.
 */
import { VoiceCloseCodes as Close, VoiceOpcodes as Op } from '@guildhall/protocol';
import type { RawData } from 'ws';
import { DaveProtocolError } from '../dave/index.js';
import { ClientFrame, HeartbeatData, TransitionData } from '../frames.js';
import type { Commands } from './commands.js';
import type { Handshake } from './handshake.js';
import { MAX_UNIDENTIFIED_FRAME, RATE_WINDOW_MS } from './limits.js';
import { closeConn } from './membership.js';
import { route, sendUnsequenced } from './send.js';
import { CloseError, parse, type Conn, type VoiceNodeState } from './state.js';

/** Handles one frame; resolves once it is done (an Identify waits on storage). */
export type FrameHandler = (conn: Conn, data: RawData, isBinary: boolean) => Promise<void>;

export function createFrameHandler(
  node: VoiceNodeState,
  handshake: Handshake,
  commands: Commands,
): FrameHandler {
  const { deps, unidentified } = node;
  const { options, clock, logger } = deps;
  const { identify, resume } = handshake;
  const { selectProtocol, speaking, onBinary } = commands;

  const onText = async (conn: Conn, text: string) => {
    let frame: { op: number; d?: unknown };
    try {
      frame = parse(ClientFrame, JSON.parse(text));
    } catch {
      throw new CloseError(Close.FAILED_TO_DECODE, 'frames are JSON {op, d}');
    }
    const { op, d } = frame;
    if (op === Op.HEARTBEAT) {
      const beat = parse(HeartbeatData, d);
      conn.lastHeartbeatMs = clock.now();
      sendUnsequenced(conn, Op.HEARTBEAT_ACK, { t: typeof beat === 'number' ? beat : beat.t });
      return;
    }
    const member = conn.member;
    if (member === null) {
      if (op !== Op.IDENTIFY && op !== Op.RESUME) {
        throw new CloseError(Close.NOT_AUTHENTICATED, 'identify first');
      }
      conn.busy = true;
      try {
        if (op === Op.IDENTIFY) await identify(conn, d);
        else resume(conn, d);
      } finally {
        conn.busy = false;
      }
      // Identified: the connection no longer counts against its address's cap.
      if (conn.member !== null) unidentified.remove(conn);
      return;
    }
    switch (op) {
      case Op.IDENTIFY:
      case Op.RESUME:
        throw new CloseError(Close.ALREADY_AUTHENTICATED, 'already identified');
      case Op.SELECT_PROTOCOL:
        selectProtocol(member, d);
        return;
      case Op.SPEAKING:
        if (member.selected) speaking(member, d);
        return;
      case Op.DAVE_TRANSITION_READY:
        route(
          member.call,
          member.call.dave.transitionReady(member.userId, parse(TransitionData, d).transition_id),
        );
        return;
      case Op.DAVE_MLS_INVALID_COMMIT_WELCOME:
        route(
          member.call,
          member.call.dave.invalidCommitWelcome(
            member.userId,
            parse(TransitionData, d).transition_id,
          ),
        );
        return;
      case Op.VIDEO:
        if (member.selected) commands.video.video(member, d);
        return;
      case Op.MEDIA_SINK_WANTS:
        commands.video.sinkWants(member, d);
        return;
      case Op.VOICE_BACKEND_VERSION:
        commands.video.backendVersion(member);
        return;
      default:
        throw new CloseError(Close.UNKNOWN_OPCODE, `unknown opcode ${op}`);
    }
  };

  /** Handles one frame; resolves once it is done (an Identify waits on storage). */
  const onFrame = async (conn: Conn, data: RawData, isBinary: boolean): Promise<void> => {
    const now = clock.now();
    if (now - conn.windowStartMs >= RATE_WINDOW_MS) {
      conn.windowStartMs = now;
      conn.windowFrames = 0;
    }
    if (++conn.windowFrames > options.framesPer10s) {
      closeConn(conn, Close.RATE_LIMITED, 'too many frames');
      return;
    }
    const buffer = Array.isArray(data)
      ? Buffer.concat(data)
      : Buffer.isBuffer(data)
        ? data
        : Buffer.from(data);
    try {
      if (conn.member === null && buffer.length > MAX_UNIDENTIFIED_FRAME) {
        throw new CloseError(Close.FAILED_TO_DECODE, 'frame too large before identify');
      }
      if (isBinary) onBinary(conn, buffer);
      else await onText(conn, buffer.toString('utf8'));
    } catch (err) {
      if (err instanceof CloseError) {
        closeConn(conn, err.code, err.message);
      } else if (err instanceof DaveProtocolError) {
        closeConn(conn, Close.BAD_REQUEST, `DAVE: ${err.message}`);
      } else {
        logger.error({ err }, 'voice frame failed');
        closeConn(conn, Close.VOICE_SERVER_CRASHED, 'internal error: resume');
      }
    }
  };

  return onFrame;
}
