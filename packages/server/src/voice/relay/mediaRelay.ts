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
import { createSocket, type Socket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { isIPv4 } from 'node:net';
import { VOICE_ENCRYPTION_MODES, type VoiceEncryptionMode } from '@guildhall/protocol';
import { RelayMembers } from './relayMembers.js';
import {
  DEFAULT_MEDIA_RELAY_OPTIONS,
  type MediaRelayOptions,
  type MediaRelayStats,
} from './relayOptions.js';
import { RelayPackets } from './relayPackets.js';
import { TRANSPORT_KEY_BYTES, TransportCipher } from './transportCrypto.js';
import { VideoFrameGate, type SinkWants } from './videoFrames.js';

/** Kernel socket buffers asked for (Linux caps them at net.core.[rw]mem_max). */
const SOCKET_BUFFER_BYTES = 4 * 1024 * 1024;

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
  readonly #registry: RelayMembers;
  readonly #videoFrames = new VideoFrameGate();
  readonly #packets: RelayPackets;
  #closed: Promise<void> | null = null;

  private constructor(socket: Socket, options: MediaRelayOptions) {
    this.#socket = socket;
    this.ip = options.publicIp;
    this.port = socket.address().port;
    this.#registry = new RelayMembers({
      maxMembersPerCall: options.maxMembersPerCall ?? DEFAULT_MEDIA_RELAY_OPTIONS.maxMembersPerCall,
      maxMembers: options.maxMembers ?? DEFAULT_MEDIA_RELAY_OPTIONS.maxMembers,
    });
    const packets = new RelayPackets({
      socket,
      logger: options.logger,
      clock: options.clock,
      maxPacketBytes: options.maxPacketBytes,
      maxPacketsPerSecond:
        options.maxPacketsPerSecond ?? DEFAULT_MEDIA_RELAY_OPTIONS.maxPacketsPerSecond,
      registry: this.#registry,
      videoFrames: this.#videoFrames,
    });
    this.#packets = packets;
    socket.on('message', (message, remote) => {
      packets.onMessage(message, remote);
    });
    socket.on('error', (err) => {
      packets.countSendError(err);
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
      packetsIn: this.#packets.packetsIn,
      packetsOut: this.#packets.packetsOut,
      dropped: { ...this.#packets.dropped },
    };
  }

  /** Closes the socket; members and calls are forgotten. */
  close(): Promise<void> {
    this.#closed ??= new Promise((resolve) => {
      this.#packets.closed = true;
      this.#registry.clear();
      this.#socket.close(() => {
        resolve();
      });
    });
    return this.#closed;
  }
}
