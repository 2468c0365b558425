// platformpp::Client: the Social SDK's one object, with the spec's operation table as members
// (docs/sdk-cpp.md maps each to the TypeScript SDK and the server route). Operations take a
// callback that receives a ClientResult; every callback runs only inside
// platformpp::RunCallbacks(), on the thread that calls it. Networking runs on the SDK's threads.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "platformpp/activity.h"
#include "platformpp/handles.h"
#include "platformpp/values.h"

namespace platformpp {

namespace detail {
class ClientImpl;
}

/// Runs the callbacks that are due, of every Client, on the calling thread. Call it every frame.
void RunCallbacks();

using Properties = std::unordered_map<std::string, std::string>;

class Client {
 public:
  /// Where the client's connection stands.
  enum class Status : int32_t {
    Disconnected = 0,
    Connecting = 1,
    Connected = 2,
    Ready = 3,
    Reconnecting = 4,
    Disconnecting = 5,
    HttpWait = 6,
  };
  /// Why the status changed (beside it in the status callback).
  enum class Error : int32_t {
    None = 0,
    ConnectionFailed = 1,
    UnexpectedClose = 2,
    ConnectionCanceled = 3,
  };

  using OnStatusChanged = std::function<void(Status status, Error error, int32_t errorDetail)>;
  using LogCallback = std::function<void(std::string message, LoggingSeverity severity)>;
  using ResultCallback = std::function<void(ClientResult result)>;
  using AuthorizationCallback =
      std::function<void(ClientResult result, std::string code, std::string redirectUri)>;
  using TokenExchangeCallback = std::function<void(
      ClientResult result, std::string accessToken, std::string refreshToken,
      AuthorizationTokenType tokenType, int32_t expiresIn, std::string scopes)>;
  using ExchangeChildTokenCallback =
      std::function<void(ClientResult result, std::string accessToken,
                         AuthorizationTokenType tokenType, int32_t expiresIn, std::string scopes)>;
  using UpdateTokenCallback = ResultCallback;
  using RevokeTokenCallback = ResultCallback;
  using UnmergeIntoProvisionalAccountCallback = ResultCallback;
  using AuthorizeRequestCallback = std::function<void()>;
  using UpdateProvisionalAccountDisplayNameCallback = ResultCallback;
  using TokenExpirationCallback = std::function<void()>;
  /// Native extension: shows a URL to the person (the authorize page, the device page, a guild
  /// invite); true when it was shown. Runs inside RunCallbacks.
  using OpenUrlCallback = std::function<bool(std::string const& url)>;
  using UserUpdatedCallback = std::function<void(uint64_t userId)>;
  using GetUserApplicationProfilesCallback =
      std::function<void(ClientResult result, std::vector<UserApplicationProfileHandle> profiles)>;
  using RelationshipCreatedCallback =
      std::function<void(uint64_t userId, bool isDiscordRelationshipUpdate)>;
  using RelationshipDeletedCallback =
      std::function<void(uint64_t userId, bool isDiscordRelationshipUpdate)>;
  using RelationshipGroupsUpdatedCallback = std::function<void(uint64_t userId)>;
  using UpdateRelationshipCallback = ResultCallback;
  using SendFriendRequestCallback = ResultCallback;
  using UpdateRichPresenceCallback = ResultCallback;
  using UpdateStatusCallback = ResultCallback;
  using SendActivityInviteCallback = ResultCallback;
  using AcceptActivityInviteCallback =
      std::function<void(ClientResult result, std::string joinSecret)>;
  using ActivityInviteCallback = std::function<void(ActivityInvite invite)>;
  using ActivityJoinCallback = std::function<void(std::string joinSecret)>;
  using ActivityJoinWithApplicationCallback =
      std::function<void(uint64_t applicationId, std::string joinSecret)>;
  using SendUserMessageCallback = std::function<void(ClientResult result, uint64_t messageId)>;
  using EditUserMessageCallback = ResultCallback;
  using DeleteUserMessageCallback = ResultCallback;
  using UserMessageSummariesCallback =
      std::function<void(ClientResult result, std::vector<UserMessageSummary> summaries)>;
  using UserMessagesWithLimitCallback =
      std::function<void(ClientResult result, std::vector<MessageHandle> messages)>;
  using MessageCreatedCallback = std::function<void(uint64_t messageId)>;
  using MessageUpdatedCallback = std::function<void(uint64_t messageId)>;
  using MessageDeletedCallback = std::function<void(uint64_t messageId, uint64_t channelId)>;
  using CreateOrJoinLobbyCallback = std::function<void(ClientResult result, uint64_t lobbyId)>;
  using LeaveLobbyCallback = ResultCallback;
  using SendLobbyMessageCallback = SendUserMessageCallback;
  using GetLobbyMessagesCallback = UserMessagesWithLimitCallback;
  using LinkOrUnlinkChannelCallback = ResultCallback;
  using ProvisionalUserMergeRequiredCallback = std::function<void()>;
  using OpenMessageInDiscordCallback = ResultCallback;
  using JoinLinkedLobbyGuildCallback =
      std::function<void(ClientResult result, std::string inviteUrl)>;
  using LobbyCreatedCallback = std::function<void(uint64_t lobbyId)>;
  using LobbyDeletedCallback = std::function<void(uint64_t lobbyId)>;
  using LobbyUpdatedCallback = std::function<void(uint64_t lobbyId)>;
  using LobbyMemberAddedCallback = std::function<void(uint64_t lobbyId, uint64_t memberId)>;
  using LobbyMemberRemovedCallback = std::function<void(uint64_t lobbyId, uint64_t memberId)>;
  using LobbyMemberUpdatedCallback = std::function<void(uint64_t lobbyId, uint64_t memberId)>;
  using GetUserGuildsCallback =
      std::function<void(ClientResult result, std::vector<GuildMinimal> guilds)>;
  using GetGuildChannelsCallback =
      std::function<void(ClientResult result, std::vector<GuildChannel> channels)>;
  using EndCallCallback = ResultCallback;
  using EndCallsCallback = ResultCallback;
  using VoiceResultCallback = ResultCallback;
  using GetAudioDevicesCallback = std::function<void(std::vector<AudioDevice> devices)>;
  using GetCurrentDeviceCallback = std::function<void(AudioDevice device)>;
  using SetDeviceCallback = ResultCallback;
  using VoiceSettingsUpdatedCallback = std::function<void(VoiceSettings settings)>;
  using VoiceParticipantChangedCallback =
      std::function<void(uint64_t lobbyId, uint64_t memberId, bool added)>;

