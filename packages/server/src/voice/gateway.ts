/**
 * @module voice/gateway: the voice node. A WebSocket at `/?v=8` on the voice port (TLS or plain,
 * voice/listener.ts) and the media relay on the same port number over UDP. A client holding a
 * voice token from VOICE_SERVER_UPDATE identifies, learns its ssrc and the relay's address,
 * selects a transport encryption mode and gets its key; from then on the DAVE delivery service
 * (voice/dave) moves MLS messages between the members and the relay forwards their still
 * end-to-end encrypted media. A client that does not offer DAVE is refused (4017). The main
 * gateway's voice states rule membership: a member whose voice state leaves the call is
 * disconnected (docs/voice.md#the-voice-gateway).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  DAVE_PROTOCOL_VERSION,
  VOICE_ENCRYPTION_MODES,
  VoiceCloseCodes as Close,
  VoiceOpcodes as Op,
} from '@guildhall/protocol';
import type { Logger } from 'pino';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { z } from 'zod';
import type { BusEvent, EventBus } from '../bus/index.js';
import { realTimers, type Clock, type Timers } from '../domain/clock.js';
import { guildSubject, userSubject, type DispatchEnvelope } from '../events/dispatcher.js';
import { createSubjectSubscriptions } from '../bus/subscriptions.js';
import { trackUnidentified } from '../http/unidentified.js';
import {
  CLIENT_BINARY_OPS,
  ClientFrame,
  HeartbeatData,
  IGNORED_CLIENT_OPS,
  IdentifyData,
  ResumeData,
  SelectProtocolData,
  SpeakingData,
  TransitionData,
  isVoiceMode,
} from './frames.js';
import { createDualListener, type DualListener } from './listener.js';
import { DaveProtocolError, type DaveCall, type DaveMessage } from './dave/index.js';
import type { MediaRelay, MediaRelayStats } from './relay/index.js';
import type { VoicePlacement } from './placement.js';
import type { VoiceTokens } from './token.js';
import type { CurrentVoiceState } from './voiceStates.js';

/** The user's voice state now (voiceStates.ts), for the Identify check. */
export type VoiceStateLookup = (q: {
  guildId: string | null;
  channelId: string;
  userId: string;
}) => Promise<CurrentVoiceState | null>;

/** The voice node's side of call placement (placement.ts). */
export type VoiceNodeRegistry = Pick<
  VoicePlacement,
  'register' | 'heartbeat' | 'release' | 'withdraw'
>;

export interface VoiceNodeOptions {
  host: string;
  /** The voice port (TCP for the WebSocket, UDP for media); 0: any free one. */
  port: number;
  /** The host VOICE_SERVER_UPDATE's endpoint names (no port). */
  endpointHost: string;
  /** The port it names; null: the port listened on. */
  endpointPort: number | null;
  maxMembersPerCall: number;
  heartbeatIntervalMs: number;
  /** How long a connection may stay without Identify or Resume. */
  identifyTimeoutMs: number;
  /** Open connections without Identify or Resume one client address may hold; more get 429. */
  maxUnidentifiedPerAddress: number;
  /** How long a member whose socket dropped keeps its place for a Resume. */
  resumeWindowMs: number;
  /** Frames one connection may send per 10 s. */
  framesPer10s: number;
}

/** A voice node's limits and waits (what the config does not name). */
export type VoiceNodeTuning = Omit<
  VoiceNodeOptions,
  'host' | 'port' | 'endpointHost' | 'endpointPort'
>;

export const DEFAULT_VOICE_NODE_OPTIONS: VoiceNodeTuning = {
  maxMembersPerCall: 99,
  heartbeatIntervalMs: 13_750,
  identifyTimeoutMs: 10_000,
  maxUnidentifiedPerAddress: 32,
  resumeWindowMs: 30_000,
  framesPer10s: 200,
};

