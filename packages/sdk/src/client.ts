/**
 * `Client`: the Social SDK's one object. Its operations carry the reference SDK's names in
 * camelCase (docs/sdk.md has the table), return promises instead of taking result callbacks, and
 * reject with `SdkError`. Events arrive through the `set…Callback` methods, one callback each.
 *
 * Each feature area lives in its own module and is reached through a section below.
 *
 * @module
 */
import {
  ClientError,
  ClientStatus,
  LoggingSeverity,
  type AuthorizationTokenType,
} from './enums.js';
import { validationError } from './errors.js';
import { Gateway } from './gateway.js';
import { Http } from './http.js';
import { Logger, type LogCallback } from './log.js';
import { resolvePlatform, type Platform } from './platform.js';
import { SocialState } from './state.js';
import { ClientCore } from './core.js';
import { SDK_VERSION } from './version.js';
import { AuthArea } from './auth.js';
import { UsersArea } from './users.js';
import { RelationshipsArea } from './relationships.js';
import { PresenceArea } from './presence.js';
import {
  MessagesArea,
  type ChannelHandle,
  type MessageCreatedCallback,
  type MessageDeletedCallback,
  type MessageHandle,
  type MessageUpdatedCallback,
  type UserMessageSummary,
} from './messages.js';
import {
  LobbiesArea,
  type LobbyCreatedCallback,
  type LobbyDeletedCallback,
  type LobbyHandle,
  type LobbyMemberAddedCallback,
  type LobbyMemberRemovedCallback,
  type LobbyMemberUpdatedCallback,
  type LobbyUpdatedCallback,
  type ProvisionalUserMergeRequiredCallback,
} from './lobbies.js';
import { GuildsArea, type GuildChannel, type GuildMinimal } from './guilds.js';
import { LaunchArea } from './launch.js';
import { VoiceArea } from './voice.js';
import type { WireReady } from './wire.js';

export interface ClientOptions {
  /** The API base with its version. Default: `http://127.0.0.1:8080/api/v10` (`npm start`). */
  apiBase?: string;
  /** The web client's base, for deep links and invites. Default: the API's origin. */
  webBase?: string;
  /**
   * The redirect URI of `authorize()`. Default: in a browser, `callback.html` beside the page;
   * in Node, `http://127.0.0.1:<free port>/callback` (register `http://127.0.0.1/callback`).
   */
  redirectUri?: string;
  /** Replaces parts of the platform: the WebSocket, how URLs are opened, launch registration. */
  platform?: Partial<Platform>;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

export type StatusChangedCallback = (
  status: ClientStatus,
  error: ClientError,
  errorDetail: number,
) => void;

export const DEFAULT_API_BASE = 'http://127.0.0.1:8080/api/v10';

export class Client {
  /** The reference SDK's `Client::GetVersionMajor/Minor/Patch`, as one string. */
  static readonly version = SDK_VERSION;

  protected readonly core: ClientCore;
  // The feature areas (one module each), reached through the sections below.
  protected readonly auth: AuthArea;
  protected readonly users: UsersArea;
  protected readonly relationships: RelationshipsArea;
  protected readonly presence: PresenceArea;
  protected readonly messages: MessagesArea;
  protected readonly lobbies: LobbiesArea;
  protected readonly guilds: GuildsArea;
  protected readonly launch: LaunchArea;
  protected readonly voice: VoiceArea;
  readonly #options: ClientOptions;
  #statusChanged: StatusChangedCallback | null = null;