  /// A client for http://127.0.0.1:8080/api/v10 (`npm start`).
  Client();
  Client(std::string apiBase, std::string webBase);
  explicit Client(ClientCreateOptions options);
  explicit Client(NullTag);
  /// Copies share one client: its connection ends when the last copy goes.
  Client(Client const&) = default;
  Client& operator=(Client const&) = default;
  Client(Client&&) noexcept = default;
  Client& operator=(Client&&) noexcept = default;
  ~Client() = default;
  static const Client nullobj;
  explicit operator bool() const { return impl_ != nullptr; }

  static std::string StatusToString(Status status);
  static std::string ErrorToString(Error error);
  static int32_t GetVersionMajor();
  static int32_t GetVersionMinor();
  static int32_t GetVersionPatch();
  static std::string GetDefaultCommunicationScopes();
  static std::string GetDefaultPresenceScopes();

  // ── Connection, tokens and logging ────────────────────────────────────────────────────────
  /// Opens the gateway session with the token of UpdateToken; the status reaches Ready.
  void Connect();
  /// Closes the gateway session (close 1000).
  void Disconnect();
  Status GetStatus() const;
  void SetStatusChangedCallback(OnStatusChanged callback);
  void SetApplicationId(uint64_t applicationId);
  uint64_t GetApplicationId() const;
  /// Supplies the token the client uses from its next request and its next (re)connect.
  void UpdateToken(AuthorizationTokenType tokenType, std::string token,
                   UpdateTokenCallback callback);
  bool IsAuthenticated() const;
  /// The timeout of each HTTP attempt, in ms (default 30000).
  void SetHttpRequestTimeout(int32_t httpTimeoutInMilliseconds);
  /// Adds a log consumer at minSeverity and above. No token ever reaches one, at any level.
  void AddLogCallback(LogCallback callback, LoggingSeverity minSeverity);
  /// Called once per Bearer token, 5 minutes before it expires (at once when less remains or the
  /// platform refuses it): fetch a new token and UpdateToken. The expiry is read from
  /// GET /oauth2/@me each time the token changes. An empty callback stops the notices.
  void SetTokenExpirationCallback(TokenExpirationCallback callback);
  /// Native extension: how URLs are shown (default: the system browser, and an Info log line).
  void SetOpenUrlCallback(OpenUrlCallback callback);

