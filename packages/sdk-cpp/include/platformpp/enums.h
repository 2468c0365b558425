// The Social SDK's enums, with the member names and values of the reference SDK's header: what a
// game ported from it already switches on (docs/sdk-cpp.md).
#pragma once

#include <cstdint>

namespace platformpp {

/// What a failed operation's ClientResult says went wrong.
enum class ErrorType : int32_t {
  None = 0,
  NetworkError = 1,
  HTTPError = 2,
  ClientNotReady = 3,
  /// The operation exists but this build cannot do it (voice in the native SDK).
  Disabled = 4,
  ClientDestroyed = 5,
  ValidationError = 6,
  Aborted = 7,
  AuthorizationFailed = 8,
  RPCError = 9,
};

/// The kind of token given to Client::UpdateToken.
enum class AuthorizationTokenType : int32_t { User = 0, Bearer = 1 };

/// PKCE's method; S256 is the only one the platform accepts.
enum class AuthenticationCodeChallengeMethod : int32_t { S256 = 0 };

/// The installation context of an authorization (the wire's integration_type).
enum class IntegrationType : int32_t { GuildInstall = 0, UserInstall = 1 };

/// The identity providers of a provisional account.
enum class AuthenticationExternalAuthType : int32_t {
  OIDC = 0,
  EpicOnlineServicesAccessToken = 1,
  EpicOnlineServicesIdToken = 2,
  SteamSessionTicket = 3,
  UnityServicesIdToken = 4,
  DiscordBotIssuedAccessToken = 5,
  AppleIdToken = 6,
  PlayStationNetworkIdToken = 7,
};

/// The wire's channel types, plus the SDK's Lobby (17) and EphemeralDm (18).
enum class ChannelType : int32_t {
  GuildText = 0,
  Dm = 1,
  GuildVoice = 2,
  GroupDm = 3,
  GuildCategory = 4,
  GuildNews = 5,
  GuildStore = 6,
  GuildNewsThread = 10,
  GuildPublicThread = 11,
  GuildPrivateThread = 12,
  GuildStageVoice = 13,
  GuildDirectory = 14,
  GuildForum = 15,
  GuildMedia = 16,
  Lobby = 17,
  EphemeralDm = 18,
};

/// One side (platform-wide or in-game) of a relationship.
enum class RelationshipType : int32_t {
  None = 0,
  Friend = 1,
  Blocked = 2,
  PendingIncoming = 3,
  PendingOutgoing = 4,
  Implicit = 5,
  Suggestion = 6,
};

/// The sections of a friends list (Client::GetRelationshipsByGroup).
enum class RelationshipGroupType : int32_t { OnlinePlayingGame = 0, OnlineElsewhere = 1, Offline = 2 };

/// A user's online status.
enum class StatusType : int32_t {
  Online = 0,
  Offline = 1,
  Blocked = 2,
  Idle = 3,
  Dnd = 4,
  Invisible = 5,
  Streaming = 6,
  Unknown = 7,
};

/// The kinds of rich presence a game may publish.
enum class ActivityTypes : int32_t {
  Playing = 0,
  Streaming = 1,
  Listening = 2,
  Watching = 3,
  CustomStatus = 4,
  Competing = 5,
  HangStatus = 6,
};

/// Who may ask to join a party.
enum class ActivityPartyPrivacy : int32_t { Private = 0, Public = 1 };

/// Which field the platform client shows after the user's name.
enum class StatusDisplayTypes : int32_t { Name = 0, State = 1, Details = 2 };

/// Where an activity's join invites can be accepted (bit flags: combine them with `|`).
enum class ActivityGamePlatforms : int32_t {
  Desktop = 1,
  Xbox = 2,
  Samsung = 4,
  IOS = 8,
  Android = 16,
  Embedded = 32,
  PS4 = 64,
  PS5 = 128,
};
inline ActivityGamePlatforms operator|(ActivityGamePlatforms a, ActivityGamePlatforms b) {
  return static_cast<ActivityGamePlatforms>(static_cast<int32_t>(a) | static_cast<int32_t>(b));
}
inline ActivityGamePlatforms operator&(ActivityGamePlatforms a, ActivityGamePlatforms b) {
  return static_cast<ActivityGamePlatforms>(static_cast<int32_t>(a) & static_cast<int32_t>(b));
}

/// What a message the client injected discloses (MessageHandle::DisclosureType).
enum class DisclosureTypes : int32_t { MessageDataVisibleOnDiscord = 3 };

/// What an activity invite asks.
enum class ActivityActionTypes : int32_t { Join = 1, JoinRequest = 5 };

/// The levels of Client::AddLogCallback.
enum class LoggingSeverity : int32_t { Verbose = 1, Info = 2, Warning = 3, Error = 4, None = 5 };

/// Voice activity or push-to-talk (VoiceSettings).
enum class AudioModeType : int32_t { Uninit = 0, VAD = 1, PTT = 2 };

/// Where a user application profile's identity comes from.
enum class ExternalIdentityProviderType : int32_t {
  OIDC = 0,
  EpicOnlineServices = 1,
  Steam = 2,
  Unity = 3,
  DiscordBot = 4,
  None = 5,
  Unknown = 6,
};

/// The image formats of UserHandle::AvatarUrl.
enum class AvatarType : int32_t { Gif = 0, Webp = 1, Png = 2, Jpeg = 3 };

/// The audio system a client would use for voice (stored; voice is not in the native SDK).
enum class AudioSystem : int32_t { Standard = 0, Game = 1 };

/// The member name of an enum value ("Unknown" for a value the enum lacks).
const char* EnumToString(ErrorType value);
const char* EnumToString(AuthorizationTokenType value);
const char* EnumToString(AuthenticationExternalAuthType value);
const char* EnumToString(ChannelType value);
const char* EnumToString(RelationshipType value);
const char* EnumToString(RelationshipGroupType value);
const char* EnumToString(StatusType value);
const char* EnumToString(ActivityTypes value);
const char* EnumToString(LoggingSeverity value);

}  // namespace platformpp
