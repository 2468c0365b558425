/**
 * The SDK's enums, with the member names and values of the Social SDK reference (its `discordpp`
 * header): these are what a game ported from the C++ SDK already switches on.
 *
 * @module
 */

/** `Client::Status`: where the client's connection stands (`setStatusChangedCallback`). */
export const ClientStatus = {
  Disconnected: 0,
  Connecting: 1,
  Connected: 2,
  Ready: 3,
  Reconnecting: 4,
  Disconnecting: 5,
  /** Waiting for a rate limit's `retry_after` before the connection can go on. */
  HttpWait: 6,
} as const;
export type ClientStatus = (typeof ClientStatus)[keyof typeof ClientStatus];

/** `Client::Error`: why the status changed, beside it in the status-changed callback. */
export const ClientError = {
  None: 0,
  ConnectionFailed: 1,
  UnexpectedClose: 2,
  ConnectionCanceled: 3,
} as const;
export type ClientError = (typeof ClientError)[keyof typeof ClientError];

/** `ErrorType`: the kind of a failed operation's error (`SdkError.type`). */
export const ErrorType = {
  None: 0,
  NetworkError: 1,
  HTTPError: 2,
  ClientNotReady: 3,
  Disabled: 4,
  ClientDestroyed: 5,
  ValidationError: 6,
  Aborted: 7,
  AuthorizationFailed: 8,
  RPCError: 9,
} as const;
export type ErrorType = (typeof ErrorType)[keyof typeof ErrorType];

/** `AuthorizationTokenType`: the kind of token given to `updateToken`. */
export const AuthorizationTokenType = {
  User: 0,
  Bearer: 1,
} as const;
export type AuthorizationTokenType =
  (typeof AuthorizationTokenType)[keyof typeof AuthorizationTokenType];

/** `AuthenticationCodeChallengeMethod`: PKCE's method; S256 is the only one. */
export const AuthenticationCodeChallengeMethod = {
  S256: 0,
} as const;
export type AuthenticationCodeChallengeMethod =
  (typeof AuthenticationCodeChallengeMethod)[keyof typeof AuthenticationCodeChallengeMethod];

/** `IntegrationType`: matches the wire's `integration_type` (0 guild install, 1 user install). */
export const IntegrationType = {
  GuildInstall: 0,
  UserInstall: 1,
} as const;
export type IntegrationType = (typeof IntegrationType)[keyof typeof IntegrationType];

/** `AuthenticationExternalAuthType`: the identity providers of a provisional account. */
export const AuthenticationExternalAuthType = {
  OIDC: 0,
  EpicOnlineServicesAccessToken: 1,
  EpicOnlineServicesIdToken: 2,
  SteamSessionTicket: 3,
  UnityServicesIdToken: 4,
  DiscordBotIssuedAccessToken: 5,
  AppleIdToken: 6,
  PlayStationNetworkIdToken: 7,
} as const;
export type AuthenticationExternalAuthType =
  (typeof AuthenticationExternalAuthType)[keyof typeof AuthenticationExternalAuthType];

/** The wire strings of `AuthenticationExternalAuthType` (`external_auth_type`). */
export const EXTERNAL_AUTH_TYPE_WIRE: Readonly<Record<AuthenticationExternalAuthType, string>> = {
  [AuthenticationExternalAuthType.OIDC]: 'OIDC',
  [AuthenticationExternalAuthType.EpicOnlineServicesAccessToken]:
    'EPIC_ONLINE_SERVICES_ACCESS_TOKEN',
  [AuthenticationExternalAuthType.EpicOnlineServicesIdToken]: 'EPIC_ONLINE_SERVICES_ID_TOKEN',
  [AuthenticationExternalAuthType.SteamSessionTicket]: 'STEAM_SESSION_TICKET',
  [AuthenticationExternalAuthType.UnityServicesIdToken]: 'UNITY_SERVICES_ID_TOKEN',
  [AuthenticationExternalAuthType.DiscordBotIssuedAccessToken]: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
  [AuthenticationExternalAuthType.AppleIdToken]: 'APPLE_ID_TOKEN',
  [AuthenticationExternalAuthType.PlayStationNetworkIdToken]: 'PLAYSTATION_NETWORK_ID_TOKEN',
};

/** `ChannelType`: the wire's channel types, plus the SDK's Lobby (17) and EphemeralDm (18). */
export const ChannelType = {
  GuildText: 0,
  Dm: 1,
  GuildVoice: 2,
  GroupDm: 3,
  GuildCategory: 4,
  GuildNews: 5,
  GuildStore: 6,
  GuildNewsThread: 10,
  GuildPublicThread: 11,
  GuildPrivateThread: 12,
  GuildStageVoice: 13,
  GuildDirectory: 14,
  GuildForum: 15,
  GuildMedia: 16,
  Lobby: 17,
  EphemeralDm: 18,
} as const;
export type ChannelType = (typeof ChannelType)[keyof typeof ChannelType];

