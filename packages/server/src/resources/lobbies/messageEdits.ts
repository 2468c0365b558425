/**
 * Editing and deleting lobby messages: Guildhall's own routes (the platform documents none), so
 * that LOBBY_MESSAGE_UPDATE and LOBBY_MESSAGE_DELETE (gateway and webhook event) are produced and
 * an edit of the content clears the moderation metadata (docs/lobbies.md#editing-and-deleting).
 */
import { isSnowflake } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import type { LobbyMessageRecord, Repositories } from '../../storage/index.js';
import { lobbyDispatches } from './dispatch.js';
import type { EditMessageInput } from './schemas.js';
import type { LobbyView } from './serialize.js';
import { serializeEditedLobbyMessage } from './serialize.js';
import { applicationOf, loadLobby, requireMember, type LobbyServiceDeps } from './shared.js';

export interface LobbyMessageTarget {
  lobbyId: string;
  messageId: string;
}

/** The lobby message, or 10008 Unknown Message. */
async function findMessage(repos: Repositories, view: LobbyView, messageId: string) {
  const message = isSnowflake(messageId)
    ? await repos.lobbies.findMessage(view.lobby.id, messageId)
    : null;
  if (message === null) throw new ApiError('UNKNOWN_MESSAGE');
  return message;
}

/** Only the author edits (or, with a Bearer token, deletes) a message: else 50005. */
function requireAuthor(message: LobbyMessageRecord, userId: string) {
  if (message.authorId !== userId) throw new ApiError('CANNOT_EDIT_OTHER_USERS_MESSAGE');
}

export function createLobbyMessageEditOperations(deps: LobbyServiceDeps) {
  const { storage, clock } = deps;
  const consume = deps.limits.consume.bind(deps.limits);

  return {
    /**
     * PATCH /lobbies/{id}/messages/{message} (the author's SDK client, still a member): new
     * content (and metadata when given; null clears it). A changed content clears every
     * application's moderation metadata of the message. LOBBY_MESSAGE_UPDATE to the members and
     * by webhook event; counted like a send.
     */
    async edit(principal: Principal, target: LobbyMessageTarget, input: EditMessageInput) {
      const applicationId = applicationOf(principal);
      await consume(applicationId, 'lobby_message_send');
      return storage.transaction(async (tx) => {
        const now = clock.now();
        const view = await loadLobby(tx, { lobbyId: target.lobbyId, applicationId, now });
        requireMember(view, principal.user.id);
        const message = await findMessage(tx, view, target.messageId);
        requireAuthor(message, principal.user.id);
        const edited: LobbyMessageRecord = {
          ...message,
          content: input.content,
          metadata: input.metadata === undefined ? message.metadata : input.metadata,
          editedAt: now,
        };
        await tx.lobbies.updateMessage(message.id, edited);
        if (edited.content !== message.content) await tx.lobbies.clearModeration(message.id);
        const wire = serializeEditedLobbyMessage(edited, principal.user);
        afterCommit(tx, lobbyDispatches.messageUpdate(view, wire));
        await deps.webhookEvents.enqueue(tx, {
          applicationId: view.lobby.applicationId,
          type: 'LOBBY_MESSAGE_UPDATE',
          data: wire,
          url: view.lobby.overrideEventWebhooksUrl,
        });
        return wire;
      });
    },

    /**
     * DELETE /lobbies/{id}/messages/{message}: the author (Bearer, a member) or the lobby
     * application's bot. The message goes with its moderation metadata; LOBBY_MESSAGE_DELETE
     * `{id, lobby_id}` to the members and by webhook event.
     */
    async remove(principal: Principal, target: LobbyMessageTarget) {
      const applicationId = applicationOf(principal);
      const asBot = principal.kind === 'bot';
      await storage.transaction(async (tx) => {
        const now = clock.now();
        const view = await loadLobby(tx, { lobbyId: target.lobbyId, applicationId, now });
        if (!asBot) requireMember(view, principal.user.id);
        const message = await findMessage(tx, view, target.messageId);
        if (!asBot) requireAuthor(message, principal.user.id);
        await tx.lobbies.deleteMessage(view.lobby.id, message.id);
        afterCommit(tx, lobbyDispatches.messageDelete(view, message.id));
        await deps.webhookEvents.enqueue(tx, {
          applicationId: view.lobby.applicationId,
          type: 'LOBBY_MESSAGE_DELETE',
          data: { id: message.id, lobby_id: view.lobby.id },
          url: view.lobby.overrideEventWebhooksUrl,
        });
      });
    },
  };
}
