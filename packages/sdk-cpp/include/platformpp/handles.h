// Handles: users, relationships, channels, messages and lobbies the client knows. A handle reads
// the client's state live (keep it, read it later, and it shows what the gateway said since),
// as the reference SDK's handles do; it has getters only, because its fields are the platform's
// (a lobby message's AdditionalName is set by the game's backend, never by a client). Handles
// are copyable and movable, with `operator bool` and `nullobj`; a handle outliving its Client
// reads the state the client last had.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "platformpp/activity.h"
#include "platformpp/values.h"

namespace platformpp {

namespace detail {
class Core;
}

class RelationshipHandle;

/// One of a user's identities in the game (UserApplicationProfile): a snapshot.
class UserApplicationProfileHandle {
 public:
  UserApplicationProfileHandle() = default;
  explicit UserApplicationProfileHandle(NullTag) : valid_(false) {}
  static const UserApplicationProfileHandle nullobj;
  explicit operator bool() const { return valid_; }

  std::string const& AvatarHash() const { return avatarHash_; }
  void SetAvatarHash(std::string value) { avatarHash_ = std::move(value); }
  /// The metadata the game's backend set, as JSON text ("" when none).
  std::string const& Metadata() const { return metadata_; }
  void SetMetadata(std::string value) { metadata_ = std::move(value); }
  std::optional<std::string> const& ProviderId() const { return providerId_; }
  void SetProviderId(std::optional<std::string> value) { providerId_ = std::move(value); }
  std::string const& ProviderIssuedUserId() const { return providerIssuedUserId_; }
  void SetProviderIssuedUserId(std::string value) { providerIssuedUserId_ = std::move(value); }
  ExternalIdentityProviderType ProviderType() const { return providerType_; }
  void SetProviderType(ExternalIdentityProviderType value) { providerType_ = value; }
  std::string const& Username() const { return username_; }
  void SetUsername(std::string value) { username_ = std::move(value); }

 private:
  bool valid_ = true;
  std::string avatarHash_;
  std::string metadata_;
  std::optional<std::string> providerId_;
  std::string providerIssuedUserId_;
  ExternalIdentityProviderType providerType_ = ExternalIdentityProviderType::Unknown;
  std::string username_;
};
using UserApplicationProfile = UserApplicationProfileHandle;

/// A user the client knows (the player, a friend, a request, an author, a lobby member).
class UserHandle {
 public:
  UserHandle() = default;
  UserHandle(std::shared_ptr<detail::Core> core, uint64_t id) : core_(std::move(core)), id_(id) {}
  static const UserHandle nullobj;
  explicit operator bool() const { return core_ != nullptr; }

  uint64_t Id() const { return id_; }
  /// The unique username (a provisional account's is generated: provisional_<id>).
  std::string Username() const;
  std::optional<std::string> GlobalName() const;
  /// What to show: the global name, else the username.
  std::string DisplayName() const;
  std::optional<std::string> Avatar() const;
  /// The avatar on the platform's CDN, in animatedType for an animated one; "" without one.
  std::string AvatarUrl(AvatarType animatedType = AvatarType::Gif,
                        AvatarType staticType = AvatarType::Png) const;
  bool IsProvisional() const;
  /// Blocked for a blocked user, else their presence (friends' reach the client).
  StatusType Status() const;
  /// Their rich presence in this game, unset when they show none.
  std::optional<platformpp::Activity> GameActivity() const;
  RelationshipHandle Relationship() const;
  /// Their profiles as Client::GetUserApplicationProfiles last read them.
  std::vector<UserApplicationProfileHandle> UserApplicationProfiles() const;

 private:
  std::shared_ptr<detail::Core> core_;
  uint64_t id_ = 0;
};

/// The player's relationship with one user, both sides: platform-wide ("Discord") and the game's.
class RelationshipHandle {
 public:
  RelationshipHandle() = default;
  RelationshipHandle(std::shared_ptr<detail::Core> core, uint64_t id)
      : core_(std::move(core)), id_(id) {}
  static const RelationshipHandle nullobj;
  explicit operator bool() const { return core_ != nullptr; }

  uint64_t Id() const { return id_; }
  RelationshipType DiscordRelationshipType() const;
  RelationshipType GameRelationshipType() const;
  /// True when the platform believes the request is spam.
  bool IsSpamRequest() const;
  std::optional<UserHandle> User() const;

 private:
  std::shared_ptr<detail::Core> core_;
  uint64_t id_ = 0;
};

/// A DM, group DM or lobby channel the client knows.
class ChannelHandle {
 public:
  ChannelHandle() = default;
  ChannelHandle(std::shared_ptr<detail::Core> core, uint64_t id)
      : core_(std::move(core)), id_(id) {}
  static const ChannelHandle nullobj;
  explicit operator bool() const { return core_ != nullptr; }

  uint64_t Id() const { return id_; }
  /// A group DM's name, the lobby's id for a lobby, else the other users' display names.
  std::string Name() const;
  std::vector<uint64_t> Recipients() const;
  ChannelType Type() const;

