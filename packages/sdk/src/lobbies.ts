/**
 * Lobbies: create or join by secret, leave, lobby messages, linked channels, and the lobby
 * callbacks. The lobbies the player is in live in `core.state.lobbies`, filled from READY and
 * kept by the LOBBY_* dispatches (docs/lobbies.md#events) in lobbyCache.ts.
 *
 * @module
 */
import { ErrorType } from './enums.js';
import { SdkError, validationError } from './errors.js';
import type { ClientCore } from './core.js';
import { discloseOnce } from './disclosure.js';
import { requireContent, requireMetadata, requireSnowflake } from './messageChecks.js';
import { MessageHandle } from './messageHandle.js';
import { LobbyHandle } from './lobbyHandle.js';
import {
  LobbyCache,
  type LobbyCreatedCallback,
  type LobbyDeletedCallback,
  type LobbyMemberAddedCallback,
  type LobbyMemberRemovedCallback,
  type LobbyMemberUpdatedCallback,
  type LobbyUpdatedCallback,
} from './lobbyCache.js';
import type { WireLobby, WireMessage } from './wire.js';

export {
  LOBBY_MEMBER_CAN_LINK,
  LinkedChannel,
  LobbyHandle,
  LobbyMemberHandle,
} from './lobbyHandle.js';
export type {
  LobbyCreatedCallback,
  LobbyDeletedCallback,
  LobbyMemberAddedCallback,
  LobbyMemberRemovedCallback,
  LobbyMemberUpdatedCallback,
  LobbyUpdatedCallback,
} from './lobbyCache.js';

/** The platform's lobby limits (docs/lobbies.md#rules). */
export const LOBBY_LIMITS = {
  maxSecretLength: 250,
  maxMetadataKeys: 25,
  maxMetadataValue: 1024,
  /** A member's metadata: keys and values together. */
  maxMemberMetadataChars: 1000,
  maxMessageContent: 4000,
  /** getLobbyMessagesWithLimit: the most messages, and how far back (72 hours). */
  maxMessages: 200,
} as const;

/** The platform's "Invalid user type": a provisional account asked for a guild invite. */
const INVALID_USER_TYPE = 50229;

export type ProvisionalUserMergeRequiredCallback = () => void;

export class LobbiesArea {
  protected readonly core: ClientCore;
  /** The lobbies kept from the dispatches, and the callbacks set below. */
  readonly #cache: LobbyCache;

  constructor(core: ClientCore) {
    this.core = core;
    this.#cache = new LobbyCache(core);
  }

  setLobbyCreatedCallback(callback: LobbyCreatedCallback | null): void {
    this.#cache.callbacks.created = callback;
  }

  setLobbyDeletedCallback(callback: LobbyDeletedCallback | null): void {
    this.#cache.callbacks.deleted = callback;
  }

  setLobbyUpdatedCallback(callback: LobbyUpdatedCallback | null): void {
    this.#cache.callbacks.updated = callback;
  }

  setLobbyMemberAddedCallback(callback: LobbyMemberAddedCallback | null): void {
    this.#cache.callbacks.memberAdded = callback;
  }

  setLobbyMemberRemovedCallback(callback: LobbyMemberRemovedCallback | null): void {
    this.#cache.callbacks.memberRemoved = callback;
  }

  setLobbyMemberUpdatedCallback(callback: LobbyMemberUpdatedCallback | null): void {
    this.#cache.callbacks.memberUpdated = callback;
  }

  /** `PUT /lobbies`: joins the application's lobby of this secret, or makes it. */
  createOrJoinLobby(secret: string): Promise<string> {
    return this.#createOrJoin('createOrJoinLobby', { secret });
  }