  // ── Account linking ───────────────────────────────────────────────────────────────────────
  AuthorizationCodeVerifier CreateAuthorizationCodeVerifier();
  /// The authorize page in the system browser; the redirect comes back to a loopback listener.
  void Authorize(AuthorizationArgs args, AuthorizationCallback callback);
  void AbortAuthorize();
  void GetToken(uint64_t applicationId, std::string const& code, std::string const& codeVerifier,
                std::string const& redirectUri, TokenExchangeCallback callback);
  void GetTokenFromProvisionalMerge(uint64_t applicationId, std::string const& code,
                                    std::string const& codeVerifier,
                                    std::string const& redirectUri,
                                    AuthenticationExternalAuthType externalAuthType,
                                    std::string const& externalAuthToken,
                                    TokenExchangeCallback callback);
  void GetTokenFromDevice(DeviceAuthorizationArgs args, TokenExchangeCallback callback);
  void GetTokenFromDeviceProvisionalMerge(DeviceAuthorizationArgs args,
                                          AuthenticationExternalAuthType externalAuthType,
                                          std::string const& externalAuthToken,
                                          TokenExchangeCallback callback);
  void AbortGetTokenFromDevice();
  void RefreshToken(uint64_t applicationId, std::string const& refreshToken,
                    TokenExchangeCallback callback);
  void RevokeToken(uint64_t applicationId, std::string const& token,
                   RevokeTokenCallback callback);
  void GetProvisionalToken(uint64_t applicationId, AuthenticationExternalAuthType externalAuthType,
                           std::string const& externalAuthToken, TokenExchangeCallback callback);
  void UnmergeIntoProvisionalAccount(uint64_t applicationId,
                                     AuthenticationExternalAuthType externalAuthType,
                                     std::string const& externalAuthToken,
                                     UnmergeIntoProvisionalAccountCallback callback);
  void ExchangeChildToken(std::string const& parentApplicationToken, uint64_t childApplicationId,
                          ExchangeChildTokenCallback callback);
  /// Renames the player's provisional account (1–32 characters); a full account's token is
  /// refused with the platform's 530010.
  void UpdateProvisionalAccountDisplayName(std::string const& name,
                                           UpdateProvisionalAccountDisplayNameCallback callback);
  void RegisterAuthorizeRequestCallback(AuthorizeRequestCallback callback);
  void RemoveAuthorizeRequestCallback();
  void OpenConnectedGamesSettingsInPlatform(ResultCallback callback);

  // ── Users ─────────────────────────────────────────────────────────────────────────────────
  /// Deprecated: use GetCurrentUserV2 (this one logs a warning once; a null handle before Ready).
  UserHandle GetCurrentUser() const;
  std::optional<UserHandle> GetCurrentUserV2() const;
  std::optional<UserHandle> GetUser(uint64_t userId) const;
  void SetUserUpdatedCallback(UserUpdatedCallback callback);
  void GetUserApplicationProfiles(uint64_t userId, GetUserApplicationProfilesCallback callback);
  std::vector<UserApplicationProfileHandle> GetUserApplicationProfilesNoLock(
      uint64_t userId) const;

  // ── Relationships ─────────────────────────────────────────────────────────────────────────
  std::vector<RelationshipHandle> GetRelationships() const;
  RelationshipHandle GetRelationshipHandle(uint64_t userId) const;
  /// The friends of one group, sorted by display name (docs/sdk-cpp.md, shared rules).
  std::vector<RelationshipHandle> GetRelationshipsByGroup(RelationshipGroupType groupType) const;
  void SetRelationshipGroupsUpdatedCallback(RelationshipGroupsUpdatedCallback callback);
  void SetRelationshipCreatedCallback(RelationshipCreatedCallback callback);
  void SetRelationshipDeletedCallback(RelationshipDeletedCallback callback);
  void SendDiscordFriendRequest(std::string const& username, SendFriendRequestCallback callback);
  void SendDiscordFriendRequestById(uint64_t userId, UpdateRelationshipCallback callback);
  void SendGameFriendRequest(std::string const& username, SendFriendRequestCallback callback);
  void SendGameFriendRequestById(uint64_t userId, UpdateRelationshipCallback callback);
  void AcceptDiscordFriendRequest(uint64_t userId, UpdateRelationshipCallback callback);
  void AcceptGameFriendRequest(uint64_t userId, UpdateRelationshipCallback callback);
  void RejectDiscordFriendRequest(uint64_t userId, UpdateRelationshipCallback callback);
  void RejectGameFriendRequest(uint64_t userId, UpdateRelationshipCallback callback);
  void CancelDiscordFriendRequest(uint64_t userId, UpdateRelationshipCallback callback);
  void CancelGameFriendRequest(uint64_t userId, UpdateRelationshipCallback callback);
  void RemoveDiscordAndGameFriend(uint64_t userId, UpdateRelationshipCallback callback);
  void RemoveGameFriend(uint64_t userId, UpdateRelationshipCallback callback);
  void BlockUser(uint64_t userId, UpdateRelationshipCallback callback);
  void UnblockUser(uint64_t userId, UpdateRelationshipCallback callback);
  std::vector<UserHandle> SearchFriendsByUsername(std::string searchStr) const;