 private:
  std::shared_ptr<detail::Core> core_;
  uint64_t id_ = 0;
};

class LobbyHandle;

/// One DM or lobby message the client has seen; after a delete its getters answer empty values.
class MessageHandle {
 public:
  MessageHandle() = default;
  MessageHandle(std::shared_ptr<detail::Core> core, uint64_t id)
      : core_(std::move(core)), id_(id) {}
  static const MessageHandle nullobj;
  explicit operator bool() const { return core_ != nullptr; }

  uint64_t Id() const { return id_; }
  std::string Content() const;
  std::string RawContent() const;
  uint64_t AuthorId() const;
  std::optional<UserHandle> Author() const;
  /// The DM channel's id, or the lobby's id for a lobby message.
  uint64_t ChannelId() const;
  std::optional<ChannelHandle> Channel() const;
  /// For a DM: the user who is not the author (0 for a lobby message).
  uint64_t RecipientId() const;
  std::optional<UserHandle> Recipient() const;
  std::optional<LobbyHandle> Lobby() const;
  /// Unix milliseconds.
  uint64_t SentTimestamp() const;
  /// Unix milliseconds; 0 when never edited.
  uint64_t EditedTimestamp() const;
  /// The metadata the sending game attached.
  std::unordered_map<std::string, std::string> Metadata() const;
  /// The game backend's moderation metadata (in history answers only).
  std::unordered_map<std::string, std::string> ModerationMetadata() const;
  /// A lobby message's extra display name, set by the game's backend on the member.
  std::optional<std::string> AdditionalName() const;
  /// The application whose SDK sent it (a sibling application's messages carry theirs).
  std::optional<uint64_t> ApplicationId() const;
  bool SentFromGame() const;
  /// MessageDataVisibleOnDiscord for the disclosure the client injected the first time the
  /// player's message would show in the platform's web client; none for any other message.
  std::optional<DisclosureTypes> DisclosureType() const;

 private:
  std::shared_ptr<detail::Core> core_;
  uint64_t id_ = 0;
};

/// One member of a lobby the player is in.
class LobbyMemberHandle {
 public:
  LobbyMemberHandle() = default;
  LobbyMemberHandle(std::shared_ptr<detail::Core> core, uint64_t lobbyId, uint64_t id)
      : core_(std::move(core)), lobbyId_(lobbyId), id_(id) {}
  static const LobbyMemberHandle nullobj;
  explicit operator bool() const { return core_ != nullptr; }

  uint64_t Id() const { return id_; }
  bool CanLinkLobby() const;
  /// The server's `connected` when it sends one (Guildhall does not: false).
  bool Connected() const;
  std::unordered_map<std::string, std::string> Metadata() const;
  std::optional<std::string> AdditionalName() const;
  std::optional<UserHandle> User() const;

 private:
  std::shared_ptr<detail::Core> core_;
  uint64_t lobbyId_ = 0;
  uint64_t id_ = 0;
};

/// A lobby the player is in.
class LobbyHandle {
 public:
  LobbyHandle() = default;
  LobbyHandle(std::shared_ptr<detail::Core> core, uint64_t id) : core_(std::move(core)), id_(id) {}
  static const LobbyHandle nullobj;
  explicit operator bool() const { return core_ != nullptr; }

  uint64_t Id() const { return id_; }
  std::unordered_map<std::string, std::string> Metadata() const;
  std::vector<uint64_t> LobbyMemberIds() const;
  std::vector<LobbyMemberHandle> LobbyMembers() const;
  std::optional<LobbyMemberHandle> GetLobbyMemberHandle(uint64_t memberId) const;
  std::optional<platformpp::LinkedChannel> LinkedChannel() const;

 private:
  std::shared_ptr<detail::Core> core_;
  uint64_t id_ = 0;
};

/// A voice call. The native SDK has no voice (docs/sdk-cpp.md, Voice): every Call is null
/// (`operator bool` false), Client::StartCall answers one with an Error log line, and its
/// methods change nothing.
class Call {
 public:
  enum class Status : int32_t {
    Disconnected = 0,
    Joining = 1,
    Connecting = 2,
    SignalingConnected = 3,
    Connected = 4,
    Reconnecting = 5,
    Disconnecting = 6,
  };
  enum class Error : int32_t {
    None = 0,
    SignalingConnectionFailed = 1,
    SignalingUnexpectedClose = 2,
    VoiceConnectionFailed = 3,
    JoinTimeout = 4,
    Forbidden = 5,
  };
  using OnStatusChanged = std::function<void(Status status, Error error, int32_t errorDetail)>;

  Call() = default;
  static const Call nullobj;
  explicit operator bool() const { return false; }

  static std::string StatusToString(Status status);
  static std::string ErrorToString(Error error);
  Status GetStatus() const { return Status::Disconnected; }
  /// Why it is not connected: voice is not in the native SDK.
  Error GetError() const { return Error::SignalingConnectionFailed; }
  uint64_t GetChannelId() const { return 0; }
  uint64_t GetGuildId() const { return 0; }
  std::vector<uint64_t> GetParticipants() const { return {}; }
  bool GetSelfMute() const { return false; }
  void SetSelfMute(bool) {}
  bool GetSelfDeaf() const { return false; }
  void SetSelfDeaf(bool) {}
  bool GetPTTActive() const { return false; }
  void SetPTTActive(bool) {}
  void SetStatusChangedCallback(OnStatusChanged) {}
};

}  // namespace platformpp