  /**
   * `PUT /lobbies` with `lobby_metadata` (replaces the lobby's) and `member_metadata` (replaces
   * the player's).
   */
  async createOrJoinLobbyWithMetadata(
    secret: string,
    lobbyMetadata: Record<string, string>,
    memberMetadata: Record<string, string>,
  ): Promise<string> {
    const operation = 'createOrJoinLobbyWithMetadata';
    const lobby = requireMetadata(operation, 'lobbyMetadata', lobbyMetadata);
    const member = requireMetadata(operation, 'memberMetadata', memberMetadata);
    const chars = Object.entries(member).reduce((n, [k, v]) => n + k.length + v.length, 0);
    if (chars > LOBBY_LIMITS.maxMemberMetadataChars) {
      throw validationError(
        `${operation}: memberMetadata has ${chars} characters of keys and values; the most is ${LOBBY_LIMITS.maxMemberMetadataChars}.`,
      );
    }
    return this.#createOrJoin(operation, {
      secret,
      lobby_metadata: lobby,
      member_metadata: member,
    });
  }

  async #createOrJoin(
    operation: string,
    body: { secret: string } & Record<string, unknown>,
  ): Promise<string> {
    const { secret } = body;
    if (typeof secret !== 'string' || secret === '') {
      throw validationError(`${operation}: the secret is empty; pass the lobby's secret.`);
    }
    if (secret.length > LOBBY_LIMITS.maxSecretLength) {
      throw validationError(
        `${operation}: the secret is longer than ${LOBBY_LIMITS.maxSecretLength} characters.`,
      );
    }
    this.core.requireReady(operation);
    // The LOBBY_CREATE dispatch that follows runs the lobby-created callback.
    const lobby = await this.core.http.request<WireLobby>('PUT', '/lobbies', { json: body });
    this.#cache.keep(lobby);
    return lobby.id;
  }

  /** `DELETE /lobbies/{id}/members/@me`: the player leaves the lobby. */
  async leaveLobby(lobbyId: string): Promise<void> {
    const operation = 'leaveLobby';
    requireSnowflake(operation, 'lobbyId', lobbyId);
    this.core.requireReady(operation);
    await this.core.http.request('DELETE', `/lobbies/${lobbyId}/members/@me`);
    this.#cache.drop(lobbyId);
  }

  getLobbyHandle(lobbyId: string): LobbyHandle | null {
    return this.core.state.lobbies.has(lobbyId) ? new LobbyHandle(this.core, lobbyId) : null;
  }

  /** The lobbies the player is in (of the token's application). */
  getLobbyIds(): string[] {
    return [...this.core.state.lobbies.keys()];
  }

  /** `POST /lobbies/{id}/messages`: sends a lobby message; resolves with its id. */
  sendLobbyMessage(lobbyId: string, content: string): Promise<string> {
    return this.#send('sendLobbyMessage', lobbyId, { content });
  }

  /** `POST /lobbies/{id}/messages` with metadata (shown to members in the dispatch). */
  async sendLobbyMessageWithMetadata(
    lobbyId: string,
    content: string,
    metadata: Record<string, string>,
  ): Promise<string> {
    const operation = 'sendLobbyMessageWithMetadata';
    return this.#send(operation, lobbyId, {
      content,
      metadata: requireMetadata(operation, 'metadata', metadata),
    });
  }

  async #send(
    operation: string,
    lobbyId: string,
    body: { content: string; metadata?: Record<string, string> },
  ): Promise<string> {
    requireSnowflake(operation, 'lobbyId', lobbyId);
    requireContent(operation, body.content, LOBBY_LIMITS.maxMessageContent);
    this.core.requireReady(operation);
    const message = await this.core.http.request<WireMessage>(
      'POST',
      `/lobbies/${lobbyId}/messages`,
      { json: body },
    );
    this.#cache.keepMessage(message);
    discloseOnce(this.core, message);
    return message.id;
  }

  /**
   * `GET /lobbies/{id}/messages?limit=`: the newest `limit` (1–200) messages of the last 72
   * hours, newest first; only for a member (else SdkError 403, code 50001).
   */
  async getLobbyMessagesWithLimit(lobbyId: string, limit: number): Promise<MessageHandle[]> {
    const operation = 'getLobbyMessagesWithLimit';
    requireSnowflake(operation, 'lobbyId', lobbyId);
    if (!Number.isInteger(limit) || limit < 1 || limit > LOBBY_LIMITS.maxMessages) {
      throw validationError(
        `${operation}: limit must be a whole number from 1 to ${LOBBY_LIMITS.maxMessages}.`,
      );
    }
    this.core.requireReady(operation);
    const messages = await this.core.http.get<WireMessage[]>(`/lobbies/${lobbyId}/messages`, {
      limit,
    });
    for (const message of messages) this.#cache.keepMessage(message);
    return messages.map((message) => new MessageHandle(this.core, message.id));
  }

  /**
   * `PATCH /lobbies/{id}/channel-linking`: links a guild text channel (the player needs the
   * lobby's CanLinkLobby flag and MANAGE_CHANNELS in the channel).
   */
  async linkChannelToLobby(lobbyId: string, channelId: string): Promise<void> {
    const operation = 'linkChannelToLobby';
    requireSnowflake(operation, 'lobbyId', lobbyId);
    requireSnowflake(operation, 'channelId', channelId);
    this.core.requireReady(operation);
    await this.#link(lobbyId, { channel_id: channelId });
  }

  /** `PATCH /lobbies/{id}/channel-linking` without a channel: unlinks. */
  async unlinkChannelFromLobby(lobbyId: string): Promise<void> {
    const operation = 'unlinkChannelFromLobby';
    requireSnowflake(operation, 'lobbyId', lobbyId);
    this.core.requireReady(operation);
    await this.#link(lobbyId, {});
  }

  async #link(lobbyId: string, body: { channel_id?: string }): Promise<void> {
    const lobby = await this.core.http.request<WireLobby>(
      'PATCH',
      `/lobbies/${lobbyId}/channel-linking`,
      { json: body },
    );
    this.#cache.keep(lobby);
  }

  /**
   * Lets the player join the guild of the lobby's linked channel: asks for their own invite
   * (`POST /lobbies/{id}/members/@me/invites`) and opens `${webBase}/invite/<code>` through the
   * platform; resolves with that URL. A provisional account cannot join a guild: the server
   * refuses it (400, 50229), `provisionalUserMergeRequiredCallback` runs (ask the player to link
   * their account), and the promise rejects with that error.
   */
  async joinLinkedLobbyGuild(
    lobbyId: string,
    provisionalUserMergeRequiredCallback: ProvisionalUserMergeRequiredCallback | null,
  ): Promise<string> {
    const operation = 'joinLinkedLobbyGuild';
    requireSnowflake(operation, 'lobbyId', lobbyId);
    this.core.requireReady(operation);
    let code: string;
    try {
      ({ code } = await this.core.http.request<{ code: string }>(
        'POST',
        `/lobbies/${lobbyId}/members/@me/invites`,
      ));
    } catch (error) {
      if (error instanceof SdkError && error.code === INVALID_USER_TYPE) {
        this.core.invoke(provisionalUserMergeRequiredCallback);
        throw new SdkError(
          `${operation}: a provisional account cannot join a guild; link the player's account (authorize, then getTokenFromProvisionalMerge) and try again.`,
          { type: ErrorType.HTTPError, status: error.status, code: error.code, cause: error },
        );
      }
      throw error;
    }
    const url = `${this.core.webBase}/invite/${encodeURIComponent(code)}`;
    await this.core.platform.openUrl(url, this.core.logger);
    return url;
  }
}
