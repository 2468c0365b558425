/**
 * @module voice/dave/daveBatches: a DaveCall's group and its batches of proposals: forming the
 * group around its first member with a key package, proposing the adds and removes of the next
 * epoch one batch at a time, withdrawing a batch, and re-forming the group when it cannot go on
 * (voice/dave/daveCall.ts says why each rule holds).
 */
import type { Clock } from '../../domain/clock.js';
import {
  MAX_RETIRED_REFS,
  OP,
  PREPARE_NEW_GROUP,
  sharesKeys,
  type DaveMessage,
  type Group,
  type Member,
  type Transition,
} from './daveState.js';
import {
  addProposal,
  proposalsPayload,
  removeProposal,
  revokePayload,
  type ExternalSender,
} from './externalSender.js';
import type { KeyPackage } from './mls.js';
import { DaveProtocolError, toHex } from './tls.js';

/** What one call keeps; its DaveCall and the modules of its rules share it. */
export interface DaveCallState {
  readonly clock: Clock;
  readonly transitionTimeoutMs: number;
  readonly groupId: Uint8Array;
  readonly externalSender: ExternalSender;
  /** In order of arrival: the earliest pending member becomes the next creator. */
  readonly members: Map<string, Member>;
  group: Group | null;
  readonly transitions: Map<number, Transition>;
  lastTransitionId: number;
  /**
   * Refs withdrawn since the last commit (revoked, or dropped with a group that was started
   * over): a commit naming one is stale, not malformed.
   */
  readonly retiredRefs: Set<string>;
}

/** The group and batch rules of one call's state. */
export function createDaveBatches(s: DaveCallState) {
  /** A member's leaf turns stale, or its Add is withdrawn; it keeps its place in the call. */
  const leaveGroup = (member: Member, out: DaveMessage[]): void => {
    const group = s.group;
    if (member.state === 'proposed' && group) {
      member.state = 'pending';
      revokeBatch(group, out);
    } else if (member.state === 'inGroup' && group && member.leaf !== null) {
      // Removed by the next batch; if nobody is left to commit, `progress` starts over.
      group.staleLeaves.add(member.leaf);
    }
    member.leaf = null;
    if (member.state === 'inGroup') member.state = 'joining';
  };

  /** Withdraws the whole batch (see daveCall.ts); `progress` proposes the rest again. */
  const revokeBatch = (group: Group, out: DaveMessage[]): void => {
    const refs = [...group.batch.values()].map((p) => p.ref);
    for (const [hex, proposal] of group.batch) {
      retire(hex);
      if (proposal.kind === 'add') {
        const member = s.members.get(proposal.userId);
        if (member?.state === 'proposed') member.state = 'pending';
      }
    }
    group.batch.clear();
    const to = committers();
    if (to.length > 0) out.push({ to, op: OP.PROPOSALS, binary: revokePayload(refs) });
  };

  const retire = (refHex: string): void => {
    // Bounded: a member can make the server revoke at most one batch per key package it sends.
    if (s.retiredRefs.size >= MAX_RETIRED_REFS) s.retiredRefs.clear();
    s.retiredRefs.add(refHex);
  };

  const dropGroup = (): void => {
    for (const hex of s.group?.batch.keys() ?? []) retire(hex);
    s.group = null;
  };

  /** Members that hold a live leaf: they get the proposals and commit them. */
  const committers = (): string[] =>
    [...s.members.values()].filter((m) => m.state === 'inGroup').map((m) => m.userId);

  /** Forms the group if there is none, then sends the next batch if one is due. */
  const progress = (out: DaveMessage[]): void => {
    let group = s.group;
    if (group && committers().length === 0) {
      // Nobody left who can commit: only pending members remain, none of them in an
      // established group, so the next of them starts a new one.
      dropGroup();
      group = null;
      for (const member of s.members.values()) {
        if (member.state === 'proposed') member.state = 'pending';
      }
    }
    if (!group) {
      const creator = [...s.members.values()].find((m) => m.state === 'pending');
      if (!creator?.keyPackage) return;
      group = s.group = {
        epoch: 0n,
        leaves: new Map([[0, { userId: creator.userId, keyPackage: creator.keyPackage }]]),
        staleLeaves: new Set(),
        batch: new Map(),
        batchSentAtMs: 0,
      };
      creator.state = 'inGroup';
      creator.leaf = 0;
    }
    // One batch at a time, and only once every member confirmed the last transition (op 23) or
    // failed it (op 31): a member still processing a commit would refuse the next epoch's proposals.
    if (group.batch.size > 0 || s.transitions.size > 0) return;
    const messages: Uint8Array[] = [];
    for (const leaf of group.staleLeaves) {
      const { ref, message } = propose(group, removeProposal(leaf));
      group.batch.set(toHex(ref), { kind: 'remove', ref, leaf });
      messages.push(message);
    }
    for (const member of s.members.values()) {
      const keyPackage = member.keyPackage;
      if (member.state !== 'pending' || !keyPackage) continue;
      // Its old leaf still has these keys (a client that keeps its signing key): next epoch.
      if (collidesWithLeaf(group, keyPackage)) continue;
      const { ref, message } = propose(group, addProposal(keyPackage.bytes));
      group.batch.set(toHex(ref), { kind: 'add', ref, userId: member.userId, keyPackage });
      member.state = 'proposed';
      messages.push(message);
    }
    if (messages.length === 0) return;
    group.batchSentAtMs = s.clock.now();
    out.push({ to: committers(), op: OP.PROPOSALS, binary: proposalsPayload(messages) });
  };

  const propose = (group: Group, proposal: Uint8Array): { ref: Uint8Array; message: Uint8Array } =>
    s.externalSender.propose(s.groupId, group.epoch, proposal);

  /**
   * The group cannot go on (a batch got no commit in time): every member re-initialises
   * (op 24, epoch 1), sends a new key package, and the first of them creates a new group.
   */
  const reform = (out: DaveMessage[]): void => {
    dropGroup();
    s.transitions.clear();
    for (const member of s.members.values()) {
      member.state = 'joining';
      member.keyPackage = null;
      member.leaf = null;
    }
    const to = [...s.members.keys()];
    if (to.length > 0) {
      out.push({ to, op: OP.PREPARE_EPOCH, json: PREPARE_NEW_GROUP });
    }
  };

  /**
   * A key package may not reuse another member's keys: the committers' MLS would refuse the
   * duplicate and fail to commit anything.
   */
  const checkKeysUnused = (userId: string, keyPackage: KeyPackage): void => {
    const others: KeyPackage[] = [];
    for (const member of s.members.values()) {
      if (member.userId !== userId && member.keyPackage) others.push(member.keyPackage);
    }
    for (const leaf of s.group?.leaves.values() ?? []) {
      if (leaf.userId !== userId) others.push(leaf.keyPackage);
    }
    if (others.some((other) => sharesKeys(other, keyPackage))) {
      throw new DaveProtocolError("the key package reuses another member's keys");
    }
  };

  const collidesWithLeaf = (group: Group, keyPackage: KeyPackage): boolean => {
    for (const leaf of group.leaves.values()) {
      if (sharesKeys(leaf.keyPackage, keyPackage)) return true;
    }
    return false;
  };

  return { leaveGroup, committers, progress, reform, checkKeysUnused };
}
