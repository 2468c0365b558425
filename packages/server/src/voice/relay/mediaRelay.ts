/**
 * The media relay (an SFU over UDP) of end-to-end encrypted voice calls. One UDP socket carries
 * every member of every call on this node. A member, added by the voice gateway at Ready, binds
 * to the address of its IP discovery packet; from then on the relay takes RTP from that address
 * only, with that member's ssrc in the header, removes the transport encryption with the
 * member's key, checks that what is left is still a DAVE frame (or the Opus silence frame), and
 * seals it again for every other member of the call with the receiver's key and nonce counter,
 * keeping the sender's RTP header. Video (a member's stream ssrcs, its negotiated codecs' payload
 * types) goes the same way a whole frame at a time, to the receivers that want it (op 15), once
 * the frame proves to be a DAVE frame (videoFrames.ts). The DAVE layer is never opened: the relay
 * holds no MLS key.
 * Nothing here throws on input from the wire; every refused datagram is counted in `stats()`.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { isIPv4 } from 'node:net';
import {
  RTP_OPUS_PAYLOAD_TYPE,
  VOICE_ENCRYPTION_MODES,
  type VoiceEncryptionMode,
} from '@guildhall/protocol';
import type { Logger } from 'pino';
import type { Clock } from '../../domain/clock.js';
import { discoveryRequestSsrc, discoveryResponse, isDiscoveryRequest } from './ipDiscovery.js';
import { classifyFrame, frameEnd, FrameKind } from './mediaFrame.js';
import { RelayMembers, type Member } from './relayMembers.js';
import {
  VIDEO_RATE_FACTOR,
  VideoFrameGate,
  wantsVideo,
  type SinkWants,
  type VideoPacket,
} from './videoFrames.js';
import {
  DEFAULT_MEDIA_RELAY_OPTIONS,
  RELAY_DROP_REASONS,
  type MediaRelayOptions,
  type MediaRelayStats,
  type RelayDropReason,
} from './relayOptions.js';
import {
  MAX_TRANSPORT_NONCE,
  rtpExtensionBodyBytes,
  rtpsizeHeaderBytes,
  TRANSPORT_KEY_BYTES,
  transportNonceOf,
  TransportCipher,
} from './transportCrypto.js';

/** Kernel socket buffers asked for (Linux caps them at net.core.[rw]mem_max). */
const SOCKET_BUFFER_BYTES = 4 * 1024 * 1024;
const KEEPALIVE_BYTES = 8;
const RATE_WINDOW_MS = 1000;

/**
 * The socket's address lookup: the identity. The relay only ever sends to addresses it received
 * from (IPv4 literals) and binds to a host resolved beforehand, so Node's default (dns.lookup,
 * which answers a literal on the next tick) would only add a deferral to every send.
 */
function literalLookup(
  address: string,
  _family: unknown,
  callback: (err: Error | null, address: string, family: number) => void,
): void {
  callback(null, address, 4);
}

export class MediaRelay {
  /** The address Ready announces. */
  readonly ip: string;
  /** The port the socket is bound to. */
  readonly port: number;

  readonly #socket: Socket;
  readonly #logger: Logger;
  readonly #clock: Clock;
  readonly #maxPacketBytes: number;
  readonly #maxPacketsPerSecond: number;
  readonly #registry: RelayMembers;
  readonly #videoFrames = new VideoFrameGate();
  #packetsIn = 0;
  #packetsOut = 0;
  readonly #dropped = Object.fromEntries(RELAY_DROP_REASONS.map((r) => [r, 0])) as Record<
    RelayDropReason,
    number
  >;
  #closed: Promise<void> | null = null;

