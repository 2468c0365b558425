/**
 * The state a DaveCall keeps per member, leaf, batch of proposals and transition, the messages
 * it returns, and the small pure helpers around them (daveCall.ts, daveBatches.ts and
 * daveTransitions.ts hold the rules).
 */
import { DAVE_PROTOCOL_VERSION, VoiceOpcodes } from '@guildhall/protocol';
import type { KeyPackage } from './mls.js';
import { DaveProtocolError, TlsWriter, bytesEqual } from './tls.js';

/** A message for the voice gateway to send, as JSON (`json` is the `d`) or as a binary frame. */
export interface DaveMessage {
  to: readonly string[];
  op: number;
  json?: unknown;
  /** The payload after the opcode byte (the gateway adds the sequence number and opcode). */
  binary?: Uint8Array;
}

export const OP = {
  EXECUTE_TRANSITION: VoiceOpcodes.DAVE_EXECUTE_TRANSITION,
  PREPARE_EPOCH: VoiceOpcodes.DAVE_PREPARE_EPOCH,
  EXTERNAL_SENDER: VoiceOpcodes.DAVE_MLS_EXTERNAL_SENDER,
  PROPOSALS: VoiceOpcodes.DAVE_MLS_PROPOSALS,
  ANNOUNCE_COMMIT: VoiceOpcodes.DAVE_MLS_ANNOUNCE_COMMIT_TRANSITION,
  WELCOME: VoiceOpcodes.DAVE_MLS_WELCOME,
} as const;

export type MemberState =
  /** Waiting for its (next) key package. */
  | 'joining'
  /** Key package in hand; it will be proposed with the next batch. */
  | 'pending'
  /** Its Add is in the current batch. */
  | 'proposed'
  /** Holds a leaf of the group. */
  | 'inGroup';

export interface Member {
  userId: string;
  state: MemberState;
  keyPackage: KeyPackage | null;
  leaf: number | null;
}

export type Proposal =
  | { kind: 'add'; ref: Uint8Array; userId: string; keyPackage: KeyPackage }
  | { kind: 'remove'; ref: Uint8Array; leaf: number };

export interface Leaf {
  userId: string;
  keyPackage: KeyPackage;
}

export interface Group {
  epoch: bigint;
  leaves: Map<number, Leaf>;
  /** Leaves whose user left or re-initialised: the next batch proposes their removal. */
  staleLeaves: Set<number>;
  /** The batch of the current epoch, by ref (hex); empty when none is out. */
  batch: Map<string, Proposal>;
  batchSentAtMs: number;
}

export interface Transition {
  /** The member (this session of the user) whose commit it is. */
  committer: Member;
  recipients: Set<string>;
  awaiting: Set<string>;
  /** Recipients other than the committer, and those of them that failed it (op 31). */
  others: number;
  failed: Set<string>;
  deadlineMs: number;
}

/** Op 24 with epoch 1: the client re-initialises and sends a new key package. */
export const PREPARE_NEW_GROUP = { protocol_version: DAVE_PROTOCOL_VERSION, epoch: 1 } as const;
export const MAX_U16 = 0xffff;
export const MAX_RETIRED_REFS = 4096;

export function sharesKeys(a: KeyPackage, b: KeyPackage): boolean {
  const keysA = [a.initKey, a.leafNode.encryptionKey, a.leafNode.signatureKey];
  const keysB = [b.initKey, b.leafNode.encryptionKey, b.leafNode.signatureKey];
  return keysA.some((x) => keysB.some((y) => bytesEqual(x, y)));
}

export function checkTransitionId(transitionId: number): void {
  if (!Number.isInteger(transitionId) || transitionId < 0 || transitionId > MAX_U16) {
    throw new DaveProtocolError('transition_id is not a u16');
  }
}

/** A snowflake as u64 big-endian: DAVE's group id and credential identity. */
export function u64Bytes(id: string, what: string): Uint8Array {
  if (!/^\d{1,20}$/.test(id) || BigInt(id) > 0xffff_ffff_ffff_ffffn) {
    throw new TypeError(`${what} is not a u64 snowflake`);
  }
  return new TlsWriter().u64(BigInt(id)).finish();
}
