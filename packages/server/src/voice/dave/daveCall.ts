/**
 * One call's DAVE delivery service (docs/voice.md, daveprotocol.com): the server's side of the
 * MLS group the members of a call share. It relays key packages (as external Add proposals),
 * Remove proposals, commits and welcomes, numbers the transitions and tells the members when to
 * execute them. It holds no group secret: the proposals are signed with its external-sender key,
 * which can propose members but never decrypt. Pure logic: every call returns the messages the
 * voice gateway must send; time comes from the injected clock through `tick()`.
 *
 * The rules it keeps (and why):
 * - The first member with a key package while there is no group is the group's creator: its
 *   client made a pending group (epoch 0, leaf 0) when it got op 25; proposals go only to members
 *   in the group, never to pending ones, which would commit on a group of their own.
 * - One batch of proposals at a time, sent once every member confirmed (op 23) or failed (op 31)
 *   the last transition. A member that commits twice in an epoch keeps only its last commit as
 *   "its own", so a second batch would let an earlier commit of it win and leave it out of step;
 *   and a client still processing a commit throws on proposals for the next epoch. Members that
 *   arrive meanwhile wait for the next batch.
 * - A member that neither confirms nor fails a transition in time is told to start over (op 24)
 *   and added again; a batch that gets no commit in time re-forms the whole group (op 24 to all).
 * - Revoking withdraws the whole batch and proposes the rest again: davey's commit after a
 *   partial revoke carries no welcome for the adds it keeps.
 * - The first valid commit of an epoch wins; later commits of that epoch are stale, not errors.
 */
import type { Clock } from '../../domain/clock.js';
import { createDaveBatches, type DaveCallState } from './daveBatches.js';
import {
  OP,
  PREPARE_NEW_GROUP,
  checkTransitionId,
  u64Bytes,
  type DaveMessage,
  type Member,
  type Proposal,
} from './daveState.js';
import { createDaveTransitions } from './daveTransitions.js';
import { ExternalSender } from './externalSender.js';
import { keyPackageRef, parseCommitWelcome, parseKeyPackage } from './mls.js';
import { DaveProtocolError, bytesEqual, toHex } from './tls.js';

export { DaveProtocolError } from './tls.js';
export type { DaveMessage } from './daveState.js';

export interface DaveCallOptions {
  /** The channel (or lobby) id: the MLS group id is its u64 big-endian encoding. */
  channelId: string;
  clock: Clock;
  /** How long a transition may wait for op 23, and a batch of proposals for its commit. */
  transitionTimeoutMs?: number;
  /** Members the call accepts (the gateway limits too). */
  maxMembers?: number;
}

export const DEFAULT_DAVE_CALL_OPTIONS = {
  transitionTimeoutMs: 10_000,
  maxMembers: 99,
} as const satisfies Partial<DaveCallOptions>;

/** Largest op 26 payload accepted: a DAVE key package is about 400 bytes. */
export const MAX_KEY_PACKAGE_BYTES = 16 * 1024;
/** Largest op 28 payload accepted: the welcome carries the whole ratchet tree. */
export const MAX_COMMIT_WELCOME_BYTES = 512 * 1024;

export class DaveCall {
  private readonly s: DaveCallState;
  private readonly maxMembers: number;
  private readonly batches: ReturnType<typeof createDaveBatches>;
  private readonly transitions: ReturnType<typeof createDaveTransitions>;

  constructor(options: DaveCallOptions) {
    this.s = {
      clock: options.clock,
      transitionTimeoutMs:
        options.transitionTimeoutMs ?? DEFAULT_DAVE_CALL_OPTIONS.transitionTimeoutMs,
      groupId: u64Bytes(options.channelId, 'channel id'),
      externalSender: ExternalSender.generate(),
      members: new Map(),
      group: null,
      transitions: new Map(),
      lastTransitionId: 0,
      retiredRefs: new Set(),
    };
    this.maxMembers = options.maxMembers ?? DEFAULT_DAVE_CALL_OPTIONS.maxMembers;
    this.batches = createDaveBatches(this.s);
    this.transitions = createDaveTransitions(this.s, this.batches);
  }

