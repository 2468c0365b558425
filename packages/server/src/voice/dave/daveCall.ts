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
import {
  MAX_RETIRED_REFS,
  MAX_U16,
  OP,
  PREPARE_NEW_GROUP,
  checkTransitionId,
  sharesKeys,
  u64Bytes,
  type Group,
  type Member,
  type Proposal,
  type Transition,
} from './daveState.js';
import {
  ExternalSender,
  addProposal,
  proposalsPayload,
  removeProposal,
  revokePayload,
} from './externalSender.js';
import { keyPackageRef, parseCommitWelcome, parseKeyPackage, type KeyPackage } from './mls.js';
import { DaveProtocolError, TlsWriter, bytesEqual, toHex } from './tls.js';

export { DaveProtocolError } from './tls.js';

/** A message for the voice gateway to send, as JSON (`json` is the `d`) or as a binary frame. */
export interface DaveMessage {
  to: readonly string[];
  op: number;
  json?: unknown;
  /** The payload after the opcode byte (the gateway adds the sequence number and opcode). */
  binary?: Uint8Array;
}

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
  private readonly clock: Clock;
  private readonly transitionTimeoutMs: number;
  private readonly maxMembers: number;
  private readonly groupId: Uint8Array;
  private readonly externalSender = ExternalSender.generate();
  /** In order of arrival: the earliest pending member becomes the next creator. */
  private readonly members = new Map<string, Member>();
  private group: Group | null = null;
  private readonly transitions = new Map<number, Transition>();
  private lastTransitionId = 0;
  /**
   * Refs withdrawn since the last commit (revoked, or dropped with a group that was started
   * over): a commit naming one is stale, not malformed.
   */
  private readonly retiredRefs = new Set<string>();

  constructor(options: DaveCallOptions) {
    this.clock = options.clock;
    this.transitionTimeoutMs =
      options.transitionTimeoutMs ?? DEFAULT_DAVE_CALL_OPTIONS.transitionTimeoutMs;
    this.maxMembers = options.maxMembers ?? DEFAULT_DAVE_CALL_OPTIONS.maxMembers;
    this.groupId = u64Bytes(options.channelId, 'channel id');
  }

  /** The group's epoch (0 while there is none or its creator is alone in it). */
  get epoch(): number {
    return Number(this.group?.epoch ?? 0n);
  }

  /** The users holding a leaf of the group as last committed (what members' rosters show). */
  groupMembers(): string[] {
    if (!this.group) return [];
    return [...this.group.leaves.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, leaf]) => leaf.userId);
  }

  /** The user's leaf in the group as last committed, or null. */
  leafIndex(userId: string): number | null {
    for (const [index, leaf] of this.group?.leaves ?? []) if (leaf.userId === userId) return index;
    return null;
  }

  /** After the gateway sent Session Description and op 11. Again for a user = a fresh session. */
  addMember(userId: string): DaveMessage[] {
    u64Bytes(userId, 'user id');
    const out = this.members.has(userId) ? this.removeMember(userId) : [];
    if (this.members.size >= this.maxMembers) {
      throw new DaveProtocolError(`the call is full (${this.maxMembers} members)`);
    }
    this.members.set(userId, { userId, state: 'joining', keyPackage: null, leaf: null });
    // Once per member: davey keeps the external sender across a re-init, and refuses it twice.
    out.push({ to: [userId], op: OP.EXTERNAL_SENDER, binary: this.externalSender.serialized });
    return out;
  }

  removeMember(userId: string): DaveMessage[] {
    const member = this.members.get(userId);
    if (!member) return [];
    const out: DaveMessage[] = [];
    this.leaveGroup(member, out);
    this.members.delete(userId);
    this.forgetInTransitions(userId, out);
    this.progress(out);
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
    this.checkKeysUnused(userId, keyPackage);
    const out: DaveMessage[] = [];
    const group = this.group;
    if (group?.epoch === 0n && member.state === 'inGroup') {
      // The creator re-initialised before anyone joined: its client made a new pending group
      // at epoch 0 and stays the creator. Proposals sent since reach that new group; if they
      // came before the re-init and are lost, the batch times out and the group re-forms.
      member.keyPackage = keyPackage;
      group.leaves.set(0, { userId, keyPackage });
      return out;
    }
    // A member with a key package out or a leaf re-initialised: its old one is of no use now.
    this.leaveGroup(member, out);
    member.keyPackage = keyPackage;
    member.state = 'pending';
    this.progress(out);
    return out;
  }

  /** Op 28. */
  commitWelcome(userId: string, payload: Uint8Array): DaveMessage[] {
    const member = this.member(userId);
    if (payload.length > MAX_COMMIT_WELCOME_BYTES) {
      throw new DaveProtocolError(`commit of ${payload.length} bytes`);
    }
    const { commit, welcome } = parseCommitWelcome(payload);
    if (!bytesEqual(commit.groupId, this.groupId)) {
      throw new DaveProtocolError('commit for another group');
    }
    const group = this.group;
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
      else if (this.retiredRefs.has(ref)) return [];
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
    this.applyCommit(
      group,
      { committer: member, proposals, commit: commit.bytes, welcome: welcome?.bytes ?? null },
      out,
    );
    this.progress(out);
    return out;
  }

  /** Op 23. */
  transitionReady(userId: string, transitionId: number): DaveMessage[] {
    this.member(userId);
    checkTransitionId(transitionId);
    const transition = this.transitions.get(transitionId);
    if (!transition) return [];
    transition.awaiting.delete(userId);
    const out: DaveMessage[] = [];
    if (transition.awaiting.size === 0) {
      this.execute(transitionId, out);
      this.progress(out);
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
    const transition = this.transitions.get(transitionId);
    const failed = transition?.recipients.has(userId) ? transition : null;
    this.resetMember(member, out);
    if (failed && failed.committer !== member) {
      failed.failed.add(userId);
      // Everyone else failed the commit: the committer sent one it alone accepts (a broken or
      // hostile client). It starts over too, so it cannot hold the group with bad commits.
      const committer = failed.committer;
      const current = this.members.get(committer.userId) === committer;
      if (current && committer.state === 'inGroup' && failed.failed.size === failed.others) {
        this.resetMember(committer, out);
        out.push({ to: [committer.userId], op: OP.PREPARE_EPOCH, json: PREPARE_NEW_GROUP });
      }
    }
    this.progress(out);
    return out;
  }

  /** About once a second: overdue transitions execute; a batch nobody commits re-forms the group. */
  tick(): DaveMessage[] {
    const now = this.clock.now();
    const out: DaveMessage[] = [];
    for (const [id, transition] of [...this.transitions]) {
      if (transition.deadlineMs > now) continue;
      // Neither op 23 nor op 31: the client may be stuck (@discordjs/voice reports only the first
      // failure until a transition executes). Op 24 makes it re-initialise and send a new key
      // package; meanwhile it is out of the group, and the others execute without it.
      for (const userId of [...transition.awaiting]) {
        const member = this.members.get(userId);
        if (!member) continue;
        this.resetMember(member, out);
        out.push({ to: [userId], op: OP.PREPARE_EPOCH, json: PREPARE_NEW_GROUP });
      }
      this.execute(id, out);
    }
    const group = this.group;
    if (group && group.batch.size > 0 && now - group.batchSentAtMs >= this.transitionTimeoutMs) {
      this.reform(out);
    }
    this.progress(out);
    return out;
  }

  /** The member's client re-initialises: it leaves the group and waits for its key package. */
  private resetMember(member: Member, out: DaveMessage[]): void {
    this.leaveGroup(member, out);
    member.state = 'joining';
    member.keyPackage = null;
    this.forgetInTransitions(member.userId, out);
  }

  private member(userId: string): Member {
    const member = this.members.get(userId);
    if (!member) throw new DaveProtocolError('not a member of the call');
    return member;
  }

  /** A member's leaf turns stale, or its Add is withdrawn; it keeps its place in the call. */
  private leaveGroup(member: Member, out: DaveMessage[]): void {
    const group = this.group;
    if (member.state === 'proposed' && group) {
      member.state = 'pending';
      this.revokeBatch(group, out);
    } else if (member.state === 'inGroup' && group && member.leaf !== null) {
      // Removed by the next batch; if nobody is left to commit, `progress` starts over.
      group.staleLeaves.add(member.leaf);
    }
    member.leaf = null;
    if (member.state === 'inGroup') member.state = 'joining';
  }

  /** Withdraws the whole batch (see the module comment); `progress` proposes the rest again. */
  private revokeBatch(group: Group, out: DaveMessage[]): void {
    const refs = [...group.batch.values()].map((p) => p.ref);
    for (const [hex, proposal] of group.batch) {
      this.retire(hex);
      if (proposal.kind === 'add') {
        const member = this.members.get(proposal.userId);
        if (member?.state === 'proposed') member.state = 'pending';
      }
    }
    group.batch.clear();
    const to = this.committers();
    if (to.length > 0) out.push({ to, op: OP.PROPOSALS, binary: revokePayload(refs) });
  }

  private retire(refHex: string): void {
    // Bounded: a member can make the server revoke at most one batch per key package it sends.
    if (this.retiredRefs.size >= MAX_RETIRED_REFS) this.retiredRefs.clear();
    this.retiredRefs.add(refHex);
  }

  private dropGroup(): void {
    for (const hex of this.group?.batch.keys() ?? []) this.retire(hex);
    this.group = null;
  }

  /** Members that hold a live leaf: they get the proposals and commit them. */
  private committers(): string[] {
    return [...this.members.values()].filter((m) => m.state === 'inGroup').map((m) => m.userId);
  }

  /** Forms the group if there is none, then sends the next batch if one is due. */
  private progress(out: DaveMessage[]): void {
    let group = this.group;
    if (group && this.committers().length === 0) {
      // Nobody left who can commit: only pending members remain, none of them in an
      // established group, so the next of them starts a new one.
      this.dropGroup();
      group = null;
      for (const member of this.members.values()) {
        if (member.state === 'proposed') member.state = 'pending';
      }
    }
    if (!group) {
      const creator = [...this.members.values()].find((m) => m.state === 'pending');
      if (!creator?.keyPackage) return;
      group = this.group = {
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
    if (group.batch.size > 0 || this.transitions.size > 0) return;
    const messages: Uint8Array[] = [];
    for (const leaf of group.staleLeaves) {
      const { ref, message } = this.propose(group, removeProposal(leaf));
      group.batch.set(toHex(ref), { kind: 'remove', ref, leaf });
      messages.push(message);
    }
    for (const member of this.members.values()) {
      const keyPackage = member.keyPackage;
      if (member.state !== 'pending' || !keyPackage) continue;
      // Its old leaf still has these keys (a client that keeps its signing key): next epoch.
      if (this.collidesWithLeaf(group, keyPackage)) continue;
      const { ref, message } = this.propose(group, addProposal(keyPackage.bytes));
      group.batch.set(toHex(ref), { kind: 'add', ref, userId: member.userId, keyPackage });
      member.state = 'proposed';
      messages.push(message);
    }
    if (messages.length === 0) return;
    group.batchSentAtMs = this.clock.now();
    out.push({ to: this.committers(), op: OP.PROPOSALS, binary: proposalsPayload(messages) });
  }

  private propose(group: Group, proposal: Uint8Array): { ref: Uint8Array; message: Uint8Array } {
    return this.externalSender.propose(this.groupId, group.epoch, proposal);
  }

  private applyCommit(
    group: Group,
    accepted: {
      committer: Member;
      proposals: Proposal[];
      commit: Uint8Array;
      welcome: Uint8Array | null;
    },
    out: DaveMessage[],
  ): void {
    const { committer, proposals, commit, welcome } = accepted;
    const existing = this.committers();
    // RFC 9420 §12.3: removes before adds; an add takes the leftmost free leaf.
    for (const proposal of proposals) {
      if (proposal.kind !== 'remove') continue;
      group.leaves.delete(proposal.leaf);
      group.staleLeaves.delete(proposal.leaf);
    }
    const added: string[] = [];
    for (const proposal of proposals) {
      if (proposal.kind !== 'add') continue;
      let leaf = 0;
      while (group.leaves.has(leaf)) leaf++;
      group.leaves.set(leaf, { userId: proposal.userId, keyPackage: proposal.keyPackage });
      const member = this.members.get(proposal.userId);
      if (member?.state === 'proposed' && member.keyPackage === proposal.keyPackage) {
        member.state = 'inGroup';
        member.leaf = leaf;
        added.push(member.userId);
      } else {
        // Its user left or re-initialised since: the leaf goes with the next batch.
        group.staleLeaves.add(leaf);
      }
    }
    // What the commit did not cover is proposed again at the next epoch.
    for (const proposal of group.batch.values()) {
      if (proposal.kind !== 'add' || proposals.includes(proposal)) continue;
      const member = this.members.get(proposal.userId);
      if (member?.state === 'proposed') member.state = 'pending';
    }
    group.batch.clear();
    this.retiredRefs.clear();
    group.epoch += 1n;

    const transitionId = this.nextTransitionId();
    out.push({
      to: existing,
      op: OP.ANNOUNCE_COMMIT,
      binary: new TlsWriter().u16(transitionId).raw(commit).finish(),
    });
    if (welcome && added.length > 0) {
      out.push({
        to: added,
        op: OP.WELCOME,
        binary: new TlsWriter().u16(transitionId).raw(welcome).finish(),
      });
    }
    const recipients = new Set([...existing, ...added]);
    this.transitions.set(transitionId, {
      committer,
      recipients,
      awaiting: new Set(recipients),
      others: recipients.size - 1,
      failed: new Set(),
      deadlineMs: this.clock.now() + this.transitionTimeoutMs,
    });
  }

  private nextTransitionId(): number {
    let id = this.lastTransitionId;
    do {
      id = id >= MAX_U16 ? 1 : id + 1;
    } while (this.transitions.has(id));
    this.lastTransitionId = id;
    return id;
  }

  private execute(transitionId: number, out: DaveMessage[]): void {
    const transition = this.transitions.get(transitionId);
    if (!transition) return;
    this.transitions.delete(transitionId);
    const to = [...transition.recipients].filter((id) => this.members.has(id));
    if (to.length > 0) {
      out.push({ to, op: OP.EXECUTE_TRANSITION, json: { transition_id: transitionId } });
    }
  }

  private forgetInTransitions(userId: string, out: DaveMessage[]): void {
    for (const [id, transition] of this.transitions) {
      transition.recipients.delete(userId);
      if (transition.awaiting.delete(userId) && transition.awaiting.size === 0) {
        this.execute(id, out);
      }
    }
  }

  /**
   * The group cannot go on (a batch got no commit in time): every member re-initialises
   * (op 24, epoch 1), sends a new key package, and the first of them creates a new group.
   */
  private reform(out: DaveMessage[]): void {
    this.dropGroup();
    this.transitions.clear();
    for (const member of this.members.values()) {
      member.state = 'joining';
      member.keyPackage = null;
      member.leaf = null;
    }
    const to = [...this.members.keys()];
    if (to.length > 0) {
      out.push({ to, op: OP.PREPARE_EPOCH, json: PREPARE_NEW_GROUP });
    }
  }

  /**
   * A key package may not reuse another member's keys: the committers' MLS would refuse the
   * duplicate and fail to commit anything.
   */
  private checkKeysUnused(userId: string, keyPackage: KeyPackage): void {
    const others: KeyPackage[] = [];
    for (const member of this.members.values()) {
      if (member.userId !== userId && member.keyPackage) others.push(member.keyPackage);
    }
    for (const leaf of this.group?.leaves.values() ?? []) {
      if (leaf.userId !== userId) others.push(leaf.keyPackage);
    }
    if (others.some((other) => sharesKeys(other, keyPackage))) {
      throw new DaveProtocolError("the key package reuses another member's keys");
    }
  }

  private collidesWithLeaf(group: Group, keyPackage: KeyPackage): boolean {
    for (const leaf of group.leaves.values()) {
      if (sharesKeys(leaf.keyPackage, keyPackage)) return true;
    }
    return false;
  }
}
