/**
 * The media side of a Node voice connection (nodeVoice.ts): the UDP media socket (Ready's address,
 * IP discovery, keepalives) and the other members as the media sees them (`VoiceReceiver`): who is
 * connected (Clients Connect/Disconnect), whose each ssrc is (Speaking for audio, Video for
 * video), and their packets, held until named, then decrypted and handed to the call.
 *
 * @module
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { randomInt } from 'node:crypto';
import { isIPv4 } from 'node:net';
import type { VoiceConnectOptions, VoiceConnectionStats } from '../voiceTransport.js';
import { VoiceOp } from './nodeVoiceSocket.js';
import {
  RTP_OPUS_PAYLOAD_TYPE,
  openRtp,
  rtpSsrc,
  type OpenedRtp,
  type TransportMode,
} from './nodeVoiceRtp.js';
import { MAX_VIDEO_FRAME_PACKETS } from '../voiceValues.js';
import { VP8_PAYLOAD_TYPE, readyStreams, type OwnStream } from './nodeVoiceVideo.js';
import { VideoReceiver } from './nodeVoiceVideoReceive.js';

const IP_DISCOVERY_BYTES = 74;
const IP_DISCOVERY_TIMEOUT_MS = 5000;
const KEEPALIVE_INTERVAL_MS = 5000;
/** Other members this client keeps track of at most (Clients Connect). */
const MAX_CLIENTS = 1024;
/** The biggest media packet accepted. */
const MAX_PACKET_BYTES = 2048;
/** Known senders (ssrc → user) kept at most. */
const MAX_SSRCS = 1024;
/**
 * Packets of senders not yet named by Speaking (5) or Video (12), which travel over the WebSocket
 * and may arrive after a burst's first packets: held (authenticated) until they do, this many at
 * most.
 */
const MAX_HELD_SSRCS = 4;
/** A key frame's packets (a video frame spans up to MAX_VIDEO_FRAME_PACKETS). */
const MAX_HELD_PER_SSRC = MAX_VIDEO_FRAME_PACKETS;

/** Where Ready (2) says to send media, and the transport encryptions it offers. */
export interface MediaAddress {
  ssrc: number;
  ip: string;
  port: number;
  modes: string[];
  /** The player's video streams, each with its ssrcs. */
  streams: OwnStream[];
}

/** The transport encryption Session Description (4) set up. */
export interface Transport {
  mode: TransportMode;
  key: Uint8Array;
}

/** The counts the receiving side keeps. */
type ReceiveStats = Pick<
  VoiceConnectionStats,
  'framesReceived' | 'videoFramesReceived' | 'packetsDropped'
>;

/** What the received packets need from the connection. */
export interface ReceiveHooks {
  /** The transport encryption, once set up. */
  transport: () => Transport | null;
  /** DAVE's decryption of a sender's audio or video frame (null: it could not). */
  decrypt: (userId: string, payload: Uint8Array, video: boolean) => Uint8Array | null;
  /** Op 15 (Media Sink Wants) to send: what the player wants of the others' video. */
  sinkWants: (wants: Record<string, number>) => void;
  /** A member disconnected from the voice server (Connected may now be due). */
  left: () => void;
}

function isSnowflake(value: unknown): value is string {
  return typeof value === 'string' && /^\d{1,20}$/.test(value);
}

/** Random bits for RTP headers and keepalives. */
export function randomBits(bits: number): number {
  return bits >= 32 ? randomInt(0, 2 ** 32 - 1) >>> 0 : randomInt(0, 2 ** bits);
}

/** Ready's (2) media address, or null when malformed. */
export function readyAddress(data: Record<string, unknown>): MediaAddress | null {
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
    return null;
  }
  const offered = modes.filter((m): m is string => typeof m === 'string');
  return {
    ssrc: ssrc as number,
    ip,
    port: port as number,
    modes: offered,
    streams: readyStreams(data),
  };
}

/** The other members of the call, and their packets. */
export class VoiceReceiver {
  readonly #options: VoiceConnectOptions;
  readonly #stats: ReceiveStats;
  readonly #hooks: ReceiveHooks;
  /** Others connected to the voice server (11/13). */
  readonly #clients = new Set<string>();
  readonly #ssrcUsers = new Map<number, string>();
  readonly #held = new Map<number, OpenedRtp[]>();
  readonly video: VideoReceiver;

