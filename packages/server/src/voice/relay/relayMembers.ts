/**
 * The media relay's members (relay/mediaRelay.ts): each call's members, every ssrc the relay
 * gave (a member's audio ssrc, its video streams' and their RTX's, all random, non-zero and
 * unique), and the address each member is bound to. The limits on members per call and per
 * node hold here.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { ReplayWindow } from './replayWindow.js';
import type { TransportCipher } from './transportCrypto.js';
import { MAX_VIDEO_STREAMS, WANTS_EVERYTHING, type SinkWants } from './videoFrames.js';

export interface Call {
  readonly id: string;
  readonly members: Member[];
}

export interface Member {
  readonly ssrc: number;
  readonly userId: string;
  readonly call: Call;
  cipher: TransportCipher | null;
  /** The bound remote address (null until IP discovery). */
  address: string | null;
  port: number;
  bindingKey: string | null;
  deaf: boolean;
  /** Muted by the platform (server mute, stage audience): what it sends goes nowhere. */
  muted: boolean;
  /** The last nonce counter used toward this member under its key. */
  sendCounter: number;
  readonly replay: ReplayWindow;
  rateWindowStartMs: number;
  rateWindowPackets: number;
  /** Its video streams' ssrcs (each stream's and its RTX's), given at Ready. */
  readonly videoSsrcs: number[];
  /** The RTP payload types of the video codecs it negotiated (Select Protocol). */
  videoPayloadTypes: ReadonlySet<number>;
  /** What it wants to receive (op 15). */
  wants: SinkWants;
  videoWindowStartMs: number;
  videoWindowPackets: number;
}

const bindingKeyOf = (address: string, port: number): string => `${address}:${port}`;

export class RelayMembers {
  readonly #limits: { maxMembersPerCall: number; maxMembers: number };
  readonly #members = new Map<number, Member>();
  readonly #bindings = new Map<string, Member>();
  readonly #calls = new Map<string, Call>();
  /** Video ssrcs → their member. */
  readonly #videoOwners = new Map<number, Member>();

  constructor(limits: { maxMembersPerCall: number; maxMembers: number }) {
    this.#limits = limits;
  }

  member(ssrc: number): Member | undefined {
    return this.#members.get(ssrc);
  }

  /** The member a video (or RTX) ssrc belongs to. */
  videoOwner(ssrc: number): Member | undefined {
    return this.#videoOwners.get(ssrc);
  }

  /** The member bound to an address. */
  boundTo(remote: { address: string; port: number }): Member | undefined {
    return this.#bindings.get(bindingKeyOf(remote.address, remote.port));
  }

  /** Binds the member to the address of its IP discovery; false when another holds it. */
  bind(member: Member, remote: { address: string; port: number }): boolean {
    const key = bindingKeyOf(remote.address, remote.port);
    if (this.#bindings.has(key)) return false;
    member.address = remote.address;
    member.port = remote.port;
    member.bindingKey = key;
    this.#bindings.set(key, member);
    return true;
  }

  callCount(): number {
    return this.#calls.size;
  }

  memberCount(): number {
    return this.#members.size;
  }

  /** Adds a member to a call (at Ready) and gives it a fresh ssrc: random, non-zero, unique. */
  add(callId: string, userId: string): Member {
    if (this.#members.size >= this.#limits.maxMembers) {
      throw new RangeError(`The media relay holds ${this.#limits.maxMembers} members already.`);
    }
    let call = this.#calls.get(callId);
    if (call !== undefined && call.members.length >= this.#limits.maxMembersPerCall) {
      throw new RangeError(`Call ${callId} has ${this.#limits.maxMembersPerCall} members already.`);
    }
    const ssrc = this.#freshSsrc();
    if (call === undefined) {
      call = { id: callId, members: [] };
      this.#calls.set(callId, call);
    }
    const member: Member = {
      ssrc,
      userId,
      call,
      cipher: null,
      address: null,
      port: 0,
      bindingKey: null,
      deaf: false,
      muted: false,
      sendCounter: 0,
      replay: new ReplayWindow(),
      rateWindowStartMs: 0,
      rateWindowPackets: 0,
      videoSsrcs: [],
      videoPayloadTypes: new Set(),
      wants: WANTS_EVERYTHING,
      videoWindowStartMs: 0,
      videoWindowPackets: 0,
    };
    call.members.push(member);
    this.#members.set(ssrc, member);
    return member;
  }

  /** A random ssrc, non-zero, held by no member nor stream. */
  #freshSsrc(): number {
    let ssrc = 0;
    while (ssrc === 0 || this.#members.has(ssrc) || this.#videoOwners.has(ssrc)) {
      ssrc = randomBytes(4).readUInt32BE(0);
    }
    return ssrc;
  }

  /**
   * Gives the member `count` video streams (Identify's `streams`, answered in Ready), each an
   * ssrc and an RTX ssrc of its own; at most {@link MAX_VIDEO_STREAMS}.
   */
  addStreams(ssrc: number, count: number): { ssrc: number; rtxSsrc: number }[] {
    const member = this.#members.get(ssrc);
    if (member === undefined) throw new TypeError(`No member with ssrc ${ssrc}.`);
    if (member.videoSsrcs.length / 2 + count > MAX_VIDEO_STREAMS) {
      throw new RangeError(`A member has at most ${MAX_VIDEO_STREAMS} video streams.`);
    }
    return Array.from({ length: count }, () => {
      const pair = { ssrc: this.#freshSsrc(), rtxSsrc: 0 };
      this.#videoOwners.set(pair.ssrc, member);
      pair.rtxSsrc = this.#freshSsrc();
      this.#videoOwners.set(pair.rtxSsrc, member);
      member.videoSsrcs.push(pair.ssrc, pair.rtxSsrc);
      return pair;
    });
  }

  /**
   * Removes a member and frees its address and ssrcs at once; a call goes with its last member.
   * Returns the video ssrcs it held.
   */
  remove(ssrc: number): readonly number[] {
    const member = this.#members.get(ssrc);
    if (member === undefined) return [];
    this.#members.delete(ssrc);
    if (member.bindingKey !== null) this.#bindings.delete(member.bindingKey);
    for (const video of member.videoSsrcs) this.#videoOwners.delete(video);
    member.cipher = null;
    const { call } = member;
    const index = call.members.indexOf(member);
    if (index !== -1) call.members.splice(index, 1);
    if (call.members.length === 0) this.#calls.delete(call.id);
    return member.videoSsrcs;
  }

  clear(): void {
    this.#members.clear();
    this.#videoOwners.clear();
    this.#bindings.clear();
    this.#calls.clear();
  }
}