  constructor(options: ClientOptions = {}) {
    this.#options = options;
    const apiBase = (options.apiBase ?? DEFAULT_API_BASE).replace(/\/+$/, '');
    const logger = new Logger();
    const platform = resolvePlatform(options.platform);
    const state = new SocialState();
    let core: ClientCore | null = null;
    const http = new Http({
      apiBase,
      logger,
      authorization: () => core?.authorization() ?? null,
      onRateLimitWait: (waiting) => {
        core?.gateway.setHttpWait(waiting);
      },
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
    const gateway = new Gateway({
      http,
      logger,
      WebSocket: platform.WebSocket,
      token: () => core?.authorization() ?? null,
      onStatus: (status, error, detail) => {
        this.#onStatus(status, error, detail);
      },
      onDispatch: (type, data) => {
        core?.dispatch(type, data);
      },
      properties: { os: platform.name, browser: 'guildhall-social-sdk', device: SDK_VERSION },
    });
    core = new ClientCore({
      http,
      gateway,
      logger,
      state,
      platform,
      webBase: (options.webBase ?? new URL(apiBase).origin).replace(/\/+$/, ''),
    });
    this.core = core;
    // Before the areas' handlers: a new session's READY clears the state, then each area fills it.
    core.on('READY', (data) => {
      const ready = data as WireReady;
      state.clear();
      state.currentUser = ready.user;
      state.applicationId = ready.application?.id ?? null;
      state.cacheUser(ready.user);
    });
    core.on('USER_UPDATE', (data) => {
      const user = data as WireReady['user'];
      state.cacheUser(user);
      if (state.currentUser?.id === user.id) state.currentUser = { ...state.currentUser, ...user };
    });
    this.auth = new AuthArea(core);
    this.users = new UsersArea(core);
    this.relationships = new RelationshipsArea(core);
    this.presence = new PresenceArea(core);
    this.messages = new MessagesArea(core);
    this.lobbies = new LobbiesArea(core);
    this.guilds = new GuildsArea(core);
    this.launch = new LaunchArea(core);
    this.voice = new VoiceArea(core);
  }

  /** The options the client was made with (redirect URI…), for the SDK's own modules. */
  protected get options(): ClientOptions {
    return this.#options;
  }

  // ── Connection and status ─────────────────────────────────────────────────────────────────

  /** Opens the gateway session with the token of `updateToken`; the status reaches Ready. */
  connect(): void {
    this.core.gateway.connect();
  }

  /** Closes the gateway session. */
  disconnect(): void {
    this.core.gateway.disconnect();
  }

  getStatus(): ClientStatus {
    return this.core.gateway.status;
  }

  /** Called on every status change, with why (`ClientError`) and a detail (a close code). */
  setStatusChangedCallback(callback: StatusChangedCallback | null): void {
    this.#statusChanged = callback;
  }

  /** The default application of the operations that take one (`Client::SetApplicationId`). */
  setApplicationId(applicationId: string): void {
    if (!/^\d{1,20}$/.test(applicationId)) {
      throw validationError(`setApplicationId: "${applicationId}" is not an application id.`);
    }
    this.core.applicationId = applicationId;
  }

  getApplicationId(): string | null {
    return this.core.applicationId ?? this.core.state.applicationId;
  }

  /**
   * Supplies the token the client uses (after getToken, a provisional login, or a refresh).
   * A connected client keeps its session and uses the new token from its next (re)connect.
   */
  updateToken(tokenType: AuthorizationTokenType, token: string): Promise<void> {
    if (typeof token !== 'string' || token.trim() === '') {
      return Promise.reject(validationError('updateToken: the token is empty.'));
    }
    this.core.token = { type: tokenType, value: token };
    this.core.logger.secret(token);
    this.core.logger.info('Token updated.');
    return Promise.resolve();
  }

  /** Sets the timeout of each HTTP request, in ms (default 30000). */
  setHttpRequestTimeout(httpTimeoutInMilliseconds: number): void {
    if (!Number.isInteger(httpTimeoutInMilliseconds) || httpTimeoutInMilliseconds <= 0) {
      throw validationError(
        'setHttpRequestTimeout: the timeout must be a positive whole number of ms.',
      );
    }
    this.core.http.timeoutMs = httpTimeoutInMilliseconds;
  }

  /** Adds a consumer of the SDK's log lines at `minSeverity` and above. Tokens never appear. */
  addLogCallback(callback: LogCallback, minSeverity: LoggingSeverity = LoggingSeverity.Info): void {
    this.core.logger.add(callback, minSeverity);
  }

  #onStatus(status: ClientStatus, error: ClientError, detail: number): void {
    this.core.logger.info(
      `Status: ${statusName(status)}${error === ClientError.None ? '' : ` (${errorName(error)}, ${detail})`}`,
    );
    this.core.invoke(this.#statusChanged, status, error, detail);
  }

  // ── Auth (auth.ts) ────────────────────────────────────────────────────────────────────────

  // ── Users (users.ts) ──────────────────────────────────────────────────────────────────────

  // ── Relationships (relationships.ts) ──────────────────────────────────────────────────────

  // ── Presence and activities (presence.ts) ─────────────────────────────────────────────────

  // ── Messages (messages.ts) ────────────────────────────────────────────────────────────────

  /** Sends a DM to a user (`POST /users/{id}/messages`); resolves with the message id. */
  sendUserMessage(recipientId: string, content: string): Promise<string> {
    return this.messages.sendUserMessage(recipientId, content);
  }

  /** `sendUserMessage` with the game's metadata for the recipient's client. */
  sendUserMessageWithMetadata(
    recipientId: string,
    content: string,
    metadata: Record<string, string>,
  ): Promise<string> {
    return this.messages.sendUserMessageWithMetadata(recipientId, content, metadata);
  }

  /** Edits one of the player's DM messages (`PATCH /users/{id}/messages/{message}`). */
  editUserMessage(recipientId: string, messageId: string, content: string): Promise<void> {
    return this.messages.editUserMessage(recipientId, messageId, content);
  }

  /** Deletes one of the player's DM messages (`DELETE /users/{id}/messages/{message}`). */
  deleteUserMessage(recipientId: string, messageId: string): Promise<void> {
    return this.messages.deleteUserMessage(recipientId, messageId);
  }

  /** A DM or lobby message the client has seen, or null. */
  getMessageHandle(messageId: string): MessageHandle | null {
    return this.messages.getMessageHandle(messageId);
  }

  /** A DM, group DM or lobby channel the client knows, or null. */
  getChannelHandle(channelId: string): ChannelHandle | null {
    return this.messages.getChannelHandle(channelId);
  }

  /** The last message of each DM (`GET /users/@me/channels`). */
  getUserMessageSummaries(): Promise<UserMessageSummary[]> {
    return this.messages.getUserMessageSummaries();
  }

  /**
   * The newest `limit` messages of the DM with a user, newest first; from the local cache
   * without a request when it holds enough.
   */
  getUserMessagesWithLimit(recipientId: string, limit: number): Promise<MessageHandle[]> {
    return this.messages.getUserMessagesWithLimit(recipientId, limit);
  }

  /** Called with the id of each new DM or lobby message. */
  setMessageCreatedCallback(callback: MessageCreatedCallback | null): void {
    this.messages.setMessageCreatedCallback(callback);
  }

  /** Called with the id of each edited DM or lobby message. */
  setMessageUpdatedCallback(callback: MessageUpdatedCallback | null): void {
    this.messages.setMessageUpdatedCallback(callback);
  }

  /** Called with the message id and channel (or lobby) id of each deleted message. */
  setMessageDeletedCallback(callback: MessageDeletedCallback | null): void {
    this.messages.setMessageDeletedCallback(callback);
  }

  // ── Lobbies (lobbies.ts) ──────────────────────────────────────────────────────────────────

  /** Joins the application's lobby of this secret, or makes it (`PUT /lobbies`); its id. */
  createOrJoinLobby(secret: string): Promise<string> {
    return this.lobbies.createOrJoinLobby(secret);
  }

  /** `createOrJoinLobby` that also replaces the lobby's and the player's metadata. */
  createOrJoinLobbyWithMetadata(
    secret: string,
    lobbyMetadata: Record<string, string>,
    memberMetadata: Record<string, string>,
  ): Promise<string> {
    return this.lobbies.createOrJoinLobbyWithMetadata(secret, lobbyMetadata, memberMetadata);
  }

  /** Leaves a lobby (`DELETE /lobbies/{id}/members/@me`). */
  leaveLobby(lobbyId: string): Promise<void> {
    return this.lobbies.leaveLobby(lobbyId);
  }

  /** A lobby the player is in, or null. */
  getLobbyHandle(lobbyId: string): LobbyHandle | null {
    return this.lobbies.getLobbyHandle(lobbyId);
  }

  /** The ids of the lobbies the player is in. */
  getLobbyIds(): string[] {
    return this.lobbies.getLobbyIds();
  }

  /** Sends a lobby message (`POST /lobbies/{id}/messages`); resolves with its id. */
  sendLobbyMessage(lobbyId: string, content: string): Promise<string> {
    return this.lobbies.sendLobbyMessage(lobbyId, content);
  }

  /** `sendLobbyMessage` with metadata for the other members' clients. */
  sendLobbyMessageWithMetadata(
    lobbyId: string,
    content: string,
    metadata: Record<string, string>,
  ): Promise<string> {
    return this.lobbies.sendLobbyMessageWithMetadata(lobbyId, content, metadata);
  }

  /** The newest `limit` (≤ 200) messages of the last 72 hours of a lobby the player is in. */
  getLobbyMessagesWithLimit(lobbyId: string, limit: number): Promise<MessageHandle[]> {
    return this.lobbies.getLobbyMessagesWithLimit(lobbyId, limit);
  }

  /** Links a guild text channel to a lobby (`PATCH /lobbies/{id}/channel-linking`). */
  linkChannelToLobby(lobbyId: string, channelId: string): Promise<void> {
    return this.lobbies.linkChannelToLobby(lobbyId, channelId);
  }

  /** Unlinks the lobby's channel. */
  unlinkChannelFromLobby(lobbyId: string): Promise<void> {
    return this.lobbies.unlinkChannelFromLobby(lobbyId);
  }

  /**
   * Opens an invite into the guild of the lobby's linked channel; resolves with its URL. For a
   * provisional account the callback runs instead and the promise rejects.
   */
  joinLinkedLobbyGuild(
    lobbyId: string,
    provisionalUserMergeRequiredCallback: ProvisionalUserMergeRequiredCallback | null,
  ): Promise<string> {
    return this.lobbies.joinLinkedLobbyGuild(lobbyId, provisionalUserMergeRequiredCallback);
  }

  setLobbyCreatedCallback(callback: LobbyCreatedCallback | null): void {
    this.lobbies.setLobbyCreatedCallback(callback);
  }

  setLobbyDeletedCallback(callback: LobbyDeletedCallback | null): void {
    this.lobbies.setLobbyDeletedCallback(callback);
  }

  setLobbyUpdatedCallback(callback: LobbyUpdatedCallback | null): void {
    this.lobbies.setLobbyUpdatedCallback(callback);
  }

  setLobbyMemberAddedCallback(callback: LobbyMemberAddedCallback | null): void {
    this.lobbies.setLobbyMemberAddedCallback(callback);
  }

  setLobbyMemberRemovedCallback(callback: LobbyMemberRemovedCallback | null): void {
    this.lobbies.setLobbyMemberRemovedCallback(callback);
  }

  setLobbyMemberUpdatedCallback(callback: LobbyMemberUpdatedCallback | null): void {
    this.lobbies.setLobbyMemberUpdatedCallback(callback);
  }

  // ── Guilds (guilds.ts) ────────────────────────────────────────────────────────────────────

  /** The guilds the player is in (`GET /users/@me/guilds`). */
  getUserGuilds(): Promise<GuildMinimal[]> {
    return this.guilds.getUserGuilds();
  }

  /** A guild's channels, with linkability, in the web client's order. */
  getGuildChannels(guildId: string): Promise<GuildChannel[]> {
    return this.guilds.getGuildChannels(guildId);
  }

  // ── Launch and platform links (launch.ts) ─────────────────────────────────────────────────

  // ── Voice (voice.ts) ──────────────────────────────────────────────────────────────────────
}

const STATUS_NAMES = Object.keys(ClientStatus);
const ERROR_NAMES = Object.keys(ClientError);

/** `Client::StatusToString`. */
export function statusName(status: ClientStatus): string {
  return (
    STATUS_NAMES.find((name) => ClientStatus[name as keyof typeof ClientStatus] === status) ??
    'Unknown'
  );
}

/** `Client::ErrorToString`. */
export function errorName(error: ClientError): string {
  return (
    ERROR_NAMES.find((name) => ClientError[name as keyof typeof ClientError] === error) ?? 'Unknown'
  );
}
