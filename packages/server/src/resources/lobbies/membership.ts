/**
 * Joining and leaving a lobby inside a transaction, with their dispatches: the one path every
 * route that changes members goes through (create, create-or-join, modify, add, bulk, remove,
 * leave), so limits, emptied_at and events stay the same everywhere.
 */
import { afterCommit } from '../../events/afterCommit.js';
import type { LobbyMemberRecord, LobbyMetadata, Repositories } from '../../storage/index.js';
import { lobbyDispatches } from './dispatch.js';
import type { LobbyView } from './serialize.js';
import { joinRefusal, mergedMember, refreshEmptied, sameMember } from './shared.js';

export interface MemberChange {
  userId: string;
  metadata?: LobbyMetadata | null;
  flags?: number | null;
  additional_name?: string | null;
}

/** Whether a refused join fails the request (single operations) or is dropped (bulk). */
export type OnRefusal = 'throw' | 'skip';

/**
 * Adds or updates a member. A new member gets LOBBY_CREATE and everyone LOBBY_MEMBER_ADD; a
 * changed one LOBBY_MEMBER_UPDATE. Returns the member, or null when a refused join was skipped.
 * `view` is updated in place.
 */
export async function upsertMember(
  tx: Repositories,
  view: LobbyView,
  options: { change: MemberChange; now: number; onRefusal: OnRefusal; announce?: boolean },
): Promise<LobbyMemberRecord | null> {
  const { change } = options;
  const announce = options.announce ?? true;
  const existing = view.members.find((m) => m.userId === change.userId);
  if (existing !== undefined) {
    const member = mergedMember(existing, change);
    if (sameMember(existing, member)) return existing;
    await tx.lobbies.putMember(member);
    view.members = view.members.map((m) => (m.userId === member.userId ? member : m));
    if (announce) afterCommit(tx, lobbyDispatches.memberUpdate(view, member));
    return member;
  }
  const refusal = await joinRefusal(tx, view.lobby, change.userId);
  if (refusal !== null) {
    if (options.onRefusal === 'skip') return null;
    throw refusal;
  }
  const member = mergedMember(
    {
      lobbyId: view.lobby.id,
      userId: change.userId,
      metadata: null,
      flags: 0,
      additionalName: null,
      joinedAt: options.now,
    },
    change,
  );
  await tx.lobbies.putMember(member);
  view.members = [...view.members, member];
  view.lobby = await refreshEmptied(tx, view.lobby, options.now);
  if (announce) {
    afterCommit(tx, [
      lobbyDispatches.create(view, [member.userId]),
      lobbyDispatches.memberAdd(view, member),
    ]);
  }
  return member;
}

/** Removes a member (nothing when not one) with LOBBY_MEMBER_REMOVE; `view` is updated in place. */
export async function removeMember(
  tx: Repositories,
  view: LobbyView,
  { userId, now }: { userId: string; now: number },
): Promise<boolean> {
  const member = view.members.find((m) => m.userId === userId);
  if (member === undefined) return false;
  // Leaving the lobby ends the member's call in it (the repository removes the row with them).
  const call = await tx.lobbies.findVoiceState(view.lobby.id, userId);
  await tx.lobbies.removeMember(view.lobby.id, userId);
  view.members = view.members.filter((m) => m.userId !== userId);
  view.lobby = await refreshEmptied(tx, view.lobby, now);
  afterCommit(tx, [
    ...(call === null
      ? []
      : [
          lobbyDispatches.voiceState(view.lobby, {
            userIds: [...view.members.map((m) => m.userId), userId],
            state: call,
            left: true,
          }),
        ]),
    lobbyDispatches.memberRemove(view, member),
  ]);
  return true;
}
