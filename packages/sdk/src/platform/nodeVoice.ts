/**
 * The Node build's voice connection (loaded on a client's first call, never by the browser
 * build): the voice WebSocket (`?v=8`), the media socket (UDP) and both encryptions.
 *
 * Hello (8) → Identify (0, offering DAVE) → Ready (2: ssrc, ip, port, modes) → IP discovery on
 * the media socket → Select Protocol (1) → Session Description (4: mode, secret key, DAVE version)
 * → DAVE (`nodeVoiceDave.ts`) → media. Heartbeats (3/6) carry `seq_ack`, the last sequence number
 * the server sent; a dropped WebSocket resumes (7 → 9) keeping the media socket and the group.
 *
 * @module
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { randomInt } from 'node:crypto';
import { isIPv4 } from 'node:net';
import OpusScript from 'opusscript';
import WebSocket from 'ws';
import { CallError } from '../enums.js';
import type {
  OpenVoiceConnection,
  OpusCodec,
  OpusSendResult,
  VoiceModule,
  VoiceConnectOptions,
  VoiceConnection,
  VoiceConnectionStats,
} from '../voiceTransport.js';
import { DaveDriver, DaveOp } from './nodeVoiceDave.js';
import {
  OPUS_SILENCE_FRAME,
  RtpSender,
  chooseTransportMode,
  isSilenceFrame,
  openRtp,
  rtpSsrc,
  type OpenedRtp,
  type TransportMode,
} from './nodeVoiceRtp.js';

/** Voice gateway opcodes (same values as `VoiceOpcodes` in @guildhall/protocol). */
export const VoiceOp = {
  Identify: 0,
  SelectProtocol: 1,
  Ready: 2,
  Heartbeat: 3,
  SessionDescription: 4,
  Speaking: 5,
  HeartbeatAck: 6,
  Resume: 7,
  Hello: 8,
  Resumed: 9,
  ClientsConnect: 11,
  ClientDisconnect: 13,
} as const;

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
/** Other members this client keeps track of at most (Clients Connect). */
const MAX_CLIENTS = 1024;
/** The voice gateway requires a DAVE version this build does not offer. */
const E2EE_REQUIRED_CLOSE_CODE = 4017;
/** Close codes after which the session can be resumed (others end the call). */
function resumable(code: number): boolean {
  return code < 4000 || code === 4015;
}

const IP_DISCOVERY_BYTES = 74;
const IP_DISCOVERY_TIMEOUT_MS = 5000;
const KEEPALIVE_INTERVAL_MS = 5000;
const MAX_RESUME_ATTEMPTS = 5;
/** The biggest voice gateway message accepted (MLS welcomes of large calls are tens of KB). */
const MAX_MESSAGE_BYTES = 1 << 20;
/** The biggest media packet accepted. */
const MAX_PACKET_BYTES = 2048;
/** Known senders (ssrc → user) kept at most. */
const MAX_SSRCS = 1024;
/**
 * Packets of senders not yet named by Speaking (5), which travels over the WebSocket and may
 * arrive after a burst's first packets: held (authenticated) until it does, this many at most.
 */
const MAX_HELD_SSRCS = 4;
const MAX_HELD_PER_SSRC = 16;

type Phase =
  'opening' | 'identifying' | 'discovering' | 'selecting' | 'ready' | 'resuming' | 'closed';

interface Media {
  ssrc: number;
  ip: string;
  port: number;
  modes: string[];
  socket: Socket;
  keepalive: ReturnType<typeof setInterval>;
}

interface Transport {
  mode: TransportMode;
  key: Uint8Array;
  sender: RtpSender;
}

export const openVoiceConnection: OpenVoiceConnection = (options) =>
  new NodeVoiceConnection(options);

/** 48 kHz stereo, 20 ms: the platform's Opus. */
const FRAME_SAMPLES = 960;