  // ── Presence and activities ───────────────────────────────────────────────────────────────
  void UpdateRichPresence(Activity activity, UpdateRichPresenceCallback callback);
  void ClearRichPresence();
  void SetOnlineStatus(StatusType status, UpdateStatusCallback callback);
  void SendActivityInvite(uint64_t userId, std::string const& content,
                          SendActivityInviteCallback callback);
  /// Asks a user to let the player into the party of their rich presence in this game; they get
  /// an ActivityInvite of type JoinRequest.
  void SendActivityJoinRequest(uint64_t userId, SendActivityInviteCallback callback);
  /// Answers a join request (the invite of type JoinRequest received) with an invite to the party.
  void SendActivityJoinRequestReply(ActivityInvite invite, SendActivityInviteCallback callback);
  void AcceptActivityInvite(ActivityInvite invite, AcceptActivityInviteCallback callback);
  void SetActivityInviteCreatedCallback(ActivityInviteCallback callback);
  void SetActivityInviteUpdatedCallback(ActivityInviteCallback callback);
  void SetActivityJoinCallback(ActivityJoinCallback callback);
  void SetActivityJoinWithApplicationCallback(ActivityJoinWithApplicationCallback callback);

  // ── Messages ──────────────────────────────────────────────────────────────────────────────
  void SendUserMessage(uint64_t recipientId, std::string const& content,
                       SendUserMessageCallback callback);
  void SendUserMessageWithMetadata(uint64_t recipientId, std::string const& content,
                                   Properties const& metadata, SendUserMessageCallback callback);
  void EditUserMessage(uint64_t recipientId, uint64_t messageId, std::string const& content,
                       EditUserMessageCallback callback);
  void DeleteUserMessage(uint64_t recipientId, uint64_t messageId,
                         DeleteUserMessageCallback callback);
  std::optional<MessageHandle> GetMessageHandle(uint64_t messageId) const;
  std::optional<ChannelHandle> GetChannelHandle(uint64_t channelId) const;
  void GetUserMessageSummaries(UserMessageSummariesCallback callback);
  /// The newest `limit` messages of the DM, newest first; from the local cache, without a
  /// request, when it holds enough (docs/sdk-cpp.md, shared rules).
  void GetUserMessagesWithLimit(uint64_t recipientId, int32_t limit,
                                UserMessagesWithLimitCallback callback);
  /// Whether the message can be viewed in the platform's web client: a DM or group DM message
  /// the client holds (not a lobby message, not a DM between two provisional accounts).
  bool CanOpenMessageInDiscord(uint64_t messageId) const;
  /// Opens <web base>/channels/@me/{channel}/{message} through the open-URL callback. A
  /// provisional player gets provisionalUserMergeRequired (link the account first) and a refusal.
  void OpenMessageInDiscord(uint64_t messageId,
                            ProvisionalUserMergeRequiredCallback provisionalUserMergeRequired,
                            OpenMessageInDiscordCallback callback);
  void SetMessageCreatedCallback(MessageCreatedCallback callback);
  void SetMessageUpdatedCallback(MessageUpdatedCallback callback);
  void SetMessageDeletedCallback(MessageDeletedCallback callback);

