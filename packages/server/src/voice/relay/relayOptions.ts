/**
 * The media relay's options, defaults and counters (mediaRelay.ts).
 *
 * @module
 */
import type { Logger } from 'pino';
import type { Clock } from '../../domain/clock.js';

/** Why the relay dropped a datagram (the keys of `stats().dropped`). */
export const RELAY_DROP_REASONS = [
  /** Larger than `maxPacketBytes`. */
  'oversize',
  /** Not a discovery request, a keepalive or an `_rtpsize` RTP packet; or a bad length field. */
  'malformed',
  /**
   * RTP whose payload type is not Opus on an audio ssrc, nor one of the member's negotiated video
   * codecs on its video ssrc (RTCP, RTX).
   */
  'notOpus',
  /** Discovery for an ssrc the relay does not hold. */
  'unknownSsrc',
  /** A keepalive or RTP from an address no member is bound to, or RTP naming another's ssrc. */
  'unbound',
  /** Discovery for a member already bound to another address. */
  'bindingRefused',
  /** Discovery from an address another member is bound to. */
  'addressInUse',
  /** Over the member's packets per second. */
  'rateLimited',
  /** From a member the platform mutes (server mute, a stage's audience). */
  'muted',
  /** RTP from a member that has no transport key yet (before Select Protocol). */
  'noKey',
  /** A nonce counter seen already, or too old to tell. */
  'replay',
  /** Did not authenticate under the member's key. */
  'decrypt',
  /** Decrypted, but not a DAVE frame nor the silence frame: plaintext media is never relayed. */
  'notE2ee',
  /** A video frame cut short by the next one, or over the frame limits: it cannot be checked. */
  'incompleteFrame',
  /** A receiver whose nonce counter is used up (it must select a protocol again). */
  'nonceExhausted',
  /** The socket refused to send. */
  'sendError',
] as const;
export type RelayDropReason = (typeof RELAY_DROP_REASONS)[number];

/** What `MediaRelay.stats()` answers. */
export interface MediaRelayStats {
  calls: number;
  members: number;
  /** Datagrams received. */
  packetsIn: number;
  /** Media packets sent to receivers (discovery answers and keepalive echoes not included). */
  packetsOut: number;
  dropped: Record<RelayDropReason, number>;
}

export interface MediaRelayOptions {
  /** Where the socket binds. */
  host: string;
  /** The UDP port (0: any free one; `port` then tells which). */
  port: number;
  /** The IPv4 address Ready announces. */
  publicIp: string;
  /** Larger datagrams are dropped. */
  maxPacketBytes: number;
  logger: Logger;
  clock: Clock;
  /** Members of one call; the gateway refuses more first. */
  maxMembersPerCall?: number;
  /** Members on this relay, all calls together. */
  maxMembers?: number;
  /** Datagrams a member may send per second, all kinds (Opus every 20 ms is 50). */
  maxPacketsPerSecond?: number;
}

export const DEFAULT_MEDIA_RELAY_OPTIONS = {
  maxMembersPerCall: 99,
  maxMembers: 10_000,
  maxPacketsPerSecond: 200,
} as const satisfies Partial<MediaRelayOptions>;
