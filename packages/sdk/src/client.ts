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
  type AuthenticationExternalAuthType,
  type AuthorizationTokenType,
  type RelationshipGroupType,
  type StatusType,
} from './enums.js';
import { AudioDeviceUnavailableError, validationError, type SdkError } from './errors.js';
import { Logger, type LogCallback } from './log.js';
import { resolvePlatform, type Platform } from './platform.js';
import { SocialState } from './state.js';
import { ClientCore } from './core.js';
import { SDK_VERSION } from './version.js';
import {
  AuthArea,
  type AuthorizationArgs,
  type AuthorizationCodeVerifier,
  type AuthorizeRequestCallback,
  type AuthorizeResult,
  type DeviceAuthorizationArgs,
  type TokenExchange,
} from './auth.js';
import {
  UsersArea,
  type UserApplicationProfileHandle,
  type UserHandle,
  type UserUpdatedCallback,
} from './users.js';
import {
  RelationshipsArea,
  type RelationshipCreatedCallback,
  type RelationshipDeletedCallback,
  type RelationshipGroupsUpdatedCallback,
  type RelationshipHandle,
} from './relationships.js';
import {
  PresenceArea,
  type Activity,
  type ActivityInvite,
  type ActivityInviteCallback,
  type ActivityJoinCallback,
  type ActivityJoinWithApplicationCallback,
} from './presence.js';
import type { ChannelHandle, MessageHandle, UserMessageSummary } from './messageHandle.js';
import {
  MessagesArea,
  type MessageCreatedCallback,
  type MessageDeletedCallback,
  type MessageUpdatedCallback,
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
import { canOpenMessageInDiscord, openMessageInDiscord } from './messageLinks.js';
import { GuildsArea, type GuildChannel, type GuildMinimal } from './guilds.js';
import { TokenExpiry, type TokenExpirationCallback } from './tokenExpiry.js';
import { LaunchArea } from './launch.js';
import {
  VoiceArea,
  type AudioDevice,
  type Call,
  type DeviceChangeCallback,
  type NoAudioInputCallback,
  type UserAudioCapturedCallback,
  type UserAudioReceivedCallback,
  type VoiceParticipantChangedCallback,
  type VoiceSettings,
  type VoiceSettingsUpdatedCallback,
} from './voice.js';
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
  protected readonly tokenExpiry: TokenExpiry;
  readonly #options: ClientOptions;
  #statusChanged: StatusChangedCallback | null = null;

  constructor(options: ClientOptions = {}) {
    this.#options = options;
    const apiBase = (options.apiBase ?? DEFAULT_API_BASE).replace(/\/+$/, '');
    const logger = new Logger();
    const platform = resolvePlatform(options.platform);
    const state = new SocialState();
    const core = new ClientCore({
      apiBase,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      logger,
      state,
      platform,
      webBase: (options.webBase ?? new URL(apiBase).origin).replace(/\/+$/, ''),
      onStatus: (status, error, detail) => {
        this.#onStatus(status, error, detail);
      },
      properties: { os: platform.name, browser: 'guildhall-social-sdk', device: SDK_VERSION },
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
    this.auth = new AuthArea(core, options.redirectUri ?? null);
    this.users = new UsersArea(core);
    this.relationships = new RelationshipsArea(core);
    this.presence = new PresenceArea(core);
    this.messages = new MessagesArea(core);
    this.lobbies = new LobbiesArea(core);
    this.guilds = new GuildsArea(core);
    this.launch = new LaunchArea(core);
    this.voice = new VoiceArea(core);
    this.tokenExpiry = new TokenExpiry(core);
    // After the areas' handlers: they compare a user before and after the update (presence.ts).
    core.on('USER_UPDATE', (data) => {
      const user = data as WireReady['user'];
      state.cacheUser(user);
      if (state.currentUser?.id === user.id) state.currentUser = { ...state.currentUser, ...user };
    });
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

  /** Closes the gateway session (and ends the player's calls first: they need it). */
  disconnect(): void {
    this.voice.endCalls();
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
    this.tokenExpiry.tokenChanged();
    return Promise.resolve();
  }

  /**
   * Called once per Bearer token when it is about to expire (TOKEN_EXPIRY_NOTICE_MS before) or
   * has expired: get a new one and hand it to `updateToken`. The expiry is read from the
   * platform whenever the token changes; null stops the notices.
   */
  setTokenExpirationCallback(callback: TokenExpirationCallback | null): void {
    this.tokenExpiry.setCallback(callback);
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
    // A session that ended for good (a fatal close) takes its calls with it.
    if (status === ClientStatus.Disconnected) this.voice.endCalls();
    this.core.invoke(this.#statusChanged, status, error, detail);
  }

  // ── Auth (auth.ts) ────────────────────────────────────────────────────────────────────────

  /** `"openid sdk.social_layer"`: friends, presence, DMs, lobbies, voice. */
  getDefaultCommunicationScopes(): string {
    return this.auth.getDefaultCommunicationScopes();
  }

  /** `"openid sdk.social_layer_presence"`: friends and presence only. */
  getDefaultPresenceScopes(): string {
    return this.auth.getDefaultPresenceScopes();
  }

  /** A PKCE verifier and its S256 challenge (WebCrypto): the challenge goes in AuthorizationArgs. */
  createAuthorizationCodeVerifier(): Promise<AuthorizationCodeVerifier> {
    return this.auth.createAuthorizationCodeVerifier();
  }

  /**
   * Asks the person to authorize the game in their browser (Node: a loopback listener and
   * `platform.openUrl`; browser: a popup and the callback page's `completeAuthorize()`).
   * Resolves with the code and the redirect URI to pass to `getToken`.
   */
  authorize(args: AuthorizationArgs): Promise<AuthorizeResult> {
    return this.auth.authorize(args);
  }

  /** Ends a pending `authorize()` (it rejects with ErrorType.Aborted). */
  abortAuthorize(): void {
    this.auth.abortAuthorize();
  }

  /** Exchanges an authorize code for tokens (public client, PKCE) at POST /oauth2/token. */
  getToken(
    applicationId: string,
    code: string,
    codeVerifier: string,
    redirectUri: string,
  ): Promise<TokenExchange> {
    return this.auth.getToken({ applicationId, code, codeVerifier, redirectUri });
  }

  /** `getToken` that also merges the player's provisional account into the authorizing one. */
  getTokenFromProvisionalMerge(
    applicationId: string,
    code: string,
    codeVerifier: string,
    redirectUri: string,
    externalAuthType: AuthenticationExternalAuthType,
    externalAuthToken: string,
  ): Promise<TokenExchange> {
    return this.auth.getTokenFromProvisionalMerge(
      { applicationId, code, codeVerifier, redirectUri },
      externalAuthType,
      externalAuthToken,
    );
  }

  /** The device flow (RFC 8628), for apps that enabled it: the person approves on another device. */
  getTokenFromDevice(args: DeviceAuthorizationArgs): Promise<TokenExchange> {
    return this.auth.getTokenFromDevice(args);
  }

  /** The device flow, merging the player's provisional account into the approving one. */
  getTokenFromDeviceProvisionalMerge(
    args: DeviceAuthorizationArgs,
    externalAuthType: AuthenticationExternalAuthType,
    externalAuthToken: string,
  ): Promise<TokenExchange> {
    return this.auth.getTokenFromDeviceProvisionalMerge(args, externalAuthType, externalAuthToken);
  }

  /** Ends a pending `getTokenFromDevice()` (it rejects with ErrorType.Aborted). */
  abortGetTokenFromDevice(): void {
    this.auth.abortGetTokenFromDevice();
  }

  /** New tokens from a refresh token; the old refresh token stops working. */
  refreshToken(applicationId: string, refreshToken: string): Promise<TokenExchange> {
    return this.auth.refreshToken(applicationId, refreshToken);
  }

  /** Revokes the token's whole authorization (unlinking); connected clients are disconnected. */
  revokeToken(applicationId: string, token: string): Promise<void> {
    return this.auth.revokeToken(applicationId, token);
  }

  /** A provisional account's token from an external identity (POST /partner-sdk/token). */
  getProvisionalToken(
    applicationId: string,
    externalAuthType: AuthenticationExternalAuthType,
    externalAuthToken: string,
  ): Promise<TokenExchange> {
    return this.auth.getProvisionalToken(applicationId, externalAuthType, externalAuthToken);
  }

  /** Unlinks the external identity from its full account into a new provisional account. */
  unmergeIntoProvisionalAccount(
    applicationId: string,
    externalAuthType: AuthenticationExternalAuthType,
    externalAuthToken: string,
  ): Promise<void> {
    return this.auth.unmergeIntoProvisionalAccount(
      applicationId,
      externalAuthType,
      externalAuthToken,
    );
  }

  /** A child application's token from the parent's (publisher-level linking). */
  exchangeChildToken(
    parentApplicationToken: string,
    childApplicationId: string,
  ): Promise<TokenExchange> {
    return this.auth.exchangeChildToken(parentApplicationToken, childApplicationId);
  }

  /**
   * Registers the callback of authorize requests started inside the platform client (the person
   * asks from the web client; the connected client receives AUTHORIZE_REQUEST): call authorize().
   */
  registerAuthorizeRequestCallback(callback: AuthorizeRequestCallback): void {
    this.auth.registerAuthorizeRequestCallback(callback);
  }

  removeAuthorizeRequestCallback(): void {
    this.auth.removeAuthorizeRequestCallback();
  }

  /**
   * Sets a provisional account's display name (its global name, 1–32 characters); refused with
   * 530010 for a full account, whose name is the person's own.
   */
  updateProvisionalAccountDisplayName(name: string): Promise<void> {
    return this.users.updateProvisionalAccountDisplayName(name);
  }

  /** Whether the client holds a token (given with `updateToken`). */
  isAuthenticated(): boolean {
    return this.auth.isAuthenticated();
  }

  // ── Users (users.ts) ──────────────────────────────────────────────────────────────────────

  /** @deprecated Use getCurrentUserV2 (this one logs a warning once, and throws before READY). */
  getCurrentUser(): UserHandle {
    return this.users.getCurrentUser();
  }

  /** The player, or null until the client is ready. */
  getCurrentUserV2(): UserHandle | null {
    return this.users.getCurrentUserV2();
  }

  /** A user the client knows (friends, requests, authors, lobby members), else null. */
  getUser(userId: string): UserHandle | null {
    return this.users.getUser(userId);
  }

  /** Called with a user's id when their name, avatar, status or activities change. */
  setUserUpdatedCallback(callback: UserUpdatedCallback | null): void {
    this.users.setUserUpdatedCallback(callback);
  }

  /** A user's profiles in this game (GET /users/{id}/application-profiles), kept for NoLock. */
  getUserApplicationProfiles(userId: string): Promise<UserApplicationProfileHandle[]> {
    return this.users.getUserApplicationProfiles(userId);
  }

  /** The profiles getUserApplicationProfiles last read, without a request. */
  getUserApplicationProfilesNoLock(userId: string): UserApplicationProfileHandle[] {
    return this.users.getUserApplicationProfilesNoLock(userId);
  }

  // ── Relationships (relationships.ts) ──────────────────────────────────────────────────────

  getRelationships(): RelationshipHandle[] {
    return this.relationships.getRelationships();
  }

  getRelationshipHandle(userId: string): RelationshipHandle {
    return this.relationships.getRelationshipHandle(userId);
  }

  /** The friends of one group of a friends list, sorted by display name (docs/sdk.md). */
  getRelationshipsByGroup(groupType: RelationshipGroupType): RelationshipHandle[] {
    return this.relationships.getRelationshipsByGroup(groupType);
  }

  /** Called once per change that alters the groups of getRelationshipsByGroup. */
  setRelationshipGroupsUpdatedCallback(callback: RelationshipGroupsUpdatedCallback | null): void {
    this.relationships.setRelationshipGroupsUpdatedCallback(callback);
  }

  setRelationshipCreatedCallback(callback: RelationshipCreatedCallback | null): void {
    this.relationships.setRelationshipCreatedCallback(callback);
  }

  setRelationshipDeletedCallback(callback: RelationshipDeletedCallback | null): void {
    this.relationships.setRelationshipDeletedCallback(callback);
  }

  sendDiscordFriendRequest(username: string): Promise<void> {
    return this.relationships.sendDiscordFriendRequest(username);
  }

  sendDiscordFriendRequestById(userId: string): Promise<void> {
    return this.relationships.sendDiscordFriendRequestById(userId);
  }

  sendGameFriendRequest(username: string): Promise<void> {
    return this.relationships.sendGameFriendRequest(username);
  }

  sendGameFriendRequestById(userId: string): Promise<void> {
    return this.relationships.sendGameFriendRequestById(userId);
  }

  acceptDiscordFriendRequest(userId: string): Promise<void> {
    return this.relationships.acceptDiscordFriendRequest(userId);
  }

  acceptGameFriendRequest(userId: string): Promise<void> {
    return this.relationships.acceptGameFriendRequest(userId);
  }

  rejectDiscordFriendRequest(userId: string): Promise<void> {
    return this.relationships.rejectDiscordFriendRequest(userId);
  }

  rejectGameFriendRequest(userId: string): Promise<void> {
    return this.relationships.rejectGameFriendRequest(userId);
  }

  cancelDiscordFriendRequest(userId: string): Promise<void> {
    return this.relationships.cancelDiscordFriendRequest(userId);
  }

  cancelGameFriendRequest(userId: string): Promise<void> {
    return this.relationships.cancelGameFriendRequest(userId);
  }

  removeDiscordAndGameFriend(userId: string): Promise<void> {
    return this.relationships.removeDiscordAndGameFriend(userId);
  }

  removeGameFriend(userId: string): Promise<void> {
    return this.relationships.removeGameFriend(userId);
  }

  blockUser(userId: string): Promise<void> {
    return this.relationships.blockUser(userId);
  }

  unblockUser(userId: string): Promise<void> {
    return this.relationships.unblockUser(userId);
  }

  /** Friends whose username or display name contains the text (no request). */
  searchFriendsByUsername(search: string): UserHandle[] {
    return this.relationships.searchFriendsByUsername(search);
  }

  // ── Presence and activities (presence.ts) ─────────────────────────────────────────────────

  /** Publishes the player's rich presence (op 3); party changes reach friends the same way. */
  updateRichPresence(activity: Activity): Promise<void> {
    return this.presence.updateRichPresence(activity);
  }

  clearRichPresence(): void {
    this.presence.clearRichPresence();
  }

  setOnlineStatus(status: StatusType): Promise<void> {
    return this.presence.setOnlineStatus(status);
  }

  /** Invites a user to the player's party (a DM with an activity); resolves when sent. */
  sendActivityInvite(userId: string, content: string): Promise<void> {
    return this.presence.sendActivityInvite(userId, content);
  }

  /** Asks a user to let the player into their party; they get an invite of type JoinRequest. */
  sendActivityJoinRequest(userId: string): Promise<void> {
    return this.presence.sendActivityJoinRequest(userId);
  }

  /** Answers a join request (an invite of type JoinRequest) with an invite to the party. */
  sendActivityJoinRequestReply(invite: ActivityInvite): Promise<void> {
    return this.presence.sendActivityJoinRequestReply(invite);
  }

  /** Accepts an invite; resolves with the party's join secret. */
  acceptActivityInvite(invite: ActivityInvite): Promise<string> {
    return this.presence.acceptActivityInvite(invite);
  }

  setActivityInviteCreatedCallback(callback: ActivityInviteCallback | null): void {
    this.presence.setActivityInviteCreatedCallback(callback);
  }

  setActivityInviteUpdatedCallback(callback: ActivityInviteCallback | null): void {
    this.presence.setActivityInviteUpdatedCallback(callback);
  }

  setActivityJoinCallback(callback: ActivityJoinCallback | null): void {
    this.presence.setActivityJoinCallback(callback);
  }

  setActivityJoinWithApplicationCallback(
    callback: ActivityJoinWithApplicationCallback | null,
  ): void {
    this.presence.setActivityJoinWithApplicationCallback(callback);
  }

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

  /** Whether the message can be viewed in the web client (a DM the client holds). */
  canOpenMessageInDiscord(messageId: string): boolean {
    return canOpenMessageInDiscord(this.core, messageId);
  }

  /**
   * Opens the message in the web client, at the message; resolves with the URL. A provisional
   * player gets `provisionalUserMergeRequiredCallback` (link the account first) and a rejection.
   */
  openMessageInDiscord(
    messageId: string,
    provisionalUserMergeRequiredCallback: ProvisionalUserMergeRequiredCallback | null,
  ): Promise<string> {
    return openMessageInDiscord(this.core, messageId, provisionalUserMergeRequiredCallback);
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

  /**
   * Registers the command that starts the game for its `platform-<applicationId>:` links (Node
   * on Linux: an XDG desktop entry); false where the platform cannot, with a log line.
   */
  registerLaunchCommand(applicationId: string, command: string): Promise<boolean> {
    return this.launch.registerLaunchCommand(applicationId, command);
  }

  /** Registers a store application (a Steam app id) as the game's launcher. */
  registerLaunchStoreApplication(
    applicationId: string,
    storeApplicationId: string,
  ): Promise<boolean> {
    return this.launch.registerLaunchStoreApplication(applicationId, storeApplicationId);
  }

  /** Opens the web client's connected games settings (`platform.openUrl`). */
  openConnectedGamesSettingsInPlatform(): Promise<void> {
    return this.launch.openConnectedGamesSettingsInPlatform();
  }

  // ── Voice (voice.ts) ──────────────────────────────────────────────────────────────────────

  // In Node a call's audio goes in and out as Opus frames or PCM (Call.sendOpusFrame…): Node has
  // no audio devices, so the device operations say so. The browser build has no voice at all.

  /** `Client::GetDefaultAudioDeviceId`: Node has no audio devices (AudioDeviceUnavailableError). */
  static getDefaultAudioDeviceId(): Promise<string> {
    return Promise.reject(
      new AudioDeviceUnavailableError(
        'getDefaultAudioDeviceId',
        'there is no default audio device.',
      ),
    );
  }

  /** The local voice settings (mute, deafen, volumes, voice mode; no push-to-talk key in Node). */
  getVoiceSettings(): Promise<VoiceSettings> {
    return this.#voice('getVoiceSettings', () => this.voice.getVoiceSettings());
  }

  /** Called with the new VoiceSettings whenever they change. */
  setVoiceSettingsUpdatedCallback(callback: VoiceSettingsUpdatedCallback | null): void {
    this.voice.callbacks.voiceSettingsUpdated = callback;
  }

  /**
   * Joins (or starts) the voice call of a lobby the player is in, or of one of the player's DMs
   * or group DMs (by channel id; starting one rings its other recipients); resolves with the Call
   * at once (status Joining), whose status callback follows it to Connected.
   */
  startCall(lobbyId: string): Promise<Call> {
    return this.voice.startCall('startCall', lobbyId, null);
  }

  /**
   * startCall, with each participant's audio decoded to PCM (`receivedCb`) and the PCM the game
   * sends with `Call.sendPcmFrame` before it is encoded (`capturedCb`).
   */
  startCallWithAudioCallbacks(
    lobbyId: string,
    receivedCb: UserAudioReceivedCallback,
    capturedCb: UserAudioCapturedCallback,
  ): Promise<Call> {
    return this.voice.startCall('startCallWithAudioCallbacks', lobbyId, {
      received: receivedCb,
      captured: capturedCb,
    });
  }

  /** Leaves a lobby's or a DM's call (op 4 without a channel); the Call ends Disconnected. */
  endCall(channelId: string): Promise<void> {
    return this.#voice('endCall', () => {
      this.voice.endCall(channelId);
    });
  }

  endCalls(): Promise<void> {
    return this.#voice('endCalls', () => {
      this.voice.endCalls();
    });
  }

  getCall(channelId: string): Promise<Call | null> {
    return this.#voice('getCall', () => this.voice.getCall(channelId));
  }

  getCalls(): Promise<Call[]> {
    return this.#voice('getCalls', () => this.voice.getCalls());
  }

  /** Node has no audio devices: rejects with AudioDeviceUnavailableError. */
  getCurrentInputDevice(): Promise<AudioDevice> {
    return Promise.reject(
      this.voice.noDevice('getCurrentInputDevice', 'there is no input device.'),
    );
  }

  /** Node has no audio devices: rejects with AudioDeviceUnavailableError. */
  getCurrentOutputDevice(): Promise<AudioDevice> {
    return Promise.reject(
      this.voice.noDevice('getCurrentOutputDevice', 'there is no output device.'),
    );
  }

  /** Node has no audio devices: an empty list. */
  getInputDevices(): Promise<AudioDevice[]> {
    return this.#voice('getInputDevices', () => {
      this.voice.logger.verbose('getInputDevices: Node has no audio devices; the list is empty.');
      return [];
    });
  }

  /** Node has no audio devices: an empty list. */
  getOutputDevices(): Promise<AudioDevice[]> {
    return this.#voice('getOutputDevices', () => {
      this.voice.logger.verbose('getOutputDevices: Node has no audio devices; the list is empty.');
      return [];
    });
  }

  /** Node has no audio devices: rejects with AudioDeviceUnavailableError. */
  setInputDevice(deviceId: string): Promise<void> {
    return Promise.reject(
      this.voice.noDevice('setInputDevice', `there is no input device "${deviceId}".`),
    );
  }

  /** Node has no audio devices: rejects with AudioDeviceUnavailableError. */
  setOutputDevice(deviceId: string): Promise<void> {
    return Promise.reject(
      this.voice.noDevice('setOutputDevice', `there is no output device "${deviceId}".`),
    );
  }

  /** Registered; never called in Node, which has no audio devices to change. */
  setDeviceChangeCallback(callback: DeviceChangeCallback | null): void {
    this.voice.callbacks.deviceChange = callback;
  }

  /** Input volume, 0–100: applied to the PCM of `Call.sendPcmFrame`. */
  getInputVolume(): Promise<number> {
    return this.#voice('getInputVolume', () => this.voice.inputVolume);
  }

  setInputVolume(volume: number): Promise<void> {
    return this.#voice('setInputVolume', () => {
      this.voice.setVolume('setInputVolume', 'inputVolume', volume);
    });
  }

  /** Output volume, 0–200: applied to the PCM of the received-audio callback. */
  getOutputVolume(): Promise<number> {
    return this.#voice('getOutputVolume', () => this.voice.outputVolume);
  }

  setOutputVolume(volume: number): Promise<void> {
    return this.#voice('setOutputVolume', () => {
      this.voice.setVolume('setOutputVolume', 'outputVolume', volume);
    });
  }

  getSelfMuteAll(): Promise<boolean> {
    return this.#voice('getSelfMuteAll', () => this.voice.getVoiceSettings().selfMute());
  }

  /** Self-mute in every call, and in the calls started after. */
  setSelfMuteAll(mute: boolean): Promise<void> {
    return this.#voice('setSelfMuteAll', () => this.voice.setSelfMuteAll(mute));
  }

  getSelfDeafAll(): Promise<boolean> {
    return this.#voice('getSelfDeafAll', () => this.voice.getVoiceSettings().selfDeaf());
  }

  /** Self-deafen in every call, and in the calls started after. */
  setSelfDeafAll(deaf: boolean): Promise<void> {
    return this.#voice('setSelfDeafAll', () => this.voice.setSelfDeafAll(deaf));
  }

  /** Mobile audio sessions: Node has none (AudioDeviceUnavailableError). */
  setEngineManagedAudioSession(isEngineManaged: boolean): Promise<void> {
    return Promise.reject(
      this.voice.noDevice(
        'setEngineManagedAudioSession',
        `there is no audio session to manage (asked: ${String(isEngineManaged)}).`,
      ),
    );
  }

  /**
   * @deprecated On mobile routing is automatic unless setEngineManagedAudioSession(true) is
   * used.
   */
  setSpeakerMode(speakerMode: boolean): Promise<boolean> {
    return Promise.reject(
      this.voice.noDevice('setSpeakerMode', `there is no speaker (asked: ${String(speakerMode)}).`),
    );
  }

  /** Mobile audio routes: Node has none (AudioDeviceUnavailableError). */
  showAudioRoutePicker(): Promise<boolean> {
    return Promise.reject(this.voice.noDevice('showAudioRoutePicker', 'there is no audio route.'));
  }

  /** Microphone processing: Node captures nothing (AudioDeviceUnavailableError). */
  setAutomaticGainControl(on: boolean): Promise<void> {
    return Promise.reject(this.#noCapture('setAutomaticGainControl', on));
  }

  /** Microphone processing: Node captures nothing (AudioDeviceUnavailableError). */
  setEchoCancellation(on: boolean): Promise<void> {
    return Promise.reject(this.#noCapture('setEchoCancellation', on));
  }

  /** Microphone processing: Node captures nothing (AudioDeviceUnavailableError). */
  setNoiseSuppression(on: boolean): Promise<void> {
    return Promise.reject(this.#noCapture('setNoiseSuppression', on));
  }

  /** Hardware codecs: Node encodes in software (opusscript); AudioDeviceUnavailableError. */
  setOpusHardwareCoding(encode: boolean, decode: boolean): Promise<void> {
    return Promise.reject(
      this.voice.noDevice(
        'setOpusHardwareCoding',
        `there is no hardware Opus codec (asked: encode ${String(encode)}, decode ${String(decode)}).`,
      ),
    );
  }

  /** The no-input detector watches a microphone: Node has none (AudioDeviceUnavailableError). */
  setNoAudioInputThreshold(dBFSThreshold: number): Promise<void> {
    return Promise.reject(
      this.voice.noDevice(
        'setNoAudioInputThreshold',
        `there is no microphone to watch (asked: ${String(dBFSThreshold)} dBFS).`,
      ),
    );
  }

  /** Registered; never called in Node, which has no microphone. */
  setNoAudioInputCallback(callback: NoAudioInputCallback | null): void {
    this.voice.callbacks.noAudioInput = callback;
  }

  /** Called when someone joins or leaves the call of a lobby the player is in. */
  setVoiceParticipantChangedCallback(callback: VoiceParticipantChangedCallback | null): void {
    this.voice.callbacks.voiceParticipantChanged = callback;
  }

  /** Diagnostics of echo cancellation: Node has none (AudioDeviceUnavailableError). */
  setAecDump(on: boolean): Promise<void> {
    return Promise.reject(
      this.voice.noDevice(
        'setAecDump',
        `there is no echo canceller to dump (asked: ${String(on)}).`,
      ),
    );
  }

  /**
   * Diagnostics: the SDK writes no log files; rejects (ValidationError) and points at
   * addVoiceLogCallback, which receives every voice log line.
   */
  setVoiceLogDir(path: string, minSeverity: LoggingSeverity): Promise<void> {
    return this.#voice('setVoiceLogDir', () => {
      throw validationError(
        `setVoiceLogDir: this SDK writes no log files (asked: "${path}" from ${String(minSeverity)}); use addVoiceLogCallback() and write them where you like.`,
      );
    });
  }

  /** Adds a consumer of voice's log lines (calls, the voice connection, DAVE). Tokens never appear. */
  addVoiceLogCallback(
    callback: LogCallback,
    minSeverity: LoggingSeverity = LoggingSeverity.Info,
  ): void {
    this.voice.addVoiceLogCallback(callback, minSeverity);
  }

  /** Runs a voice operation: a rejection in a build without voice, else its result. */
  async #voice<T>(operation: string, run: () => T | Promise<T>): Promise<T> {
    this.voice.requireVoice(operation);
    return run();
  }

  #noCapture(operation: string, on: boolean): SdkError {
    return this.voice.noDevice(
      operation,
      `there is no microphone whose audio it would process (asked: ${String(on)}).`,
    );
  }
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