  // ── Lobbies and guilds ────────────────────────────────────────────────────────────────────
  void CreateOrJoinLobby(std::string const& secret, CreateOrJoinLobbyCallback callback);
  void CreateOrJoinLobbyWithMetadata(std::string const& secret, Properties const& lobbyMetadata,
                                     Properties const& memberMetadata,
                                     CreateOrJoinLobbyCallback callback);
  void LeaveLobby(uint64_t lobbyId, LeaveLobbyCallback callback);
  std::optional<LobbyHandle> GetLobbyHandle(uint64_t lobbyId) const;
  std::vector<uint64_t> GetLobbyIds() const;
  void SendLobbyMessage(uint64_t lobbyId, std::string const& content,
                        SendLobbyMessageCallback callback);
  void SendLobbyMessageWithMetadata(uint64_t lobbyId, std::string const& content,
                                    Properties const& metadata,
                                    SendLobbyMessageCallback callback);
  void GetLobbyMessagesWithLimit(uint64_t lobbyId, int32_t limit,
                                 GetLobbyMessagesCallback callback);
  void LinkChannelToLobby(uint64_t lobbyId, uint64_t channelId,
                          LinkOrUnlinkChannelCallback callback);
  void UnlinkChannelFromLobby(uint64_t lobbyId, LinkOrUnlinkChannelCallback callback);
  void JoinLinkedLobbyGuild(uint64_t lobbyId,
                            ProvisionalUserMergeRequiredCallback provisionalUserMergeRequired,
                            JoinLinkedLobbyGuildCallback callback);
  void SetLobbyCreatedCallback(LobbyCreatedCallback callback);
  void SetLobbyDeletedCallback(LobbyDeletedCallback callback);
  void SetLobbyUpdatedCallback(LobbyUpdatedCallback callback);
  void SetLobbyMemberAddedCallback(LobbyMemberAddedCallback callback);
  void SetLobbyMemberRemovedCallback(LobbyMemberRemovedCallback callback);
  void SetLobbyMemberUpdatedCallback(LobbyMemberUpdatedCallback callback);
  void GetUserGuilds(GetUserGuildsCallback callback);
  /// Sorted as the web client lists them (docs/sdk-cpp.md, shared rules).
  void GetGuildChannels(uint64_t guildId, GetGuildChannelsCallback callback);

  // ── Voice: not available in the native SDK (docs/sdk-cpp.md, Voice) ──────────────────────
  /// A null Call, with an Error log line saying voice is not available in the native SDK.
  Call StartCall(uint64_t lobbyId);
  Call StartCallWithAudioCallbacks(uint64_t lobbyId);
  void EndCall(uint64_t channelId, EndCallCallback callback);
  void EndCalls(EndCallsCallback callback);
  Call GetCall(uint64_t channelId) const;
  std::vector<Call> GetCalls() const;
  /// VoiceSettings::nullobj.
  VoiceSettings GetVoiceSettings() const;
  void SetVoiceSettingsUpdatedCallback(VoiceSettingsUpdatedCallback callback);
  void SetVoiceParticipantChangedCallback(VoiceParticipantChangedCallback callback);
  void GetInputDevices(GetAudioDevicesCallback callback);
  void GetOutputDevices(GetAudioDevicesCallback callback);
  void GetCurrentInputDevice(GetCurrentDeviceCallback callback);
  void GetCurrentOutputDevice(GetCurrentDeviceCallback callback);
  void SetInputDevice(std::string const& deviceId, SetDeviceCallback callback);
  void SetOutputDevice(std::string const& deviceId, SetDeviceCallback callback);
  float GetInputVolume() const;
  void SetInputVolume(float inputVolume);
  float GetOutputVolume() const;
  void SetOutputVolume(float outputVolume);
  bool GetSelfMuteAll() const;
  void SetSelfMuteAll(bool mute);
  bool GetSelfDeafAll() const;
  void SetSelfDeafAll(bool deaf);
  /// Each answers a Disabled ClientResult: voice is not available in the native SDK.
  void SetEngineManagedAudioSession(bool isEngineManaged, VoiceResultCallback callback);
  void SetSpeakerMode(bool speakerMode, VoiceResultCallback callback);
  void SetAecDump(bool on, VoiceResultCallback callback);
  void SetVoiceLogDir(std::string const& path, LoggingSeverity minSeverity,
                      VoiceResultCallback callback);
  void SetAutomaticGainControl(bool on, VoiceResultCallback callback);
  void SetEchoCancellation(bool on, VoiceResultCallback callback);
  void SetNoiseSuppression(bool on, VoiceResultCallback callback);
  void SetNoAudioInputThreshold(float dBFSThreshold, VoiceResultCallback callback);
  void SetOpusHardwareCoding(bool encode, bool decode, VoiceResultCallback callback);

  /// The library's internals, for the C API (platformpp_c.h).
  std::shared_ptr<detail::ClientImpl> const& Impl() const { return impl_; }

 private:
  std::shared_ptr<detail::ClientImpl> impl_;
};

}  // namespace platformpp
