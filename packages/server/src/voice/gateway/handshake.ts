/**
 * @module voice/gateway/handshake: Identify and Resume. Identify checks the voice token, DAVE
 * support and the user's voice state (watched before it is read), then gives the member its ssrc
 * and the relay's address (Ready). Resume gives a dropped member its place back on a new
 * connection, with the frames it missed, while they are still held.
 */
import {
  DAVE_PROTOCOL_VERSION,
  VOICE_ENCRYPTION_MODES,
  VoiceCloseCodes as Close,
  VoiceOpcodes as Op,
} from '@guildhall/protocol';
import { IdentifyData, ResumeData } from '../frames.js';
import { callSubject, closeConn, type Membership } from './membership.js';
import { send, sendUnsequenced, write } from './send.js';
import { allocateStreams, readyStreams } from './video.js';
import { CloseError, parse, type Conn, type Member, type VoiceNodeState } from './state.js';

export interface Handshake {
  identify: (conn: Conn, raw: unknown) => Promise<void>;
  resume: (conn: Conn, raw: unknown) => void;
}

export function createHandshake(node: VoiceNodeState, membership: Membership): Handshake {
  return { identify: createIdentify(node, membership), resume: createResume(node) };
}

function createIdentify(node: VoiceNodeState, membership: Membership): Handshake['identify'] {
  const { calls, deps, subscriptions } = node;
  const { options, clock, logger, tokens } = deps;
  const { disconnect, endIfEmpty, findCall } = membership;

  const identify = async (conn: Conn, raw: unknown) => {
    const d = parse(IdentifyData, raw);
    const now = clock.now();
    const grant = tokens.verify(d.token, now);
    if (
      grant?.userId !== d.user_id ||
      grant.serverId !== d.server_id ||
      grant.sessionId !== d.session_id
    ) {
      throw new CloseError(Close.AUTHENTICATION_FAILED, 'authentication failed');
    }
    if ((d.max_dave_protocol_version ?? 0) < DAVE_PROTOCOL_VERSION) {
      throw new CloseError(
        Close.E2EE_REQUIRED,
        'calls are end-to-end encrypted only: offer max_dave_protocol_version >= 1 (DAVE)',
      );
    }
    const subject = callSubject(grant);
    // Watch the voice states first, then check: no change slips between the two.
    await subscriptions.acquire(subject);
    let held = true;
    try {
      const state = await deps.voiceState({
        guildId: grant.guildId,
        channelId: grant.channelId,
        userId: grant.userId,
      });
      if (state?.channelId !== grant.channelId || state.sessionId !== grant.sessionId) {
        throw new CloseError(
          Close.SESSION_NO_LONGER_VALID,
          'no voice state in this channel for this session: send op 4 again',
        );
      }
      if (conn.ws.readyState !== conn.ws.OPEN) return;
      // The user's earlier connection goes first: alone, it takes its call with it.
      const previous = calls.get(grant.channelId)?.members.get(grant.userId);
      if (previous !== undefined) {
        disconnect(previous, Close.DISCONNECTED, 'another connection joined as this user');
      }
      const relay = node.relay;
      if (relay === null) throw new CloseError(Close.VOICE_SERVER_CRASHED, 'voice node closing');
      const call = findCall(grant);
      let ssrc: number;
      try {
        if (call.members.size >= options.maxMembersPerCall) {
          throw new CloseError(Close.CALL_TERMINATED, 'the call is full');
        }
        ({ ssrc } = relay.addMember(call.key, grant.userId));
      } catch (err) {
        endIfEmpty(call);
        // The relay's own limits (members per call, per node).
        if (err instanceof RangeError) throw new CloseError(Close.CALL_TERMINATED, err.message);
        throw err;
      }
      const member: Member = {
        call,
        userId: grant.userId,
        sessionId: grant.sessionId,
        identifiedAtMs: now,
        ssrc,
        selected: false,
        conn,
        droppedAtMs: null,
        seq: 0,
        outbox: [],
        outboxBytes: 0,
        speaking: null,
        streams: [],
        video: null,
      };
      try {
        member.streams = allocateStreams(node, ssrc, d.streams);
      } catch (err) {
        relay.removeMember(ssrc);
        endIfEmpty(call);
        if (err instanceof RangeError) throw new CloseError(Close.BAD_REQUEST, err.message);
        throw err;
      }
      call.members.set(member.userId, member);
      held = false;
      conn.member = member;
      logger.info(
        { channelId: call.channelId, userId: member.userId, members: call.members.size },
        'voice member joined',
      );
      send(member, Op.READY, {
        ssrc,
        ip: relay.ip,
        port: relay.port,
        modes: VOICE_ENCRYPTION_MODES,
        heartbeat_interval: options.heartbeatIntervalMs,
        streams: readyStreams(member.streams),
        experiments: [],
      });
      relay.setDeaf(ssrc, state.deafened);
      relay.setMuted(ssrc, state.muted);
    } finally {
      if (held) subscriptions.release(subject);
    }
  };

  return identify;
}

function createResume(node: VoiceNodeState): Handshake['resume'] {
  const { calls, deps } = node;
  const { tokens } = deps;

  const resume = (conn: Conn, raw: unknown) => {
    const d = parse(ResumeData, raw);
    // The member this session identified as; its token is checked as of that Identify (a call
    // outlives a token's wait for Identify).
    let member: Member | undefined;
    for (const call of calls.values()) {
      if (call.serverId !== d.server_id) continue;
      for (const candidate of call.members.values()) {
        if (candidate.sessionId === d.session_id) member = candidate;
      }
    }
    const grant = member === undefined ? null : tokens.verify(d.token, member.identifiedAtMs);
    if (
      member === undefined ||
      grant?.userId !== member.userId ||
      grant.sessionId !== d.session_id ||
      grant.channelId !== member.call.channelId
    ) {
      throw new CloseError(Close.SESSION_NO_LONGER_VALID, 'nothing to resume: identify again');
    }
    const ack = d.seq_ack ?? -1;
    const missed = member.outbox.filter((o) => ack < 0 || seqAfter(o.seq, ack));
    const next = ack < 0 ? 1 : (ack + 1) & 0xffff;
    if (ack !== member.seq && missed[0]?.seq !== next) {
      throw new CloseError(Close.SESSION_NO_LONGER_VALID, 'too much was missed: identify again');
    }
    if (member.conn !== null && member.conn !== conn) {
      const old = member.conn;
      old.member = null;
      closeConn(old, Close.DISCONNECTED, 'resumed on another connection');
    }
    member.conn = conn;
    member.droppedAtMs = null;
    conn.member = member;
    // Resumed first: @discordjs/voice acts on DAVE's binary frames only once it is ready again.
    sendUnsequenced(conn, Op.RESUMED, null);
    for (const o of missed) write(conn, o.frame);
  };

  return resume;
}

/** `a` comes after `b` in the 16-bit sequence (with wrap-around). */
function seqAfter(a: number, b: number): boolean {
  const diff = (a - b) & 0xffff;
  return diff !== 0 && diff < 0x8000;
}