  private constructor(socket: Socket, options: MediaRelayOptions) {
    this.#socket = socket;
    this.ip = options.publicIp;
    this.port = socket.address().port;
    this.#logger = options.logger;
    this.#clock = options.clock;
    this.#maxPacketBytes = options.maxPacketBytes;
    this.#registry = new RelayMembers({
      maxMembersPerCall: options.maxMembersPerCall ?? DEFAULT_MEDIA_RELAY_OPTIONS.maxMembersPerCall,
      maxMembers: options.maxMembers ?? DEFAULT_MEDIA_RELAY_OPTIONS.maxMembers,
    });
    this.#maxPacketsPerSecond =
      options.maxPacketsPerSecond ?? DEFAULT_MEDIA_RELAY_OPTIONS.maxPacketsPerSecond;
    socket.on('message', (message, remote) => {
      this.#onMessage(message, remote);
    });
    socket.on('error', (err) => {
      this.#countSendError(err);
    });
  }

  /** Binds the relay's UDP socket (udp4) and answers once it listens. */
  static async listen(options: MediaRelayOptions): Promise<MediaRelay> {
    if (!Number.isInteger(options.maxPacketBytes) || options.maxPacketBytes < 64) {
      throw new TypeError(`maxPacketBytes must be an integer ≥ 64; got ${options.maxPacketBytes}.`);
    }
    if (!isIPv4(options.publicIp)) {
      throw new TypeError(`publicIp must be an IPv4 address; got "${options.publicIp}".`);
    }
    const host = isIPv4(options.host)
      ? options.host
      : (await lookup(options.host, { family: 4 })).address;
    const socket = createSocket({
      type: 'udp4',
      recvBufferSize: SOCKET_BUFFER_BYTES,
      sendBufferSize: SOCKET_BUFFER_BYTES,
      lookup: literalLookup,
    });
    return new Promise((resolve, reject) => {
      const onError = (err: Error): void => {
        socket.close();
        reject(err);
      };
      socket.once('error', onError);
      socket.bind({ address: host, port: options.port }, () => {
        socket.off('error', onError);
        const relay = new MediaRelay(socket, options);
        options.logger.info(
          { host: options.host, port: relay.port, publicIp: relay.ip },
          'voice media relay listening',
        );
        resolve(relay);
      });
    });
  }

  /** Adds a member to a call (at Ready) and gives it a fresh ssrc: random, non-zero, unique. */
  addMember(callId: string, userId: string): { ssrc: number } {
    return { ssrc: this.#registry.add(callId, userId).ssrc };
  }

  /**
   * Gives the member `count` video streams (Identify's `streams`, answered in Ready), each an
   * ssrc and an RTX ssrc of its own; at most four (videoFrames.ts).
   */
  addStreams(ssrc: number, count: number): { ssrc: number; rtxSsrc: number }[] {
    return this.#registry.addStreams(ssrc, count);
  }

  /** The member's video ssrcs (its streams' and their RTX's). */
  videoSsrcsOf(ssrc: number): readonly number[] {
    return this.#registry.member(ssrc)?.videoSsrcs ?? [];
  }

  /** The RTP payload types of the member's video codecs (Select Protocol's `codecs`). */
  setVideoPayloadTypes(ssrc: number, payloadTypes: readonly number[]): void {
    const member = this.#registry.member(ssrc);
    if (member !== undefined) member.videoPayloadTypes = new Set(payloadTypes);
  }

  /** What the member wants to receive of others' video (op 15). Unknown ssrcs are ignored. */
  setSinkWants(ssrc: number, wants: SinkWants): void {
    const member = this.#registry.member(ssrc);
    if (member !== undefined) member.wants = wants;
  }

  /**
   * Gives the member a new 32-byte transport key in `mode` (Select Protocol → Session
   * Description). Both directions start a new nonce sequence under it.
   */
  selectProtocol(ssrc: number, mode: VoiceEncryptionMode): { secretKey: Uint8Array } {
    const member = this.#registry.member(ssrc);
    if (member === undefined) throw new TypeError(`No member with ssrc ${ssrc}.`);
    if (!VOICE_ENCRYPTION_MODES.includes(mode)) {
      throw new TypeError(`Unknown encryption mode "${mode as string}".`);
    }
    const secretKey = randomBytes(TRANSPORT_KEY_BYTES);
    member.cipher = new TransportCipher(mode, secretKey);
    member.sendCounter = 0;
    member.replay.reset();
    return { secretKey: new Uint8Array(secretKey) };
  }

  /** A deafened member receives nothing (it may still send). Unknown ssrcs are ignored. */
  setDeaf(ssrc: number, deaf: boolean): void {
    const member = this.#registry.member(ssrc);
    if (member !== undefined) member.deaf = deaf;
  }

  /** A muted member is heard by nobody (it still receives). Unknown ssrcs are ignored. */
  setMuted(ssrc: number, muted: boolean): void {
    const member = this.#registry.member(ssrc);
    if (member !== undefined) member.muted = muted;
  }

  /** Removes a member and frees its address at once; a call goes with its last member. */
  removeMember(ssrc: number): void {
    for (const video of this.#registry.remove(ssrc)) this.#videoFrames.forget(video);
  }

  stats(): MediaRelayStats {
    return {
      calls: this.#registry.callCount(),
      members: this.#registry.memberCount(),
      packetsIn: this.#packetsIn,
      packetsOut: this.#packetsOut,
      dropped: { ...this.#dropped },
    };
  }

  /** Closes the socket; members and calls are forgotten. */
  close(): Promise<void> {
    this.#closed ??= new Promise((resolve) => {
      this.#registry.clear();
      this.#socket.close(() => {
        resolve();
      });
    });
    return this.#closed;
  }

  #onMessage(message: Buffer, remote: RemoteInfo): void {
    this.#packetsIn += 1;
    if (message.length > this.#maxPacketBytes) {
      this.#dropped.oversize += 1;
    } else if (isDiscoveryRequest(message)) {
      this.#onDiscovery(message, remote);
    } else if (message.length === KEEPALIVE_BYTES) {
      this.#onKeepalive(message, remote);
    } else {
      this.#onMedia(message, remote);
    }
  }

  #onDiscovery(message: Buffer, remote: RemoteInfo): void {
    const ssrc = discoveryRequestSsrc(message);
    if (ssrc === null) {
      this.#dropped.malformed += 1;
      return;
    }
    const member = this.#registry.member(ssrc);
    if (member === undefined) {
      this.#dropped.unknownSsrc += 1;
      return;
    }
    if (member.address === null) {
      if (!this.#registry.bind(member, remote)) {
        this.#dropped.addressInUse += 1;
        return;
      }
    } else if (member.address !== remote.address || member.port !== remote.port) {
      this.#dropped.bindingRefused += 1;
      return;
    } else if (!this.#withinRate(member)) {
      // Answering again is allowed, not answering without end.
      this.#dropped.rateLimited += 1;
      return;
    }
    this.#send(discoveryResponse(ssrc, remote.address, remote.port), member);
  }

  #onKeepalive(message: Buffer, remote: RemoteInfo): void {
    const member = this.#registry.boundTo(remote);
    if (member === undefined) {
      this.#dropped.unbound += 1;
      return;
    }
    if (!this.#withinRate(member)) {
      this.#dropped.rateLimited += 1;
      return;
    }
    this.#send(message, member);
  }

  #onMedia(message: Buffer, remote: RemoteInfo): void {
    const headerBytes = rtpsizeHeaderBytes(message);
    if (headerBytes < 0) {
      this.#dropped.malformed += 1;
      return;
    }
    const ssrc = message.readUInt32BE(8);
    const payloadType = (message[1] ?? 0) & 0x7f;
    const video = payloadType !== RTP_OPUS_PAYLOAD_TYPE;
    const sender = video ? this.#registry.videoOwner(ssrc) : this.#registry.member(ssrc);
    if (video && sender?.videoPayloadTypes.has(payloadType) !== true) {
      this.#dropped.notOpus += 1;
      return;
    }
    if (sender?.port !== remote.port || sender.address !== remote.address) {
      this.#dropped.unbound += 1;
      return;
    }
    const payload = this.#open(sender, message, { headerBytes, video });
    if (payload === null) return;
    const header = message.subarray(0, headerBytes);
    if (video) {
      this.#onVideo(sender, { ssrc, header, payload: payload.bytes }, payload);
      return;
    }
    if (classifyFrame(payload.bytes, payload.start, payload.end) === FrameKind.REFUSED) {
      this.#dropped.notE2ee += 1;
      return;
    }
    for (const receiver of sender.call.members) {
      if (receiver === sender || receiver.deaf) continue;
      this.#forward(receiver, { header, payload: payload.bytes });
    }
  }

  /**
   * The sender's packet with the transport layer off (its frame within `[start, end)`), or null
   * when refused (counted): over its rate, muted, no key, replayed, forged, malformed.
   */
  #open(
    sender: Member,
    message: Buffer,
    q: { headerBytes: number; video: boolean },
  ): { bytes: Buffer; start: number; end: number } | null {
    if (!(q.video ? this.#withinVideoRate(sender) : this.#withinRate(sender))) {
      this.#dropped.rateLimited += 1;
      return null;
    }
    if (sender.muted) {
      this.#dropped.muted += 1;
      return null;
    }
    const cipher = sender.cipher;
    if (cipher === null) {
      this.#dropped.noKey += 1;
      return null;
    }
    const nonce = transportNonceOf(message);
    if (!sender.replay.fresh(nonce)) {
      this.#dropped.replay += 1;
      return null;
    }
    const payload = cipher.open(message, q.headerBytes);
    if (payload === null) {
      this.#dropped.decrypt += 1;
      return null;
    }
    // Only an authenticated packet moves the window: a forgery cannot push real ones out.
    sender.replay.accept(nonce);
    const start = rtpExtensionBodyBytes(message, q.headerBytes);
    const end = start <= payload.length ? frameEnd(message[0] ?? 0, payload, start) : -1;
    if (end < 0) {
      this.#dropped.malformed += 1;
      return null;
    }
    return { bytes: payload, start, end };
  }

  /** A video packet: held until its frame is whole, then the frame to whoever wants it. */
  #onVideo(
    sender: Member,
    packet: VideoPacket & { ssrc: number },
    range: { start: number; end: number },
  ) {
    const { ssrc } = packet;
    const verdict = this.#videoFrames.push(
      ssrc,
      { header: packet.header, payload: packet.payload },
      range,
    );
    if (verdict.kind === 'refused') {
      this.#dropped[verdict.reason] += 1;
      return;
    }
    if (verdict.kind === 'pending') return;
    for (const receiver of sender.call.members) {
      if (receiver === sender || !wantsVideo(receiver.wants, ssrc)) continue;
      for (const each of verdict.packets) this.#forward(receiver, each);
    }
  }

  /** Seals a packet for one receiver under its key and next nonce, keeping the sender's header. */
  #forward(receiver: Member, packet: VideoPacket): void {
    const receiverCipher = receiver.cipher;
    if (receiver.address === null || receiverCipher === null) return;
    if (receiver.sendCounter >= MAX_TRANSPORT_NONCE) {
      this.#dropped.nonceExhausted += 1;
      return;
    }
    receiver.sendCounter += 1;
    this.#send(receiverCipher.seal(packet.header, packet.payload, receiver.sendCounter), receiver);
    this.#packetsOut += 1;
  }

  #withinVideoRate(member: Member): boolean {
    const now = this.#clock.now();
    if (now - member.videoWindowStartMs >= RATE_WINDOW_MS || now < member.videoWindowStartMs) {
      member.videoWindowStartMs = now;
      member.videoWindowPackets = 0;
    }
    member.videoWindowPackets += 1;
    return member.videoWindowPackets <= this.#maxPacketsPerSecond * VIDEO_RATE_FACTOR;
  }

  #withinRate(member: Member): boolean {
    const now = this.#clock.now();
    if (now - member.rateWindowStartMs >= RATE_WINDOW_MS || now < member.rateWindowStartMs) {
      member.rateWindowStartMs = now;
      member.rateWindowPackets = 0;
    }
    member.rateWindowPackets += 1;
    return member.rateWindowPackets <= this.#maxPacketsPerSecond;
  }

  #send(packet: Buffer, to: Member): void {
    if (to.address === null || this.#closed !== null) return;
    try {
      this.#socket.send(packet, to.port, to.address);
    } catch (err) {
      this.#countSendError(err);
    }
  }

  #countSendError(err: unknown): void {
    this.#dropped.sendError += 1;
    const count = this.#dropped.sendError;
    // The first error, then one line per 10,000: a broken peer must not flood the log.
    if (count === 1 || count % 10_000 === 0) {
      this.#logger.warn({ err, count }, 'voice media relay: send failed');
    }
  }
}