  constructor(options: VoiceConnectOptions, stats: ReceiveStats, hooks: ReceiveHooks) {
    this.#options = options;
    this.#stats = stats;
    this.#hooks = hooks;
    this.video = new VideoReceiver(options.userId, () => {
      this.#stats.packetsDropped += 1;
    });
  }

  /** Whether anyone else is connected to the voice server. */
  get hasClients(): boolean {
    return this.#clients.size > 0;
  }

  clientIds(): string[] {
    return [...this.#clients];
  }

  /** Whether the player receives a member's video: op 15 when that changed what it wants. */
  setVideoWanted(userId: string, wanted: boolean): void {
    const wants = this.video.setWanted(userId, wanted);
    if (wants !== null) this.#hooks.sinkWants(wants);
  }

  /** Says op 15 again (the voice WebSocket came back) when the player narrowed what it wants. */
  repeatWants(): void {
    if (this.video.narrowed) this.#hooks.sinkWants(this.video.sinkWants());
  }

  /** Speaking (5), Video (12), Clients Connect (11) and Client Disconnect (13). */
  onJson(op: number, data: Record<string, unknown>): void {
    const events = this.#options.events;
    if (op === VoiceOp.Speaking) {
      this.#onSpeaking(data);
    } else if (op === VoiceOp.Video) {
      this.#onVideo(data);
    } else if (op === VoiceOp.ClientsConnect) {
      const ids = Array.isArray(data['user_ids']) ? data['user_ids'].filter(isSnowflake) : [];
      const added = ids.filter((id) => id !== this.#options.userId && !this.#clients.has(id));
      for (const id of added) if (this.#clients.size < MAX_CLIENTS) this.#clients.add(id);
      if (added.length > 0) events.clients(added, true);
    } else if (op === VoiceOp.ClientDisconnect) {
      const id = data['user_id'];
      if (isSnowflake(id) && this.#clients.delete(id)) {
        for (const [ssrc, user] of this.#ssrcUsers) if (user === id) this.#ssrcUsers.delete(ssrc);
        this.video.forget(id);
        events.clients([id], false);
        this.#hooks.left();
      }
    }
  }

  /** A media packet (not IP discovery's): opened, then delivered or held. */
  receive(message: Buffer): void {
    if (message.length > MAX_PACKET_BYTES) {
      this.#stats.packetsDropped += 1;
      return;
    }
    const ssrc = rtpSsrc(message);
    if (ssrc === null) return; // keepalive echoes and the like
    const transport = this.#hooks.transport();
    const opened = transport === null ? null : openRtp(message, transport.mode, transport.key);
    if (opened === null) {
      this.#stats.packetsDropped += 1;
      return;
    }
    const video = opened.payloadType === VP8_PAYLOAD_TYPE;
    if (!video && opened.payloadType !== RTP_OPUS_PAYLOAD_TYPE) {
      this.#stats.packetsDropped += 1;
      return;
    }
    const userId = video ? this.video.owner(ssrc) : this.#ssrcUsers.get(ssrc);
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

  /** Speaking (5) names the sender of an ssrc: its held packets go to the call. */
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
    this.#release(ssrc as number, userId);
  }

  /** Video (12) names a member's streams: the call hears what it sends, held packets go on. */
  #onVideo(data: Record<string, unknown>): void {
    const named = this.video.onVideo(data);
    if (named === null) return;
    // A member the player does not want: its new ssrcs are refused too.
    if (this.video.unwanted(named.userId)) this.#hooks.sinkWants(this.video.sinkWants());
    this.#options.events.videoStreams(named.userId, named.streams);
    for (const ssrc of named.ssrcs) this.#release(ssrc, named.userId);
  }

  /** The packets held for an ssrc now named: to the call. */
  #release(ssrc: number, userId: string): void {
    const held = this.#held.get(ssrc);
    if (held === undefined) return;
    this.#held.delete(ssrc);
    for (const packet of held) this.#deliver(userId, packet);
  }

  /** A sender's packet, DAVE-decrypted and handed to the call (or dropped, and counted). */
  #deliver(userId: string, opened: OpenedRtp): void {
    if (opened.payloadType === VP8_PAYLOAD_TYPE) {
      this.#deliverVideo(opened);
      return;
    }
    const frame = this.#hooks.decrypt(userId, opened.payload, false);
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

  /** A video packet: once its frame is whole, the frame decrypted and handed to the call. */
  #deliverVideo(opened: OpenedRtp): void {
    const gathered = this.video.push(opened);
    if (gathered === null) return;
    const frame = this.#hooks.decrypt(gathered.userId, gathered.daveFrame, true);
    if (frame === null) {
      this.#stats.packetsDropped += 1;
      return;
    }
    this.#stats.videoFramesReceived += 1;
    this.#options.events.videoFrame(gathered.userId, frame, {
      ssrc: gathered.ssrc,
      stream: gathered.stream,
      timestamp: gathered.timestamp,
      // VP8's frame tag: P, its lowest bit, is 0 on a key frame (RFC 6386 §9.1).
      keyframe: ((frame[0] ?? 1) & 0x01) === 0,
    });
  }
}

