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
  type RelationshipGroupType,
  type StatusType,
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
import { MessagesArea } from './messages.js';
import { LobbiesArea } from './lobbies.js';
import { GuildsArea } from './guilds.js';
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
    this.auth = new AuthArea(core);
    this.users = new UsersArea(core);
    this.relationships = new RelationshipsArea(core);
    this.presence = new PresenceArea(core);
    this.messages = new MessagesArea(core);
    this.lobbies = new LobbiesArea(core);
    this.guilds = new GuildsArea(core);
    this.launch = new LaunchArea(core);
    this.voice = new VoiceArea(core);
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

  // ── Lobbies (lobbies.ts) ──────────────────────────────────────────────────────────────────

  // ── Guilds (guilds.ts) ────────────────────────────────────────────────────────────────────

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