/** Opus through opusscript (WebAssembly): PCM in `sendPcmFrame`, PCM out for the audio callbacks. */
export function createOpusCodec(): OpusCodec {
  const opus = new OpusScript(48000, 2, OpusScript.Application.AUDIO);
  return {
    encode(pcm) {
      return opus.encode(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength), FRAME_SAMPLES);
    },
    decode(frame) {
      const pcm = opus.decode(Buffer.from(frame));
      const samples = new Int16Array(pcm.length >> 1);
      for (let i = 0; i < samples.length; i += 1) samples[i] = pcm.readInt16LE(i * 2);
      return samples;
    },
    close() {
      opus.delete();
    },
  };
}

/** The module the Node platform loads on a client's first call. */
export const nodeVoice: VoiceModule = { open: openVoiceConnection, createOpusCodec };

class NodeVoiceConnection implements VoiceConnection {
  readonly #options: VoiceConnectOptions;
  #phase: Phase = 'opening';
  #ws: WebSocket | null = null;
  /** The last sequence number the server sent (`seq_ack`), -1 before any. */
  #seq = -1;
  #heartbeat: ReturnType<typeof setInterval> | null = null;
  #unacked = 0;
  #retry: ReturnType<typeof setTimeout> | null = null;
  #discoveryTimer: ReturnType<typeof setTimeout> | null = null;
  #resumeAttempts = 0;
  #media: Media | null = null;
  #transport: Transport | null = null;
  #dave: DaveDriver | null = null;
  /** Others connected to the voice server (11/13). */
  readonly #clients = new Set<string>();
  readonly #ssrcUsers = new Map<number, string>();
  readonly #held = new Map<number, OpenedRtp[]>();
  #signaled = false;
  #connected = false;
  #speaking = false;
  readonly #stats: Omit<VoiceConnectionStats, 'privacyCode'> = {
    framesSent: 0,
    framesReceived: 0,
    packetsDropped: 0,
  };

  constructor(options: VoiceConnectOptions) {
    this.#options = options;
    options.logger.secret(options.token);
    this.#openSocket();
  }

  sendOpus(frame: Uint8Array): OpusSendResult {
    const media = this.#media;
    const transport = this.#transport;
    if (this.#phase === 'closed' || media === null || transport === null || !this.#connected) {
      return 'notConnected';
    }
    const payload = this.#dave?.encrypt(frame) ?? null;
    if (payload === null) return 'e2eePending';
    if (!isSilenceFrame(frame)) this.setSpeaking(true);
    media.socket.send(transport.sender.packet(payload), media.port, media.ip);
    this.#stats.framesSent += 1;
    return 'sent';
  }

  setSpeaking(speaking: boolean): void {
    const media = this.#media;
    if (this.#speaking === speaking || media === null || this.#transport === null) return;
    this.#speaking = speaking;
    this.#sendJson(VoiceOp.Speaking, { speaking: speaking ? 1 : 0, delay: 0, ssrc: media.ssrc });
    if (!speaking) {
      // The platform's clients end a burst with silence frames, so receivers stop interpolating.
      for (let i = 0; i < 5; i += 1) this.sendOpus(OPUS_SILENCE_FRAME);
    }
  }

  stats(): VoiceConnectionStats {
    return { ...this.#stats, privacyCode: this.#dave?.privacyCode ?? '' };
  }

  participantsChanged(): void {
    this.#maybeConnected();
  }

  close(): void {
    this.#end();
  }

  // ── The WebSocket ─────────────────────────────────────────────────────────────────────────

  #openSocket(): void {
    const { endpoint, secure, logger } = this.#options;
    const url = `${secure ? 'wss' : 'ws'}://${endpoint}/?v=8`;
    logger.verbose(`Voice: connecting to ${url}`);
    let ws: WebSocket;
    try {
      ws = new WebSocket(url, { maxPayload: MAX_MESSAGE_BYTES, handshakeTimeout: 10_000 });
    } catch (error) {
      this.#fail(
        CallError.SignalingConnectionFailed,
        0,
        `the voice address ${url} is not usable (${String(error)})`,
      );
      return;
    }
    this.#ws = ws;
    ws.binaryType = 'nodebuffer';
    ws.on('open', () => {
      if (this.#ws !== ws) return;
      if (this.#phase === 'resuming') {
        this.#sendJson(VoiceOp.Resume, {
          server_id: this.#options.serverId,
          session_id: this.#options.sessionId,
          token: this.#options.token,
          seq_ack: this.#seq,
        });
      } else {
        this.#sendJson(VoiceOp.Identify, {
          server_id: this.#options.serverId,
          user_id: this.#options.userId,
          session_id: this.#options.sessionId,
          token: this.#options.token,
          max_dave_protocol_version: DaveDriver.maxVersion,
        });
        this.#phase = 'identifying';
      }
    });
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (this.#ws !== ws) return;
      if (isBinary) this.#onBinary(data);
      else this.#onJson(data.toString('utf8'));
    });
    ws.on('error', (error) => {
      if (this.#ws !== ws) return;
      logger.verbose(`Voice: the WebSocket failed (${error.message}).`);
    });
    ws.on('close', (code: number, reason: Buffer) => {
      if (this.#ws !== ws) return;
      this.#onClose(code, reason.toString('utf8'));
    });
  }

  #onClose(code: number, reason: string): void {
    this.#stopHeartbeat();
    this.#ws = null;
    if (this.#phase === 'closed') return;
    const meaning = CLOSE_MEANINGS[code];
    const said =
      (meaning === undefined ? '' : `: ${meaning}`) +
      (reason === '' ? '' : ` ("${reason.slice(0, 120)}")`);
    if (code === E2EE_REQUIRED_CLOSE_CODE) {
      this.#fail(
        CallError.SignalingConnectionFailed,
        code,
        `the voice server requires end-to-end encryption (DAVE) of a version this SDK does not offer (it offers v${DaveDriver.maxVersion}); close 4017${said}`,
      );
      return;
    }
    if (FORBIDDEN_CLOSE_CODES.has(code)) {
      this.#fail(
        CallError.Forbidden,
        code,
        `the voice server refused the player (close ${code}${said})`,
      );
      return;
    }
    const established = this.#phase === 'ready' || this.#phase === 'resuming';
    if (established && resumable(code) && this.#resumeAttempts < MAX_RESUME_ATTEMPTS) {
      this.#resumeAttempts += 1;
      const first = this.#phase === 'ready';
      this.#phase = 'resuming';
      if (first) this.#options.events.reconnecting(code);
      const delay = first ? 0 : Math.min(5000, 250 * 2 ** this.#resumeAttempts);
      this.#retry = setTimeout(() => {
        this.#retry = null;
        this.#openSocket();
      }, delay);
      return;
    }
    if (!this.#signaled) {
      this.#fail(
        CallError.SignalingConnectionFailed,
        code,
        `the voice WebSocket closed before Ready (close ${code}${said})`,
      );
    } else {
      this.#fail(
        CallError.SignalingUnexpectedClose,
        code,
        `the voice WebSocket closed (close ${code}${said})`,
      );
    }
  }

  #onJson(text: string): void {
    let packet: unknown;
    try {
      packet = JSON.parse(text);
    } catch {
      this.#options.logger.warn('Voice: the server sent a message that is not JSON; ignored.');
      return;
    }
    if (typeof packet !== 'object' || packet === null) return;
    const { op, d, seq } = packet as { op?: unknown; d?: unknown; seq?: unknown };
    if (Number.isInteger(seq) && (seq as number) >= 0) this.#seq = seq as number;
    if (!Number.isInteger(op)) return;
    const data = typeof d === 'object' && d !== null ? (d as Record<string, unknown>) : {};
    switch (op) {
      case VoiceOp.Hello:
        this.#onHello(data);
        break;
      case VoiceOp.HeartbeatAck:
        this.#unacked = 0;
        break;
      case VoiceOp.Ready:
        this.#onReady(data);
        break;
      case VoiceOp.SessionDescription:
        this.#onSessionDescription(data);
        break;
      case VoiceOp.Resumed:
        if (this.#phase === 'resuming') {
          this.#phase = 'ready';
          this.#resumeAttempts = 0;
          this.#speaking = false;
          this.#options.events.resumed();
        }
        break;
      case VoiceOp.Speaking:
        this.#onSpeaking(data);
        break;
      case VoiceOp.ClientsConnect: {
        const ids = Array.isArray(data['user_ids']) ? data['user_ids'].filter(isSnowflake) : [];
        const added = ids.filter((id) => id !== this.#options.userId && !this.#clients.has(id));
        for (const id of added) if (this.#clients.size < MAX_CLIENTS) this.#clients.add(id);
        if (added.length > 0) this.#options.events.clients(added, true);
        break;
      }
      case VoiceOp.ClientDisconnect: {
        const id = data['user_id'];
        if (isSnowflake(id) && this.#clients.delete(id)) {
          for (const [ssrc, user] of this.#ssrcUsers) if (user === id) this.#ssrcUsers.delete(ssrc);
          this.#options.events.clients([id], false);
          this.#maybeConnected();
        }
        break;
      }
      case DaveOp.PrepareTransition:
      case DaveOp.ExecuteTransition:
      case DaveOp.PrepareEpoch:
        this.#dave?.onJson(op, data);
        break;
      default:
        this.#options.logger.verbose(`Voice: opcode ${String(op)} ignored.`);
    }
  }

  #onBinary(data: Buffer): void {
    if (data.length < 3) return;
    this.#seq = data.readUInt16BE(0);
    const op = data.readUInt8(2);
    if (this.#dave === null) return;
    this.#dave.onBinary(op, data.subarray(3), [...this.#clients]);
  }

  #onHello(data: Record<string, unknown>): void {
    const interval = data['heartbeat_interval'];
    if (typeof interval !== 'number' || !(interval >= 250 && interval <= 600_000)) {
      this.#options.logger.warn('Voice: Hello carries no usable heartbeat interval.');
      return;
    }
    this.#stopHeartbeat();
    this.#unacked = 0;
    this.#heartbeat = setInterval(() => {
      if (this.#unacked >= 3) {
        // Three beats unanswered: the connection is a zombie; drop it and resume.
        this.#options.logger.warn('Voice: heartbeats unanswered; reconnecting.');
        this.#ws?.terminate();
        return;
      }
      this.#unacked += 1;
      this.#sendJson(VoiceOp.Heartbeat, { t: Date.now(), seq_ack: this.#seq });
    }, interval);
  }

  #onReady(data: Record<string, unknown>): void {
    if (this.#phase !== 'identifying') return;
    const { ssrc, ip, port, modes } = data;
    if (
      !Number.isInteger(ssrc) ||
      (ssrc as number) < 0 ||
      (ssrc as number) > 0xffffffff ||
      typeof ip !== 'string' ||
      !isIPv4(ip) ||
      !Number.isInteger(port) ||
      (port as number) < 1 ||
      (port as number) > 65535 ||
      !Array.isArray(modes)
    ) {
      this.#fail(CallError.SignalingConnectionFailed, 0, 'the voice server sent a malformed Ready');
      return;
    }
    this.#signaled = true;
    this.#options.events.signaling();
    const socket = createSocket('udp4');
    const media: Media = {
      ssrc: ssrc as number,
      ip,
      port: port as number,
      modes: modes.filter((m): m is string => typeof m === 'string'),
      socket,
      keepalive: setInterval(() => {
        this.#keepalive();
      }, KEEPALIVE_INTERVAL_MS),
    };
    this.#media = media;
    this.#phase = 'discovering';
    socket.on('error', (error) => {
      if (this.#media !== media) return;
      this.#fail(CallError.VoiceConnectionFailed, 0, `the media socket failed (${error.message})`);
    });
    socket.on('message', (message: Buffer, from: RemoteInfo) => {
      if (this.#media !== media || from.address !== media.ip || from.port !== media.port) return;
      this.#onPacket(message);
    });
    this.#discoveryTimer = setTimeout(() => {
      this.#discoveryTimer = null;
      this.#fail(
        CallError.VoiceConnectionFailed,
        0,
        `IP discovery got no answer from the media server ${media.ip}:${media.port} within ${IP_DISCOVERY_TIMEOUT_MS / 1000} s (UDP blocked?)`,
      );
    }, IP_DISCOVERY_TIMEOUT_MS);
    const request = Buffer.alloc(IP_DISCOVERY_BYTES);
    request.writeUInt16BE(1, 0);
    request.writeUInt16BE(70, 2);
    request.writeUInt32BE(media.ssrc, 4);
    socket.send(request, media.port, media.ip);
  }

  #onDiscovery(message: Buffer): void {
    const media = this.#media;
    if (media === null || message.length !== IP_DISCOVERY_BYTES || message.readUInt16BE(0) !== 2)
      return;
    if (message.readUInt32BE(4) !== media.ssrc) return;
    const end = message.indexOf(0, 8);
    const address = message.subarray(8, end < 0 || end > 72 ? 72 : end).toString('utf8');
    const port = message.readUInt16BE(72);
    if (!isIPv4(address)) return;
    if (this.#discoveryTimer !== null) clearTimeout(this.#discoveryTimer);
    this.#discoveryTimer = null;
    const mode = chooseTransportMode(media.modes);
    if (mode === null) {
      this.#fail(
        CallError.VoiceConnectionFailed,
        0,
        `the voice server offers no transport encryption this SDK has (${media.modes.join(', ')})`,
      );
      return;
    }
    this.#phase = 'selecting';
    this.#sendJson(VoiceOp.SelectProtocol, { protocol: 'udp', data: { address, port, mode } });
    this.#pendingMode = mode;
  }

  #pendingMode: TransportMode | null = null;

  #onSessionDescription(data: Record<string, unknown>): void {
    if (this.#phase !== 'selecting' || this.#media === null) return;
    const { mode, secret_key: secretKey, dave_protocol_version: daveVersion } = data;
    if (
      mode !== this.#pendingMode ||
      !Array.isArray(secretKey) ||
      secretKey.length !== 32 ||
      !secretKey.every((b) => Number.isInteger(b) && (b as number) >= 0 && (b as number) <= 255)
    ) {
      this.#fail(
        CallError.SignalingConnectionFailed,
        0,
        'the voice server sent a malformed Session Description',
      );
      return;
    }
    if (!Number.isInteger(daveVersion) || (daveVersion as number) < 1) {
      // Calls are end-to-end encrypted only: no audio goes out under transport encryption alone.
      this.#fail(
        CallError.SignalingConnectionFailed,
        0,
        'the voice server offered no end-to-end encryption (DAVE version 0); Guildhall calls are end-to-end encrypted only',
      );
      return;
    }
    const key = Uint8Array.from(secretKey as number[]);
    this.#transport = {
      mode: mode as TransportMode,
      key,
      sender: new RtpSender({
        ssrc: this.#media.ssrc,
        mode: mode as TransportMode,
        key,
        random: randomBits,
      }),
    };
    this.#phase = 'ready';
    this.#dave = new DaveDriver({
      userId: this.#options.userId,
      channelId: this.#options.channelId,
      version: Math.min(daveVersion as number, DaveDriver.maxVersion),
      logger: this.#options.logger,
      send: {
        json: (op, d) => {
          this.#sendJson(op, d);
        },
        binary: (op, payload) => {
          this.#sendBinary(op, payload);
        },
      },
      onEstablished: () => {
        this.#maybeConnected();
      },
    });
    this.#maybeConnected();
  }

  /** Connected once media can flow: the group is established, or nobody else is in the call. */
  #maybeConnected(): void {
    if (
      this.#connected ||
      this.#phase === 'closed' ||
      this.#transport === null ||
      this.#dave === null
    )
      return;
    if (!this.#dave.ready && (this.#clients.size > 0 || this.#options.othersInCall())) return;
    this.#connected = true;
    this.#options.events.connected();
  }

  #onSpeaking(data: Record<string, unknown>): void {
    const { user_id: userId, ssrc, speaking } = data;
    if (!isSnowflake(userId) || userId === this.#options.userId) return;
    if (Number.isInteger(ssrc) && (ssrc as number) > 0 && (ssrc as number) <= 0xffffffff) {
      if (!this.#ssrcUsers.has(ssrc as number) && this.#ssrcUsers.size >= MAX_SSRCS) {
        const oldest = this.#ssrcUsers.keys().next().value;
        if (oldest !== undefined) this.#ssrcUsers.delete(oldest);
      }
      this.#ssrcUsers.set(ssrc as number, userId);
    }
    this.#options.events.speaking(userId, typeof speaking === 'number' && speaking !== 0);
    const held = this.#held.get(ssrc as number);
    if (held !== undefined) {
      this.#held.delete(ssrc as number);
      for (const packet of held) this.#deliver(userId, packet);
    }
  }

  // ── The media socket ──────────────────────────────────────────────────────────────────────

  #onPacket(message: Buffer): void {
    if (this.#phase === 'discovering') {
      this.#onDiscovery(message);
      return;
    }
    if (message.length > MAX_PACKET_BYTES) {
      this.#stats.packetsDropped += 1;
      return;
    }
    const ssrc = rtpSsrc(message);
    if (ssrc === null) return; // keepalive echoes and the like
    const transport = this.#transport;
    const opened = transport === null ? null : openRtp(message, transport.mode, transport.key);
    if (opened === null) {
      this.#stats.packetsDropped += 1;
      return;
    }
    const userId = this.#ssrcUsers.get(ssrc);
    if (userId !== undefined) {
      this.#deliver(userId, opened);
      return;
    }
    const held = this.#held.get(ssrc) ?? [];
    if (
      (held.length === 0 && this.#held.size >= MAX_HELD_SSRCS) ||
      held.length >= MAX_HELD_PER_SSRC
    ) {
      this.#stats.packetsDropped += 1;
      return;
    }
    held.push(opened);
    this.#held.set(ssrc, held);
  }

  /** A sender's packet, DAVE-decrypted and handed to the call (or dropped, and counted). */
  #deliver(userId: string, opened: OpenedRtp): void {
    const frame = this.#dave?.decrypt(userId, opened.payload) ?? null;
    if (frame === null) {
      this.#stats.packetsDropped += 1;
      return;
    }
    this.#stats.framesReceived += 1;
    this.#options.events.frame(userId, frame, {
      ssrc: opened.ssrc,
      sequence: opened.sequence,
      timestamp: opened.timestamp,
    });
  }

  #keepalive(): void {
    const media = this.#media;
    if (media === null) return;
    const packet = Buffer.alloc(8);
    packet.writeUInt32LE(randomBits(32), 0);
    media.socket.send(packet, media.port, media.ip);
  }

  // ── Sending and ending ────────────────────────────────────────────────────────────────────

  #sendJson(op: number, d: unknown): void {
    if (this.#ws?.readyState === WebSocket.OPEN) this.#ws.send(JSON.stringify({ op, d }));
  }

  #sendBinary(op: number, payload: Uint8Array): void {
    if (this.#ws?.readyState !== WebSocket.OPEN) return;
    const frame = Buffer.alloc(1 + payload.length);
    frame[0] = op;
    frame.set(payload, 1);
    this.#ws.send(frame);
  }

  #stopHeartbeat(): void {
    if (this.#heartbeat !== null) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
  }

  #fail(error: CallError, detail: number, reason: string): void {
    if (this.#phase === 'closed') return;
    this.#end();
    this.#options.events.closed(error, detail, reason);
  }

  #end(): void {
    if (this.#phase === 'closed') return;
    this.#phase = 'closed';
    this.#connected = false;
    this.#stopHeartbeat();
    if (this.#retry !== null) clearTimeout(this.#retry);
    if (this.#discoveryTimer !== null) clearTimeout(this.#discoveryTimer);
    this.#retry = null;
    this.#discoveryTimer = null;
    const ws = this.#ws;
    this.#ws = null;
    if (ws !== null) {
      if (ws.readyState === WebSocket.OPEN) ws.close(1000, 'call ended');
      else ws.terminate();
    }
    const media = this.#media;
    this.#media = null;
    if (media !== null) {
      clearInterval(media.keepalive);
      media.socket.close();
    }
    this.#dave?.close();
    this.#dave = null;
    this.#transport = null;
  }
}

function isSnowflake(value: unknown): value is string {
  return typeof value === 'string' && /^\d{1,20}$/.test(value);
}

function randomBits(bits: number): number {
  return bits >= 32 ? randomInt(0, 2 ** 32 - 1) >>> 0 : randomInt(0, 2 ** bits);
}
