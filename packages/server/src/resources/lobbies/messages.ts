/** Lobby messages: send (with the linked channel mirror and the webhook event), list, moderate. */
import { isSnowflake } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import { afterCommit, afterCommitTask } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import type { LobbyMessageRecord, LobbyMetadata, Repositories } from '../../storage/index.js';
import { lobbyDispatches } from './dispatch.js';
import { LOBBY_LIMITS, type SendMessageInput } from './schemas.js';
import { serializeLobbyMessage } from './serialize.js';
import { applicationOf, loadLobby, requireMember, type LobbyServiceDeps } from './shared.js';

/**
 * Posts a lobby message's content into the lobby's linked guild channel, as its author (the
 * message service's own rules: the author must be able to send there).
 */
export type LobbyMirror = (
  principal: Principal,
  channelId: string,
  content: string,
) => Promise<unknown>;

export interface LobbyMessageDeps extends LobbyServiceDeps {
  mirror?: LobbyMirror;
  /** Told of a mirror that failed; the lobby message stands. */
  onMirrorError?: (err: unknown, context: { lobbyId: string; messageId: string }) => void;
}

export function createLobbyMessageOperations(deps: LobbyMessageDeps) {
  const { storage, clock, ids } = deps;
  const consume = deps.limits.consume.bind(deps.limits);

  const wiresOf = async (
    repos: Repositories,
    messages: readonly LobbyMessageRecord[],
    moderation: Map<string, LobbyMetadata>,
  ) => {
    const authors = new Map(
      await Promise.all(
        [...new Set(messages.map((m) => m.authorId))].map(
          async (id) => [id, await repos.users.findById(id)] as const,
        ),
      ),
    );
    return messages.flatMap((message) => {
      const author = authors.get(message.authorId);
      return author == null
        ? []
        : [serializeLobbyMessage(message, author, moderation.get(message.id))];
    });
  };

  return {
    /**
     * POST /lobbies/{id}/messages (an SDK client, a member): LOBBY_MESSAGE_CREATE to the members
     * and by webhook event; then, when the lobby is linked, the content is posted into the linked
     * channel as the author. A failed mirror is reported and never fails the send.
     */
    async send(principal: Principal, lobbyId: string, input: SendMessageInput) {
      const applicationId = applicationOf(principal);
      await consume(applicationId, 'lobby_message_send');
      return storage.transaction(async (tx) => {
        const now = clock.now();
        const view = await loadLobby(tx, { lobbyId, applicationId, now });
        const member = requireMember(view, principal.user.id);
        const message: LobbyMessageRecord = {
          id: ids(),
          lobbyId: view.lobby.id,
          authorId: principal.user.id,
          applicationId,
          content: input.content,
          metadata: input.metadata ?? null,
          flags: input.flags ?? 0,
          additionalName: member.additionalName,
          createdAt: now,
          editedAt: null,
        };
        await tx.lobbies.createMessage(message);
        const wire = serializeLobbyMessage(message, principal.user);
        afterCommit(tx, lobbyDispatches.messageCreate(view, wire));
        await deps.webhookEvents.enqueue(tx, {
          applicationId: view.lobby.applicationId,
          type: 'LOBBY_MESSAGE_CREATE',
          data: wire,
          url: view.lobby.overrideEventWebhooksUrl,
        });
        const channelId = view.lobby.linkedChannelId;
        const mirror = deps.mirror;
        if (channelId !== null && mirror !== undefined) {
          afterCommitTask(tx, async () => {
            try {
              await mirror(principal, channelId, message.content);
            } catch (err) {
              deps.onMirrorError?.(err, { lobbyId: message.lobbyId, messageId: message.id });
            }
          });
        }
        return wire;
      });
    },

    /**
     * GET /lobbies/{id}/messages (an SDK client, a member): the newest `limit` messages of the
     * last 72 hours, newest first, with the application's own moderation metadata.
     */
    async list(principal: Principal, lobbyId: string, limit: number | undefined) {
      const applicationId = applicationOf(principal);
      const now = clock.now();
      const view = await loadLobby(storage, { lobbyId, applicationId, now });
      requireMember(view, principal.user.id);
      const messages = await storage.lobbies.listMessages(view.lobby.id, {
        since: now - LOBBY_LIMITS.messageHistoryMs,
        limit: limit ?? LOBBY_LIMITS.defaultMessages,
      });
      const moderation = await storage.lobbies.listModeration(
        applicationId,
        messages.map((m) => m.id),
      );
      return wiresOf(storage, messages, moderation);
    },

    /**
     * PUT /lobbies/{id}/messages/{message}/moderation-metadata (the application's bot): replaces
     * the application's moderation metadata of the message. It is the application's alone: no
     * other application, gateway payload or webhook event carries it, and it fires no event.
     */
    async putModeration(
      principal: Principal,
      { lobbyId, messageId }: { lobbyId: string; messageId: string },
      metadata: LobbyMetadata,
    ) {
      const applicationId = applicationOf(principal);
      await storage.transaction(async (tx) => {
        const now = clock.now();
        const view = await loadLobby(tx, { lobbyId, applicationId, now });
        const message = isSnowflake(messageId)
          ? await tx.lobbies.findMessage(view.lobby.id, messageId)
          : null;
        if (message === null) throw new ApiError('UNKNOWN_MESSAGE');
        await tx.lobbies.putModeration({
          messageId: message.id,
          applicationId,
          metadata,
          updatedAt: now,
        });
      });
    },
  };
}