export interface VoiceNodeDeps {
  options: VoiceNodeOptions;
  /** The certificate and key the voice port serves, read (or made) when it starts listening. */
  tls: () => Promise<{ cert: string; key: string }>;
  clock: Clock;
  /** Where the node's periodic pass waits (the event loop's timers by default). */
  timers?: Timers;
  /** The client address of an upgrade (the socket's peer by default), for the unidentified cap. */
  clientAddress?: (request: IncomingMessage) => string;
  logger: Logger;
  bus: EventBus;
  tokens: Pick<VoiceTokens, 'verify'>;
  voiceState: VoiceStateLookup;
  /** Opens the media relay on a UDP port (the WebSocket's number). */
  openRelay: (host: string, port: number) => Promise<MediaRelay>;
  createDave: (channelId: string) => DaveCall;
  registry?: VoiceNodeRegistry;
}

export interface VoiceNodeStats {
  calls: number;
  members: number;
  connections: number;
  /** The media relay's counters (null before it listens). */
  relay: MediaRelayStats | null;
}

export interface VoiceNode {
  /** Listens; resolves to the endpoint (`host:port`) VOICE_SERVER_UPDATE names. */
  listen(): Promise<string>;
  endpoint(): string;
  stats(): VoiceNodeStats;
  close(): Promise<void>;
}

/** Frames kept per member for a Resume. */
const RESUME_BUFFER_FRAMES = 128;
const RESUME_BUFFER_BYTES = 512 * 1024;
/** Bytes written to a connection and not yet read by its client before it is dropped. */
const MAX_UNREAD_BYTES = 2 * 1024 * 1024;
/** The largest frame before Identify (an Identify or a Resume is a few hundred bytes). */
const MAX_UNIDENTIFIED_FRAME = 4 * 1024;
/** The largest frame a client may send: a commit with its welcome for a full call fits. */
const MAX_CLIENT_FRAME = 512 * 1024 + 1;
const VOICE_PATH = /^\/(?:\?|$)/;
const VERSION = '8';
const TICK_MS = 1_000;
/** The node tells the placement its load (and keeps its calls claimed) every this many ticks. */
const HEARTBEAT_TICKS = 5;
const RATE_WINDOW_MS = 10_000;
/** Normal closes end a member's place at once; any other drop keeps it for a Resume. */
const LEAVING_CLOSES = new Set([1000, 1001]);
/** Tokens ordered for the close reason (a WebSocket reason is at most 123 bytes). */
const reason = (text: string) => text.slice(0, 120);

interface Outgoing {
  seq: number;
  frame: string | Buffer;
}

interface Member {
  call: Call;
  userId: string;
  sessionId: string;
  identifiedAtMs: number;
  ssrc: number;
  /** Transport selected: the member hears and is heard. */
  selected: boolean;
  conn: Conn | null;
  droppedAtMs: number | null;
  seq: number;
  outbox: Outgoing[];
  outboxBytes: number;
  /** The member's last Speaking, as others are told it (sent to whoever joins later). */
  speaking: { user_id: string; ssrc: number; speaking: number } | null;
}

interface Call {
  key: string;
  guildId: string | null;
  channelId: string;
  serverId: string;
  members: Map<string, Member>;
  dave: DaveCall;
}

interface Conn {
  ws: WebSocket;
  lastHeartbeatMs: number;
  member: Member | null;
  windowStartMs: number;
  windowFrames: number;
  /** Identify or Resume under way (the checks wait on storage). */
  busy: boolean;
}

class CloseError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

