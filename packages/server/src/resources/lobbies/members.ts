/** Member routes: add or update, remove, leave (@me) and bulk. */
import { isSnowflake } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import { removeMember, upsertMember } from './membership.js';
import type { BulkMemberInput, PutMemberInput } from './schemas.js';
import { serializeLobbyMember } from './serialize.js';
import { applicationOf, loadLobby, requireUsers, type LobbyServiceDeps } from './shared.js';

export function createLobbyMemberOperations(deps: LobbyServiceDeps) {
  const { storage, clock } = deps;
  const consume = deps.limits.consume.bind(deps.limits);

  return {
    /**
     * PUT /lobbies/{id}/members/{user}: adds the user or updates their member (metadata and flags
     * replaced when given; additional_name kept when omitted, cleared by null).
     */
    async put(
      principal: Principal,
      { lobbyId, userId }: { lobbyId: string; userId: string },
      input: PutMemberInput,
    ) {
      const applicationId = applicationOf(principal);
      await consume(applicationId, 'lobby_member_update');
      const member = await storage.transaction(async (tx) => {
        const now = clock.now();
        const view = await loadLobby(tx, { lobbyId, applicationId, now });
        if (!isSnowflake(userId)) throw new ApiError('UNKNOWN_USER');
        await requireUsers(tx, [userId]);
        return upsertMember(tx, view, { change: { userId, ...input }, now, onRefusal: 'throw' });
      });
      // A refused join threw; null only comes from 'skip'.
      if (member === null) throw new ApiError('UNKNOWN_LOBBY');
      return serializeLobbyMember(member);
    },

    /** DELETE /lobbies/{id}/members/{user}: 204 even when the user was not a member. */
    async remove(principal: Principal, lobbyId: string, userId: string) {
      const applicationId = applicationOf(principal);
      await consume(applicationId, 'lobby_member_remove');
      await storage.transaction(async (tx) => {
        const now = clock.now();
        const view = await loadLobby(tx, { lobbyId, applicationId, now });
        await removeMember(tx, view, { userId: userId, now });
      });
    },

    /** DELETE /lobbies/{id}/members/@me (an SDK client): the caller leaves. */
    async leave(principal: Principal, lobbyId: string) {
      const applicationId = applicationOf(principal);
      await storage.transaction(async (tx) => {
        const now = clock.now();
        const view = await loadLobby(tx, { lobbyId, applicationId, now });
        await removeMember(tx, view, { userId: principal.user.id, now });
      });
    },

    /**
     * POST /lobbies/{id}/members/bulk: up to 25 upserts or removals in order. An unknown user
     * fails the whole request (10013, nothing changed); a user who cannot join (the lobby full,
     * or 100 lobbies of this application already) is left out silently. Returns the members
     * added or updated.
     */
    async bulk(principal: Principal, lobbyId: string, items: readonly BulkMemberInput[]) {
      const applicationId = applicationOf(principal);
      await consume(applicationId, 'lobby_members_bulk');
      return storage.transaction(async (tx) => {
        const now = clock.now();
        const view = await loadLobby(tx, { lobbyId, applicationId, now });
        await requireUsers(
          tx,
          items.map((i) => i.id),
        );
        const upserted = new Map<string, ReturnType<typeof serializeLobbyMember>>();
        for (const item of items) {
          if (item.remove_member === true) {
            await removeMember(tx, view, { userId: item.id, now });
            upserted.delete(item.id);
            continue;
          }
          const { id, metadata, flags, additional_name } = item;
          const member = await upsertMember(tx, view, {
            change: { userId: id, metadata, flags, additional_name },
            now,
            onRefusal: 'skip',
          });
          if (member !== null) upserted.set(id, serializeLobbyMember(member));
        }
        return [...upserted.values()];
      });
    },
  };
}