/** `RelationshipType`: one side (platform-wide or in-game) of a relationship. */
export const RelationshipType = {
  None: 0,
  Friend: 1,
  Blocked: 2,
  PendingIncoming: 3,
  PendingOutgoing: 4,
  Implicit: 5,
  Suggestion: 6,
} as const;
export type RelationshipType = (typeof RelationshipType)[keyof typeof RelationshipType];

/** `RelationshipGroupType`: the sections of a friends list (`getRelationshipsByGroup`). */
export const RelationshipGroupType = {
  OnlinePlayingGame: 0,
  OnlineElsewhere: 1,
  Offline: 2,
} as const;
export type RelationshipGroupType =
  (typeof RelationshipGroupType)[keyof typeof RelationshipGroupType];

/** `StatusType`: a user's online status. */
export const StatusType = {
  Online: 0,
  Offline: 1,
  Blocked: 2,
  Idle: 3,
  Dnd: 4,
  Invisible: 5,
  Streaming: 6,
  Unknown: 7,
} as const;
export type StatusType = (typeof StatusType)[keyof typeof StatusType];

/** `ActivityTypes`: the kinds of rich presence a game may publish. */
export const ActivityTypes = {
  Playing: 0,
  Streaming: 1,
  Listening: 2,
  Watching: 3,
  CustomStatus: 4,
  Competing: 5,
  HangStatus: 6,
} as const;
export type ActivityTypes = (typeof ActivityTypes)[keyof typeof ActivityTypes];

/** `ActivityPartyPrivacy`: who may ask to join a party. */
export const ActivityPartyPrivacy = {
  Private: 0,
  Public: 1,
} as const;
export type ActivityPartyPrivacy = (typeof ActivityPartyPrivacy)[keyof typeof ActivityPartyPrivacy];

/** `StatusDisplayTypes`: which field the client shows after the user's name. */
export const StatusDisplayTypes = {
  Name: 0,
  State: 1,
  Details: 2,
} as const;
export type StatusDisplayTypes = (typeof StatusDisplayTypes)[keyof typeof StatusDisplayTypes];

/** `ActivityActionTypes`: what an activity invite asks. */
export const ActivityActionTypes = {
  Join: 1,
  JoinRequest: 5,
} as const;
export type ActivityActionTypes = (typeof ActivityActionTypes)[keyof typeof ActivityActionTypes];

/** `LoggingSeverity`: the levels of `addLogCallback`. */
export const LoggingSeverity = {
  Verbose: 1,
  Info: 2,
  Warning: 3,
  Error: 4,
  None: 5,
} as const;
export type LoggingSeverity = (typeof LoggingSeverity)[keyof typeof LoggingSeverity];

/** `Call::Status` (api-facts §15): where a voice call stands. */
export const CallStatus = {
  Disconnected: 0,
  Joining: 1,
  Connecting: 2,
  SignalingConnected: 3,
  Connected: 4,
  Reconnecting: 5,
  Disconnecting: 6,
} as const;
export type CallStatus = (typeof CallStatus)[keyof typeof CallStatus];

/** `Call::Error`: why a call ended. */
export const CallError = {
  None: 0,
  SignalingConnectionFailed: 1,
  SignalingUnexpectedClose: 2,
  VoiceConnectionFailed: 3,
  JoinTimeout: 4,
  Forbidden: 5,
} as const;
export type CallError = (typeof CallError)[keyof typeof CallError];

/** `AudioModeType`: voice activity or push-to-talk. */
export const AudioModeType = {
  Uninit: 0,
  VAD: 1,
  PTT: 2,
} as const;
export type AudioModeType = (typeof AudioModeType)[keyof typeof AudioModeType];

/**
 * The member name of an enum's value (the reference SDK's `EnumToString`), `"Unknown"` for a value
 * the enum does not have.
 */
export function enumToString(values: Readonly<Record<string, number>>, value: number): string {
  for (const [name, v] of Object.entries(values)) if (v === value) return name;
  return 'Unknown';
}

/**
 * `ActivityGamePlatforms` (bit flags): where an activity's join invites can be accepted; the
 * wire's `supported_platforms` names them.
 */
export const ActivityGamePlatforms = {
  Desktop: 1,
  Xbox: 2,
  Samsung: 4,
  IOS: 8,
  Android: 16,
  Embedded: 32,
  PS4: 64,
  PS5: 128,
} as const;
export type ActivityGamePlatforms = number;

/** The wire names of `ActivityGamePlatforms`, in bit order. */
export const ACTIVITY_GAME_PLATFORM_WIRE: readonly (readonly [number, string])[] = [
  [ActivityGamePlatforms.Desktop, 'desktop'],
  [ActivityGamePlatforms.Xbox, 'xbox'],
  [ActivityGamePlatforms.Samsung, 'samsung'],
  [ActivityGamePlatforms.IOS, 'ios'],
  [ActivityGamePlatforms.Android, 'android'],
  [ActivityGamePlatforms.Embedded, 'embedded'],
  [ActivityGamePlatforms.PS4, 'ps4'],
  [ActivityGamePlatforms.PS5, 'ps5'],
];
