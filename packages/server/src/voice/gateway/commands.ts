/**
 * @module voice/gateway/commands: what an identified member sends. Select Protocol gets the
 * member its transport key and tells the call it is there (and joins it to the DAVE group);
 * Speaking goes to the others (and its changes to the guild's speaking feed, speakingFeed.ts); DAVE's binary frames (key packages, commits with welcomes) go to
 * the call's delivery service, whose messages are routed to the members they name.
 */
import { randomBytes } from 'node:crypto';
import {
  DAVE_PROTOCOL_VERSION,
  VOICE_ENCRYPTION_MODES,
  VoiceCloseCodes as Close,
  VoiceOpcodes as Op,
} from '@guildhall/protocol';
import { DaveProtocolError } from '../dave/index.js';
import { CLIENT_BINARY_OPS, SelectProtocolData, SpeakingData, isVoiceMode } from '../frames.js';
import type { Membership } from './membership.js';
import { others, route, send } from './send.js';
import { announceSpeaking, isSpeaking } from './speakingFeed.js';
import { CloseError, parse, type Conn, type Member, type VoiceNodeState } from './state.js';
import { chooseVideoCodec, createVideoCommands } from './video.js';

export interface Commands {
  selectProtocol: (member: Member, raw: unknown) => void;
  speaking: (member: Member, raw: unknown) => void;
  /** Ops 12, 15 and 16 (video.ts). */
  video: ReturnType<typeof createVideoCommands>;
  /** A binary frame: `[opcode u8][payload]`, DAVE's only. */
  onBinary: (conn: Conn, data: Buffer) => void;
}

export function createCommands(node: VoiceNodeState, membership: Membership): Commands {
  const { disconnect } = membership;
  const videoCommands = createVideoCommands(node);

  const selectProtocol = (member: Member, raw: unknown) => {
    const d = parse(SelectProtocolData, raw);
    if (d.protocol !== 'udp') {
      throw new CloseError(Close.UNKNOWN_PROTOCOL, 'only the udp protocol is served');
    }
    if (!isVoiceMode(d.data.mode)) {
      throw new CloseError(
        Close.UNKNOWN_ENCRYPTION_MODE,
        `unknown encryption mode: use one of ${VOICE_ENCRYPTION_MODES.join(', ')}`,
      );
    }
    const relay = node.relay;
    if (member.selected || relay === null) return;
    const { secretKey } = relay.selectProtocol(member.ssrc, d.data.mode);
    member.selected = true;
    send(member, Op.SESSION_DESCRIPTION, {
      mode: d.data.mode,
      secret_key: Array.from(secretKey),
      dave_protocol_version: DAVE_PROTOCOL_VERSION,
      audio_codec: 'opus',
      video_codec: chooseVideoCodec(node, member, d.codecs),
      media_session_id: randomBytes(16).toString('hex'),
    });
    const present = others(member);
    for (const other of present) send(other, Op.CLIENTS_CONNECT, { user_ids: [member.userId] });
    if (present.length > 0) {
      send(member, Op.CLIENTS_CONNECT, { user_ids: present.map((m) => m.userId) });
    }
    for (const other of present) {
      if (other.speaking !== null && other.speaking.speaking !== 0) {
        send(member, Op.SPEAKING, other.speaking);
      }
    }
    videoCommands.catchUp(member);
    try {
      route(member.call, member.call.dave.addMember(member.userId));
    } catch (err) {
      if (!(err instanceof DaveProtocolError || err instanceof RangeError)) throw err;
      disconnect(member, Close.CALL_TERMINATED, `DAVE: ${err.message}`);
    }
  };

  const speaking = (member: Member, raw: unknown) => {
    const d = parse(SpeakingData, raw);
    if (d.ssrc !== member.ssrc)
      throw new CloseError(Close.BAD_REQUEST, 'speaking names another ssrc');
    const was = isSpeaking(member);
    member.speaking = { user_id: member.userId, ssrc: member.ssrc, speaking: d.speaking };
    for (const other of others(member)) send(other, Op.SPEAKING, member.speaking);
    if (was !== isSpeaking(member)) announceSpeaking(node, member, !was);
  };

  const onBinary = (conn: Conn, data: Buffer) => {
    const member = conn.member;
    if (member === null) throw new CloseError(Close.NOT_AUTHENTICATED, 'identify first');
    const op = data[0];
    if (op === undefined || !CLIENT_BINARY_OPS.has(op)) {
      throw new CloseError(Close.UNKNOWN_OPCODE, `unknown binary opcode ${op ?? '(empty)'}`);
    }
    if (!member.selected) throw new CloseError(Close.BAD_REQUEST, 'select a protocol first');
    const payload = data.subarray(1);
    const dave = member.call.dave;
    route(
      member.call,
      op === Op.DAVE_MLS_KEY_PACKAGE
        ? dave.keyPackage(member.userId, payload)
        : dave.commitWelcome(member.userId, payload),
    );
  };

  return { selectProtocol, speaking, video: videoCommands, onBinary };
}