export function createVoiceNode(deps: VoiceNodeDeps): VoiceNode {
  const { options, clock, logger, tokens } = deps;
  let listener: DualListener | null = null;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_FRAME });
  const calls = new Map<string, Call>();
  const conns = new Set<Conn>();
  let relay: MediaRelay | null = null;
  let port = options.port;
  let stopTicking: (() => void) | null = null;
  let ticks = 0;
  let closing = false;
  /** Connections without Identify or Resume: a cap per client address, and a deadline. */
  const unidentified = trackUnidentified<Conn>({
    clock,
    limits: {
      maxPerAddress: options.maxUnidentifiedPerAddress,
      timeoutMs: options.identifyTimeoutMs,
    },
  });
  const clientAddress =
    deps.clientAddress ?? ((request: IncomingMessage) => request.socket.remoteAddress ?? '');

  const subscriptions = createSubjectSubscriptions({
    bus: deps.bus,
    handler: (event) => {
      onDispatch(event);
    },
  });

  const endpoint = () => `${options.endpointHost}:${options.endpointPort ?? port}`;

  // ---- sending ---------------------------------------------------------------------------

  const write = (conn: Conn, frame: string | Buffer) => {
    if (conn.ws.readyState !== conn.ws.OPEN) return;
    // A client that does not read: its socket goes (its place waits for a Resume).
    if (conn.ws.bufferedAmount > MAX_UNREAD_BYTES) {
      conn.ws.terminate();
      return;
    }
    conn.ws.send(frame);
  };

  /** A frame outside the sequence (Hello, Heartbeat ACK): never replayed. */
  const sendUnsequenced = (conn: Conn, op: number, d: unknown) => {
    write(conn, JSON.stringify({ op, d }));
  };

  /** A sequenced frame: kept for a Resume, written when the member is connected. */
  const push = (member: Member, frameOf: (seq: number) => string | Buffer) => {
    // 65535 wraps to 1: @discordjs/voice takes a JSON frame's `seq` 0 for no sequence number.
    member.seq = member.seq >= 0xffff ? 1 : member.seq + 1;
    const seq = member.seq;
    const frame = frameOf(seq);
    member.outbox.push({ seq, frame });
    member.outboxBytes += frame.length;
    while (
      member.outbox.length > RESUME_BUFFER_FRAMES ||
      (member.outboxBytes > RESUME_BUFFER_BYTES && member.outbox.length > 1)
    ) {
      const dropped = member.outbox.shift();
      if (dropped !== undefined) member.outboxBytes -= dropped.frame.length;
    }
    if (member.conn !== null) write(member.conn, frame);
  };

  const send = (member: Member, op: number, d: unknown) => {
    push(member, (seq) => JSON.stringify({ op, d, seq }));
  };

  /** A binary frame: `[seq u16 BE][opcode u8][payload]`. */
  const sendBinary = (member: Member, op: number, payload: Uint8Array) => {
    push(member, (seq) => {
      const frame = Buffer.allocUnsafe(3 + payload.byteLength);
      frame.writeUInt16BE(seq, 0);
      frame[2] = op;
      frame.set(payload, 3);
      return frame;
    });
  };

  const route = (call: Call, messages: readonly DaveMessage[]) => {
    for (const message of messages) {
      for (const userId of message.to) {
        const member = call.members.get(userId);
        if (member === undefined) continue;
        if (message.binary === undefined) send(member, message.op, message.json ?? null);
        else sendBinary(member, message.op, message.binary);
      }
    }
  };

  const others = (member: Member) =>
    [...member.call.members.values()].filter((m) => m !== member && m.selected);

  // ---- membership ------------------------------------------------------------------------

  const callSubjects = (call: Call, userId: string) =>
    call.guildId !== null ? guildSubject(call.guildId) : userSubject(userId);

  /** A call ends with its last member; the next join may go to any node. */
  const endIfEmpty = (call: Call) => {
    if (call.members.size > 0 || calls.get(call.key) !== call) return;
    calls.delete(call.key);
    logger.info({ channelId: call.channelId }, 'voice call ended');
    deps.registry?.release(call.key).catch((err: unknown) => {
      logger.warn({ err }, 'voice call placement not released');
    });
  };

  const removeMember = (member: Member, why: string) => {
    const { call } = member;
    if (call.members.get(member.userId) !== member) return;
    call.members.delete(member.userId);
    relay?.removeMember(member.ssrc);
    subscriptions.release(callSubjects(call, member.userId));
    if (member.conn !== null) member.conn.member = null;
    if (member.selected) {
      for (const other of others(member)) {
        send(other, Op.CLIENT_DISCONNECT, { user_id: member.userId });
      }
    }
    route(call, call.dave.removeMember(member.userId));
    logger.info(
      { channelId: call.channelId, userId: member.userId, members: call.members.size, why },
      'voice member left',
    );
    endIfEmpty(call);
  };

  const closeConn = (conn: Conn, code: number, text: string) => {
    if (conn.ws.readyState === conn.ws.OPEN || conn.ws.readyState === conn.ws.CONNECTING) {
      conn.ws.close(code, reason(text));
    }
  };

  /** Ends a member's place and its connection (voice state gone, timed out, replaced). */
  const disconnect = (member: Member, code: number, text: string) => {
    const { conn } = member;
    removeMember(member, text);
    if (conn !== null) closeConn(conn, code, text);
  };

  const findCall = (grant: { guildId: string | null; channelId: string; serverId: string }) => {
    const key = grant.channelId;
    let call = calls.get(key);
    if (call === undefined) {
      call = {
        key,
        guildId: grant.guildId,
        channelId: grant.channelId,
        serverId: grant.serverId,
        members: new Map(),
        dave: deps.createDave(grant.channelId),
      };
      calls.set(key, call);
      logger.info({ channelId: grant.channelId, guildId: grant.guildId }, 'voice call started');
    }
    return call;
  };

  // ---- the main gateway's voice states ----------------------------------------------------

  /** Every member of the call leaves it (the channel or the guild is gone). */
  const endCall = (call: Call, why: string) => {
    for (const member of [...call.members.values()]) disconnect(member, Close.DISCONNECTED, why);
  };

  /**
   * A lobby voice state that names no call of this node may be the user's call in another game
   * (one lobby call per user per application): the member goes only if its own state is gone.
   */
  const recheckLobbyMember = (member: Member) => {
    const { call } = member;
    deps
      .voiceState({ guildId: null, channelId: call.channelId, userId: member.userId })
      .then((state) => {
        if (call.members.get(member.userId) !== member) return;
        if (state?.sessionId !== member.sessionId) {
          disconnect(member, Close.DISCONNECTED, 'the voice state left this call');
        }
      })
      .catch((err: unknown) => {
        logger.warn({ err }, 'voice state not read again');
      });
  };

  function onDispatch(event: BusEvent) {
    const envelope = event.data as DispatchEnvelope;
    const d = envelope.data as Record<string, unknown> | null;
    if (d === null || typeof d !== 'object') return;
    switch (event.type) {
      case 'VOICE_STATE_UPDATE':
        onVoiceState(d);
        return;
      case 'CHANNEL_DELETE':
        for (const call of calls.values()) {
          if (call.channelId === d['id']) endCall(call, 'the channel was deleted');
        }
        return;
      case 'GUILD_DELETE':
        for (const call of [...calls.values()]) {
          if (call.guildId !== null && call.guildId === d['id']) endCall(call, 'the guild is gone');
        }
        return;
      case 'GUILD_MEMBER_REMOVE': {
        const user = d['user'] as { id?: unknown } | undefined;
        for (const call of calls.values()) {
          const member = typeof user?.id === 'string' ? call.members.get(user.id) : undefined;
          if (member !== undefined && call.guildId === d['guild_id']) {
            disconnect(member, Close.DISCONNECTED, 'no longer a member of the guild');
          }
        }
        return;
      }
      default:
    }
  }

  function onVoiceState(state: Record<string, unknown>) {
    const userId = state['user_id'];
    if (typeof userId !== 'string') return;
    const guildId = (state['guild_id'] as string | null | undefined) ?? null;
    for (const call of calls.values()) {
      if (call.guildId !== guildId) continue;
      const member = call.members.get(userId);
      if (member === undefined) continue;
      if (state['channel_id'] === call.channelId && state['session_id'] === member.sessionId) {
        relay?.setDeaf(member.ssrc, state['self_deaf'] === true || state['deaf'] === true);
        relay?.setMuted(member.ssrc, state['mute'] === true || state['suppress'] === true);
      } else if (guildId === null) {
        recheckLobbyMember(member);
      } else {
        disconnect(member, Close.DISCONNECTED, 'the voice state left this call');
      }
    }
  }

  // ---- client frames ---------------------------------------------------------------------

  const parse = <T>(schema: z.ZodType<T>, d: unknown): T => {
    const result = schema.safeParse(d);
    if (!result.success) throw new CloseError(Close.FAILED_TO_DECODE, 'malformed payload');
    return result.data;
  };

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
    const subject =
      grant.guildId !== null ? guildSubject(grant.guildId) : userSubject(grant.userId);
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
      };
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
        experiments: [],
      });
      relay.setDeaf(ssrc, state.deafened);
      relay.setMuted(ssrc, state.muted);
    } finally {
      if (held) subscriptions.release(subject);
    }
  };

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
    if (member.selected || relay === null) return;
    const { secretKey } = relay.selectProtocol(member.ssrc, d.data.mode);
    member.selected = true;
    send(member, Op.SESSION_DESCRIPTION, {
      mode: d.data.mode,
      secret_key: Array.from(secretKey),
      dave_protocol_version: DAVE_PROTOCOL_VERSION,
      audio_codec: 'opus',
      video_codec: null,
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
    member.speaking = { user_id: member.userId, ssrc: member.ssrc, speaking: d.speaking };
    for (const other of others(member)) send(other, Op.SPEAKING, member.speaking);
  };

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
      default:
        if (IGNORED_CLIENT_OPS.has(op)) return;
        throw new CloseError(Close.UNKNOWN_OPCODE, `unknown opcode ${op}`);
    }
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

  // ---- connections -----------------------------------------------------------------------

  const onConnection = (ws: WebSocket, address: string) => {
    const now = clock.now();
    const conn: Conn = {
      ws,
      lastHeartbeatMs: now,
      member: null,
      windowStartMs: now,
      windowFrames: 0,
      busy: false,
    };
    conns.add(conn);
    unidentified.add(conn, address);
    sendUnsequenced(conn, Op.HELLO, { v: 8, heartbeat_interval: options.heartbeatIntervalMs });
    // Frames are handled one at a time, in order (an Identify waits on storage).
    let queue = Promise.resolve();
    ws.on('message', (data, isBinary) => {
      queue = queue.then(() => onFrame(conn, data, isBinary));
    });
    ws.on('error', () => {
      ws.terminate();
    });
    ws.on('close', (code) => {
      conns.delete(conn);
      unidentified.remove(conn);
      const member = conn.member;
      if (member?.conn !== conn) return;
      member.conn = null;
      if (LEAVING_CLOSES.has(code) || closing) removeMember(member, `closed ${code}`);
      else member.droppedAtMs = clock.now();
    });
  };

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = request.url ?? '/';
    const version = new URLSearchParams(url.split('?')[1] ?? '').get('v');
    if (!VOICE_PATH.test(url) || closing) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (version !== VERSION) {
      const body = 'Voice gateway version 8 only: connect to /?v=8.';
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      return;
    }
    // Too many connections from one address without Identify: refused before the handshake.
    const address = clientAddress(request);
    if (!unidentified.admit(address, socket)) return;
    wss.handleUpgrade(request, socket, head, (ws) => {
      onConnection(ws, address);
    });
  };

  // ---- timers ----------------------------------------------------------------------------

  const tick = () => {
    const now = clock.now();
    const heartbeatDeadline = options.heartbeatIntervalMs * 2 + 5_000;
    for (const conn of conns) {
      if (!conn.busy && unidentified.overdue(conn, now)) {
        closeConn(conn, Close.NOT_AUTHENTICATED, 'no identify in time');
      } else if (now - conn.lastHeartbeatMs > heartbeatDeadline) {
        const member = conn.member;
        if (member !== null) disconnect(member, Close.SESSION_TIMEOUT, 'no heartbeat in time');
        else closeConn(conn, Close.SESSION_TIMEOUT, 'no heartbeat in time');
      }
    }
    for (const call of [...calls.values()]) {
      for (const member of [...call.members.values()]) {
        if (member.droppedAtMs !== null && now - member.droppedAtMs > options.resumeWindowMs) {
          removeMember(member, 'no resume in time');
        }
      }
      if (calls.get(call.key) === call) route(call, call.dave.tick());
    }
    if (++ticks % HEARTBEAT_TICKS === 0) announce();
  };

  /**
   * Tells the placement this node's load and calls. A call another node holds now (this one was
   * thought gone) is left: its members join again through op 4 and reach that node.
   */
  const announce = () => {
    let members = 0;
    for (const call of calls.values()) members += call.members.size;
    deps.registry
      ?.heartbeat(members, [...calls.keys()])
      .then(({ lost }) => {
        for (const key of lost) {
          const call = calls.get(key);
          if (call === undefined) continue;
          logger.warn({ channelId: call.channelId }, 'voice call moved to another node');
          for (const member of [...call.members.values()]) {
            disconnect(member, Close.SESSION_NO_LONGER_VALID, 'the call moved: join again');
          }
        }
      })
      .catch((err: unknown) => {
        logger.warn({ err }, 'voice node heartbeat not recorded');
      });
  };

  return {
    async listen() {
      listener = createDualListener(await deps.tls());
      listener.http.on('upgrade', onUpgrade);
      const opened = await listenBoth(listener, deps, options);
      relay = opened.relay;
      port = opened.port;
      const timers = deps.timers ?? realTimers;
      const turn = () => {
        stopTicking = timers.schedule(turn, TICK_MS);
        tick();
      };
      stopTicking = timers.schedule(turn, TICK_MS);
      await deps.registry?.register(endpoint());
      logger.info(
        { endpoint: endpoint() },
        'voice gateway listening (TCP) with its media relay (UDP)',
      );
      return endpoint();
    },
    endpoint,
    stats() {
      let members = 0;
      for (const call of calls.values()) members += call.members.size;
      return { calls: calls.size, members, connections: conns.size, relay: relay?.stats() ?? null };
    },
    async close() {
      closing = true;
      stopTicking?.();
      for (const conn of conns) closeConn(conn, 1001, 'voice node shutting down');
      for (const call of [...calls.values()]) {
        for (const member of [...call.members.values()]) removeMember(member, 'shutdown');
      }
      subscriptions.close();
      await deps.registry?.withdraw();
      await listener?.close();
      await relay?.close();
    },
  };
}

/** `a` comes after `b` in the 16-bit sequence (with wrap-around). */
function seqAfter(a: number, b: number): boolean {
  const diff = (a - b) & 0xffff;
  return diff !== 0 && diff < 0x8000;
}

/**
 * The WebSocket and the relay on one port number. With port 0 the TCP port is chosen first and
 * the UDP one must match it: a taken UDP number means another try.
 */
async function listenBoth(
  listener: DualListener,
  deps: VoiceNodeDeps,
  options: VoiceNodeOptions,
): Promise<{ port: number; relay: MediaRelay }> {
  const attempts = options.port === 0 ? 8 : 1;
  for (let attempt = 1; ; attempt++) {
    const port = await listener.listen(options.host, options.port);
    try {
      return { port, relay: await deps.openRelay(options.host, port) };
    } catch (err) {
      await listener.close();
      if (attempt >= attempts) throw err;
    }
  }
}
