// The value types' null objects, enum names and ClientResult's text.
#include <string>

#include "platformpp.h"

namespace platformpp {

const ClientResult ClientResult::nullobj{NullTag{}};
const AuthorizationCodeChallenge AuthorizationCodeChallenge::nullobj{NullTag{}};
const AuthorizationCodeVerifier AuthorizationCodeVerifier::nullobj{NullTag{}};
const AuthorizationArgs AuthorizationArgs::nullobj{NullTag{}};
const DeviceAuthorizationArgs DeviceAuthorizationArgs::nullobj{NullTag{}};
const ClientCreateOptions ClientCreateOptions::nullobj{NullTag{}};
const GuildMinimal GuildMinimal::nullobj{NullTag{}};
const LinkedLobby LinkedLobby::nullobj{NullTag{}};
const GuildChannel GuildChannel::nullobj{NullTag{}};
const LinkedChannel LinkedChannel::nullobj{NullTag{}};
const UserMessageSummary UserMessageSummary::nullobj{NullTag{}};
const VoiceSettings VoiceSettings::nullobj{NullTag{}};
const AudioDevice AudioDevice::nullobj{NullTag{}};
const ActivityAssets ActivityAssets::nullobj{NullTag{}};
const ActivityTimestamps ActivityTimestamps::nullobj{NullTag{}};
const ActivityParty ActivityParty::nullobj{NullTag{}};
const ActivitySecrets ActivitySecrets::nullobj{NullTag{}};
const ActivityButton ActivityButton::nullobj{NullTag{}};
const Activity Activity::nullobj{NullTag{}};
const ActivityInvite ActivityInvite::nullobj{NullTag{}};
const UserApplicationProfileHandle UserApplicationProfileHandle::nullobj{NullTag{}};
const UserHandle UserHandle::nullobj{};
const RelationshipHandle RelationshipHandle::nullobj{};
const ChannelHandle ChannelHandle::nullobj{};
const MessageHandle MessageHandle::nullobj{};
const LobbyMemberHandle LobbyMemberHandle::nullobj{};
const LobbyHandle LobbyHandle::nullobj{};
const Call Call::nullobj{};

std::string ClientResult::ToString() const {
  if (!valid_) return "ClientResult(null)";
  if (successful_) return "OK";
  std::string text = std::string(EnumToString(type_));
  if (status_ != 0) text += " " + std::to_string(status_);
  if (errorCode_ != 0) text += " code " + std::to_string(errorCode_);
  if (!oauthError_.empty()) text += " (" + oauthError_ + ")";
  return text + ": " + error_;
}

const char* EnumToString(ErrorType value) {
  switch (value) {
    case ErrorType::None: return "None";
    case ErrorType::NetworkError: return "NetworkError";
    case ErrorType::HTTPError: return "HTTPError";
    case ErrorType::ClientNotReady: return "ClientNotReady";
    case ErrorType::Disabled: return "Disabled";
    case ErrorType::ClientDestroyed: return "ClientDestroyed";
    case ErrorType::ValidationError: return "ValidationError";
    case ErrorType::Aborted: return "Aborted";
    case ErrorType::AuthorizationFailed: return "AuthorizationFailed";
    case ErrorType::RPCError: return "RPCError";
  }
  return "Unknown";
}

const char* EnumToString(AuthorizationTokenType value) {
  switch (value) {
    case AuthorizationTokenType::User: return "User";
    case AuthorizationTokenType::Bearer: return "Bearer";
  }
  return "Unknown";
}

const char* EnumToString(AuthenticationExternalAuthType value) {
  switch (value) {
    case AuthenticationExternalAuthType::OIDC: return "OIDC";
    case AuthenticationExternalAuthType::EpicOnlineServicesAccessToken:
      return "EpicOnlineServicesAccessToken";
    case AuthenticationExternalAuthType::EpicOnlineServicesIdToken:
      return "EpicOnlineServicesIdToken";
    case AuthenticationExternalAuthType::SteamSessionTicket: return "SteamSessionTicket";
    case AuthenticationExternalAuthType::UnityServicesIdToken: return "UnityServicesIdToken";
    case AuthenticationExternalAuthType::DiscordBotIssuedAccessToken:
      return "DiscordBotIssuedAccessToken";
    case AuthenticationExternalAuthType::AppleIdToken: return "AppleIdToken";
    case AuthenticationExternalAuthType::PlayStationNetworkIdToken:
      return "PlayStationNetworkIdToken";
  }
  return "Unknown";
}

const char* EnumToString(ChannelType value) {
  switch (value) {
    case ChannelType::GuildText: return "GuildText";
    case ChannelType::Dm: return "Dm";
    case ChannelType::GuildVoice: return "GuildVoice";
    case ChannelType::GroupDm: return "GroupDm";
    case ChannelType::GuildCategory: return "GuildCategory";
    case ChannelType::GuildNews: return "GuildNews";
    case ChannelType::GuildStore: return "GuildStore";
    case ChannelType::GuildNewsThread: return "GuildNewsThread";
    case ChannelType::GuildPublicThread: return "GuildPublicThread";
    case ChannelType::GuildPrivateThread: return "GuildPrivateThread";
    case ChannelType::GuildStageVoice: return "GuildStageVoice";
    case ChannelType::GuildDirectory: return "GuildDirectory";
    case ChannelType::GuildForum: return "GuildForum";
    case ChannelType::GuildMedia: return "GuildMedia";
    case ChannelType::Lobby: return "Lobby";
    case ChannelType::EphemeralDm: return "EphemeralDm";
  }
  return "Unknown";
}

const char* EnumToString(RelationshipType value) {
  switch (value) {
    case RelationshipType::None: return "None";
    case RelationshipType::Friend: return "Friend";
    case RelationshipType::Blocked: return "Blocked";
    case RelationshipType::PendingIncoming: return "PendingIncoming";
    case RelationshipType::PendingOutgoing: return "PendingOutgoing";
    case RelationshipType::Implicit: return "Implicit";
    case RelationshipType::Suggestion: return "Suggestion";
  }
  return "Unknown";
}

const char* EnumToString(RelationshipGroupType value) {
  switch (value) {
    case RelationshipGroupType::OnlinePlayingGame: return "OnlinePlayingGame";
    case RelationshipGroupType::OnlineElsewhere: return "OnlineElsewhere";
    case RelationshipGroupType::Offline: return "Offline";
  }
  return "Unknown";
}

const char* EnumToString(StatusType value) {
  switch (value) {
    case StatusType::Online: return "Online";
    case StatusType::Offline: return "Offline";
    case StatusType::Blocked: return "Blocked";
    case StatusType::Idle: return "Idle";
    case StatusType::Dnd: return "Dnd";
    case StatusType::Invisible: return "Invisible";
    case StatusType::Streaming: return "Streaming";
    case StatusType::Unknown: return "Unknown";
  }
  return "Unknown";
}

const char* EnumToString(ActivityTypes value) {
  switch (value) {
    case ActivityTypes::Playing: return "Playing";
    case ActivityTypes::Streaming: return "Streaming";
    case ActivityTypes::Listening: return "Listening";
    case ActivityTypes::Watching: return "Watching";
    case ActivityTypes::CustomStatus: return "CustomStatus";
    case ActivityTypes::Competing: return "Competing";
    case ActivityTypes::HangStatus: return "HangStatus";
  }
  return "Unknown";
}

const char* EnumToString(LoggingSeverity value) {
  switch (value) {
    case LoggingSeverity::Verbose: return "Verbose";
    case LoggingSeverity::Info: return "Info";
    case LoggingSeverity::Warning: return "Warning";
    case LoggingSeverity::Error: return "Error";
    case LoggingSeverity::None: return "None";
  }
  return "Unknown";
}

std::string Call::StatusToString(Status status) {
  switch (status) {
    case Status::Disconnected: return "Disconnected";
    case Status::Joining: return "Joining";
    case Status::Connecting: return "Connecting";
    case Status::SignalingConnected: return "SignalingConnected";
    case Status::Connected: return "Connected";
    case Status::Reconnecting: return "Reconnecting";
    case Status::Disconnecting: return "Disconnecting";
  }
  return "Unknown";
}

std::string Call::ErrorToString(Error error) {
  switch (error) {
    case Error::None: return "None";
    case Error::SignalingConnectionFailed: return "SignalingConnectionFailed";
    case Error::SignalingUnexpectedClose: return "SignalingUnexpectedClose";
    case Error::VoiceConnectionFailed: return "VoiceConnectionFailed";
    case Error::JoinTimeout: return "JoinTimeout";
    case Error::Forbidden: return "Forbidden";
  }
  return "Unknown";
}

}  // namespace platformpp
