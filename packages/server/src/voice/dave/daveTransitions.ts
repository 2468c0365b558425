/**
 * @module voice/dave/daveTransitions: a DaveCall's transitions: a winning commit advances the
 * group's epoch and is announced (with its welcome to the added members) under a new transition
 * id, which executes once every recipient confirmed it, left, or timed out.
 */
import type { DaveCallState } from './daveBatches.js';
import {
  MAX_U16,
  OP,
  type DaveMessage,
  type Group,
  type Member,
  type Proposal,
} from './daveState.js';
import { TlsWriter } from './tls.js';

/** The transition rules of one call's state; `committers` as the batches count them. */
export function createDaveTransitions(s: DaveCallState, batches: { committers: () => string[] }) {
  const { committers } = batches;

  const applyCommit = (
    group: Group,
    accepted: {
      committer: Member;
      proposals: Proposal[];
      commit: Uint8Array;
      welcome: Uint8Array | null;
    },
    out: DaveMessage[],
  ): void => {
    const { committer, proposals, commit, welcome } = accepted;
    const existing = committers();
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
      const member = s.members.get(proposal.userId);
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
      const member = s.members.get(proposal.userId);
      if (member?.state === 'proposed') member.state = 'pending';
    }
    group.batch.clear();
    s.retiredRefs.clear();
    group.epoch += 1n;

    const transitionId = nextTransitionId();
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
    s.transitions.set(transitionId, {
      committer,
      recipients,
      awaiting: new Set(recipients),
      others: recipients.size - 1,
      failed: new Set(),
      deadlineMs: s.clock.now() + s.transitionTimeoutMs,
    });
  };

  const nextTransitionId = (): number => {
    let id = s.lastTransitionId;
    do {
      id = id >= MAX_U16 ? 1 : id + 1;
    } while (s.transitions.has(id));
    s.lastTransitionId = id;
    return id;
  };

  const execute = (transitionId: number, out: DaveMessage[]): void => {
    const transition = s.transitions.get(transitionId);
    if (!transition) return;
    s.transitions.delete(transitionId);
    const to = [...transition.recipients].filter((id) => s.members.has(id));
    if (to.length > 0) {
      out.push({ to, op: OP.EXECUTE_TRANSITION, json: { transition_id: transitionId } });
    }
  };

  const forgetInTransitions = (userId: string, out: DaveMessage[]): void => {
    for (const [id, transition] of s.transitions) {
      transition.recipients.delete(userId);
      if (transition.awaiting.delete(userId) && transition.awaiting.size === 0) {
        execute(id, out);
      }
    }
  };

  return { applyCommit, execute, forgetInTransitions };
}
