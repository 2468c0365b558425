/**
 * @module voice/relay/relayPackets: what the media relay does with each datagram its socket takes
 * (voice/relay/mediaRelay.ts says why): IP discovery binds a member to its address, a keepalive is
 * echoed, and media is opened with the sender's transport key and sealed again for each receiver;
 * every refusal is counted by its reason.
 */
import type { RemoteInfo, Socket } from 'node:dgram';
import { RTP_OPUS_PAYLOAD_TYPE } from '@guildhall/protocol';
import type { Logger } from 'pino';
import type { Clock } from '../../domain/clock.js';
import { discoveryRequestSsrc, discoveryResponse, isDiscoveryRequest } from './ipDiscovery.js';
import { classifyFrame, frameEnd, FrameKind } from './mediaFrame.js';
import type { Member, RelayMembers } from './relayMembers.js';
import { RELAY_DROP_REASONS, type RelayDropReason } from './relayOptions.js';
import {
  MAX_TRANSPORT_NONCE,
  rtpExtensionBodyBytes,
  rtpsizeHeaderBytes,
  transportNonceOf,
} from './transportCrypto.js';
import {
  VIDEO_RATE_FACTOR,
  wantsVideo,
  type VideoFrameGate,
  type VideoPacket,
} from './videoFrames.js';

const KEEPALIVE_BYTES = 8;
const RATE_WINDOW_MS = 1000;

/** The datagram path of one relay, with its counters. */
export class RelayPackets {
  packetsIn = 0;
  packetsOut = 0;
  readonly dropped = Object.fromEntries(RELAY_DROP_REASONS.map((r) => [r, 0])) as Record<
    RelayDropReason,
    number
  >;
  /** Set once the relay closes: nothing is sent from then on. */
  closed = false;

  readonly #socket: Socket;
  readonly #logger: Logger;
  readonly #clock: Clock;
  readonly #maxPacketBytes: number;
  readonly #maxPacketsPerSecond: number;
  readonly #registry: RelayMembers;
  readonly #videoFrames: VideoFrameGate;

  constructor(deps: {
    socket: Socket;
    logger: Logger;
    clock: Clock;
    maxPacketBytes: number;
    maxPacketsPerSecond: number;
    registry: RelayMembers;
    videoFrames: VideoFrameGate;
  }) {
    this.#socket = deps.socket;
    this.#logger = deps.logger;
    this.#clock = deps.clock;
    this.#maxPacketBytes = deps.maxPacketBytes;
    this.#maxPacketsPerSecond = deps.maxPacketsPerSecond;
    this.#registry = deps.registry;
    this.#videoFrames = deps.videoFrames;
  }

  /** One datagram from the socket. */
  onMessage(message: Buffer, remote: RemoteInfo): void {
    this.packetsIn += 1;
    if (message.length > this.#maxPacketBytes) {
      this.dropped.oversize += 1;
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
      this.dropped.malformed += 1;
      return;
    }
    const member = this.#registry.member(ssrc);
    if (member === undefined) {
      this.dropped.unknownSsrc += 1;
      return;
    }
    if (member.address === null) {
      if (!this.#registry.bind(member, remote)) {
        this.dropped.addressInUse += 1;
        return;
      }
    } else if (member.address !== remote.address || member.port !== remote.port) {
      this.dropped.bindingRefused += 1;
      return;
    } else if (!this.#withinRate(member)) {
      // Answering again is allowed, not answering without end.
      this.dropped.rateLimited += 1;
      return;
    }
    this.#send(discoveryResponse(ssrc, remote.address, remote.port), member);
  }

  #onKeepalive(message: Buffer, remote: RemoteInfo): void {
    const member = this.#registry.boundTo(remote);
    if (member === undefined) {
      this.dropped.unbound += 1;
      return;
    }
    if (!this.#withinRate(member)) {
      this.dropped.rateLimited += 1;
      return;
    }
    this.#send(message, member);
  }

  #onMedia(message: Buffer, remote: RemoteInfo): void {
    const headerBytes = rtpsizeHeaderBytes(message);
    if (headerBytes < 0) {
      this.dropped.malformed += 1;
      return;
    }
    const ssrc = message.readUInt32BE(8);
    const payloadType = (message[1] ?? 0) & 0x7f;
    const video = payloadType !== RTP_OPUS_PAYLOAD_TYPE;
    const sender = video ? this.#registry.videoOwner(ssrc) : this.#registry.member(ssrc);
    if (video && sender?.videoPayloadTypes.has(payloadType) !== true) {
      this.dropped.notOpus += 1;
      return;
    }
    if (sender?.port !== remote.port || sender.address !== remote.address) {
      this.dropped.unbound += 1;
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
      this.dropped.notE2ee += 1;
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
      this.dropped.rateLimited += 1;
      return null;
    }
    if (sender.muted) {
      this.dropped.muted += 1;
      return null;
    }
    const cipher = sender.cipher;
    if (cipher === null) {
      this.dropped.noKey += 1;
      return null;
    }
    const nonce = transportNonceOf(message);
    if (!sender.replay.fresh(nonce)) {
      this.dropped.replay += 1;
      return null;
    }
    const payload = cipher.open(message, q.headerBytes);
    if (payload === null) {
      this.dropped.decrypt += 1;
      return null;
    }
    // Only an authenticated packet moves the window: a forgery cannot push real ones out.
    sender.replay.accept(nonce);
    const start = rtpExtensionBodyBytes(message, q.headerBytes);
    const end = start <= payload.length ? frameEnd(message[0] ?? 0, payload, start) : -1;
    if (end < 0) {
      this.dropped.malformed += 1;
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
      this.dropped[verdict.reason] += 1;
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
      this.dropped.nonceExhausted += 1;
      return;
    }
    receiver.sendCounter += 1;
    this.#send(receiverCipher.seal(packet.header, packet.payload, receiver.sendCounter), receiver);
    this.packetsOut += 1;
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
    if (to.address === null || this.closed) return;
    try {
      this.#socket.send(packet, to.port, to.address);
    } catch (err) {
      this.countSendError(err);
    }
  }

  /** A send failed (or the socket reported an error): counted, and logged now and then. */
  countSendError(err: unknown): void {
    this.dropped.sendError += 1;
    const count = this.dropped.sendError;
    // The first error, then one line per 10,000: a broken peer must not flood the log.
    if (count === 1 || count % 10_000 === 0) {
      this.#logger.warn({ err, count }, 'voice media relay: send failed');
    }
  }
}