/** What the media socket tells its connection. */
export interface MediaSocketHooks {
  /** IP discovery answered: the address and port the media server sees. */
  discovered: (address: string, port: number) => void;
  /** The socket failed, or IP discovery got no answer. */
  failed: (reason: string) => void;
}

/** The UDP socket to the media server: IP discovery first, then media, with keepalives. */
export class MediaSocket {
  readonly address: MediaAddress;
  readonly #socket: Socket;
  readonly #keepalive: ReturnType<typeof setInterval>;
  #discoveryTimer: ReturnType<typeof setTimeout> | null = null;
  #discovering = true;
  #closed = false;

  constructor(address: MediaAddress, receiver: VoiceReceiver, hooks: MediaSocketHooks) {
    this.address = address;
    const socket = createSocket('udp4');
    this.#socket = socket;
    this.#keepalive = setInterval(() => {
      const packet = Buffer.alloc(8);
      packet.writeUInt32LE(randomBits(32), 0);
      this.send(packet);
    }, KEEPALIVE_INTERVAL_MS);
    socket.on('error', (error) => {
      if (this.#closed) return;
      hooks.failed(`the media socket failed (${error.message})`);
    });
    socket.on('message', (message: Buffer, from: RemoteInfo) => {
      if (this.#closed || from.address !== address.ip || from.port !== address.port) return;
      if (this.#discovering) this.#onDiscovery(message, hooks);
      else receiver.receive(message);
    });
    this.#discoveryTimer = setTimeout(() => {
      this.#discoveryTimer = null;
      hooks.failed(
        `IP discovery got no answer from the media server ${address.ip}:${address.port} within ${IP_DISCOVERY_TIMEOUT_MS / 1000} s (UDP blocked?)`,
      );
    }, IP_DISCOVERY_TIMEOUT_MS);
    const request = Buffer.alloc(IP_DISCOVERY_BYTES);
    request.writeUInt16BE(1, 0);
    request.writeUInt16BE(70, 2);
    request.writeUInt32BE(address.ssrc, 4);
    this.send(request);
  }

  send(packet: Uint8Array): void {
    this.#socket.send(packet, this.address.port, this.address.ip);
  }

  close(): void {
    this.#closed = true;
    if (this.#discoveryTimer !== null) clearTimeout(this.#discoveryTimer);
    this.#discoveryTimer = null;
    clearInterval(this.#keepalive);
    this.#socket.close();
  }

  #onDiscovery(message: Buffer, hooks: MediaSocketHooks): void {
    if (message.length !== IP_DISCOVERY_BYTES || message.readUInt16BE(0) !== 2) return;
    if (message.readUInt32BE(4) !== this.address.ssrc) return;
    const end = message.indexOf(0, 8);
    const address = message.subarray(8, end < 0 || end > 72 ? 72 : end).toString('utf8');
    const port = message.readUInt16BE(72);
    if (!isIPv4(address)) return;
    if (this.#discoveryTimer !== null) clearTimeout(this.#discoveryTimer);
    this.#discoveryTimer = null;
    this.#discovering = false;
    hooks.discovered(address, port);
  }
}