  /** The group's epoch (0 while there is none or its creator is alone in it). */
  get epoch(): number {
    return Number(this.s.group?.epoch ?? 0n);
  }

  /** The users holding a leaf of the group as last committed (what members' rosters show). */
  groupMembers(): string[] {
    if (!this.s.group) return [];
    return [...this.s.group.leaves.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, leaf]) => leaf.userId);
  }

  /** The user's leaf in the group as last committed, or null. */
  leafIndex(userId: string): number | null {
    for (const [index, leaf] of this.s.group?.leaves ?? [])
      if (leaf.userId === userId) return index;
    return null;
  }

  /** After the gateway sent Session Description and op 11. Again for a user = a fresh session. */
  addMember(userId: string): DaveMessage[] {
    u64Bytes(userId, 'user id');
    const out = this.s.members.has(userId) ? this.removeMember(userId) : [];
    if (this.s.members.size >= this.maxMembers) {
      throw new DaveProtocolError(`the call is full (${this.maxMembers} members)`);
    }
    this.s.members.set(userId, { userId, state: 'joining', keyPackage: null, leaf: null });
    // Once per member: davey keeps the external sender across a re-init, and refuses it twice.
    out.push({ to: [userId], op: OP.EXTERNAL_SENDER, binary: this.s.externalSender.serialized });
    return out;
  }

  removeMember(userId: string): DaveMessage[] {
    const member = this.s.members.get(userId);
    if (!member) return [];
    const out: DaveMessage[] = [];
    this.batches.leaveGroup(member, out);
    this.s.members.delete(userId);
    this.transitions.forgetInTransitions(userId, out);
    this.batches.progress(out);
    return out;
  }

  /** Op 26. */
  keyPackage(userId: string, payload: Uint8Array): DaveMessage[] {
    const member = this.member(userId);
    if (payload.length > MAX_KEY_PACKAGE_BYTES) {
      throw new DaveProtocolError(`key package of ${payload.length} bytes`);
    }
    const keyPackage = parseKeyPackage(payload);
    if (!bytesEqual(keyPackage.leafNode.identity, u64Bytes(userId, 'user id'))) {
      throw new DaveProtocolError("the key package's credential is not the sender's");
    }
    this.batches.checkKeysUnused(userId, keyPackage);
    const out: DaveMessage[] = [];
    const group = this.s.group;
    if (group?.epoch === 0n && member.state === 'inGroup') {
      // The creator re-initialised before anyone joined: its client made a new pending group
      // at epoch 0 and stays the creator. Proposals sent since reach that new group; if they
      // came before the re-init and are lost, the batch times out and the group re-forms.
      member.keyPackage = keyPackage;
      group.leaves.set(0, { userId, keyPackage });
      return out;
    }
    // A member with a key package out or a leaf re-initialised: its old one is of no use now.
    this.batches.leaveGroup(member, out);
    member.keyPackage = keyPackage;
    member.state = 'pending';
    this.batches.progress(out);
    return out;
  }

  /** Op 28. */
  commitWelcome(userId: string, payload: Uint8Array): DaveMessage[] {
    const member = this.member(userId);
    if (payload.length > MAX_COMMIT_WELCOME_BYTES) {
      throw new DaveProtocolError(`commit of ${payload.length} bytes`);
    }
    const { commit, welcome } = parseCommitWelcome(payload);
    if (!bytesEqual(commit.groupId, this.s.groupId)) {
      throw new DaveProtocolError('commit for another group');
    }
    const group = this.s.group;
    // Lost races: the group was re-formed, another commit won the epoch, or the sender left it.
    if (!group || commit.epoch < group.epoch || member.state !== 'inGroup') return [];
    if (commit.epoch > group.epoch) throw new DaveProtocolError('commit for a future epoch');
    if (commit.senderLeaf !== member.leaf) {
      throw new DaveProtocolError("commit sender is not the member's leaf");
    }
    const refs = commit.proposalRefs.map(toHex);
    if (new Set(refs).size !== refs.length) throw new DaveProtocolError('proposal listed twice');
    // An empty commit (libdave's answer to a revocation of everything) moves nothing.
    if (refs.length === 0) return [];
    const proposals: Proposal[] = [];
    for (const ref of refs) {
      const proposal = group.batch.get(ref);
      if (proposal) proposals.push(proposal);
      else if (this.s.retiredRefs.has(ref)) return [];
      else throw new DaveProtocolError('commit names a proposal the server did not make');
    }
    const adds = proposals.filter((p) => p.kind === 'add');
    if (adds.length > 0) {
      const expected = adds.map((p) => toHex(keyPackageRef(p.keyPackage.bytes))).sort();
      const got = (welcome?.newMembers ?? []).map(toHex).sort();
      if (expected.join() !== got.join()) {
        throw new DaveProtocolError('welcome does not match the added members');
      }
    } else if (welcome) {
      throw new DaveProtocolError('welcome without added members');
    }
    const out: DaveMessage[] = [];
    this.transitions.applyCommit(
      group,
      { committer: member, proposals, commit: commit.bytes, welcome: welcome?.bytes ?? null },
      out,
    );
    this.batches.progress(out);
    return out;
  }

  /** Op 23. */
  transitionReady(userId: string, transitionId: number): DaveMessage[] {
    this.member(userId);
    checkTransitionId(transitionId);
    const transition = this.s.transitions.get(transitionId);
    if (!transition) return [];
    transition.awaiting.delete(userId);
    const out: DaveMessage[] = [];
    if (transition.awaiting.size === 0) {
      this.transitions.execute(transitionId, out);
      this.batches.progress(out);
    }
    return out;
  }

  /**
   * Op 31: the member could not process a commit or welcome. Its client re-initialises and
   * sends a fresh key package, so it leaves the group now and is added again with that one.
   */
  invalidCommitWelcome(userId: string, transitionId: number): DaveMessage[] {
    const member = this.member(userId);
    checkTransitionId(transitionId);
    const out: DaveMessage[] = [];
    const transition = this.s.transitions.get(transitionId);
    const failed = transition?.recipients.has(userId) ? transition : null;
    this.resetMember(member, out);
    if (failed && failed.committer !== member) {
      failed.failed.add(userId);
      // Everyone else failed the commit: the committer sent one it alone accepts (a broken or
      // hostile client). It starts over too, so it cannot hold the group with bad commits.
      const committer = failed.committer;
      const current = this.s.members.get(committer.userId) === committer;
      if (current && committer.state === 'inGroup' && failed.failed.size === failed.others) {
        this.resetMember(committer, out);
        out.push({ to: [committer.userId], op: OP.PREPARE_EPOCH, json: PREPARE_NEW_GROUP });
      }
    }
    this.batches.progress(out);
    return out;
  }

  /** About once a second: overdue transitions execute; a batch nobody commits re-forms the group. */
  tick(): DaveMessage[] {
    const now = this.s.clock.now();
    const out: DaveMessage[] = [];
    for (const [id, transition] of [...this.s.transitions]) {
      if (transition.deadlineMs > now) continue;
      // Neither op 23 nor op 31: the client may be stuck (@discordjs/voice reports only the first
      // failure until a transition executes). Op 24 makes it re-initialise and send a new key
      // package; meanwhile it is out of the group, and the others execute without it.
      for (const userId of [...transition.awaiting]) {
        const member = this.s.members.get(userId);
        if (!member) continue;
        this.resetMember(member, out);
        out.push({ to: [userId], op: OP.PREPARE_EPOCH, json: PREPARE_NEW_GROUP });
      }
      this.transitions.execute(id, out);
    }
    const group = this.s.group;
    if (group && group.batch.size > 0 && now - group.batchSentAtMs >= this.s.transitionTimeoutMs) {
      this.batches.reform(out);
    }
    this.batches.progress(out);
    return out;
  }

  /** The member's client re-initialises: it leaves the group and waits for its key package. */
  private resetMember(member: Member, out: DaveMessage[]): void {
    this.batches.leaveGroup(member, out);
    member.state = 'joining';
    member.keyPackage = null;
    this.transitions.forgetInTransitions(member.userId, out);
  }

  private member(userId: string): Member {
    const member = this.s.members.get(userId);
    if (!member) throw new DaveProtocolError('not a member of the call');
    return member;
  }
}
