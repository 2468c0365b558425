// The Social SDK's value types: results, authorization arguments, client options, guild and
// message summaries, voice settings. Each is copyable and movable, has `operator bool` (true
// when it holds a valid object) and a static `nullobj` (an instance holding none), and a getter
// and a `Set<Field>` setter per field. Setters store; operations check the values and answer a
// ValidationError ClientResult when one breaks a platform limit (no exception crosses the API).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "platformpp/enums.h"

namespace platformpp {

/// Passed to nullobj's constructors: an instance holding no object.
struct NullTag {};

/// The outcome of an operation, given to its callback (the reference SDK's ClientResult).
class ClientResult {
 public:
  ClientResult() = default;
  explicit ClientResult(NullTag) : valid_(false) {}
  static const ClientResult nullobj;
  explicit operator bool() const { return valid_; }

  /// A one-line description: "OK", or the type, status, code and message.
  std::string ToString() const;
  ErrorType Type() const { return type_; }
  void SetType(ErrorType value) { type_ = value; }
  /// What happened and what to do next; empty on success.
  std::string const& Error() const { return error_; }
  void SetError(std::string value) { error_ = std::move(value); }
  /// The platform's error code (`code` of its error body, e.g. 10013), 0 when none.
  int32_t ErrorCode() const { return errorCode_; }
  void SetErrorCode(int32_t value) { errorCode_ = value; }
  /// The HTTP status, 0 when no answer came.
  int32_t Status() const { return status_; }
  void SetStatus(int32_t value) { status_ = value; }
  /// The raw body of a refused request (tokens are never in it).
  std::string const& ResponseBody() const { return responseBody_; }
  void SetResponseBody(std::string value) { responseBody_ = std::move(value); }
  bool Successful() const { return successful_; }
  void SetSuccessful(bool value) { successful_ = value; }
  /// True for network failures, 5xx and 429.
  bool Retryable() const { return retryable_; }
  void SetRetryable(bool value) { retryable_ = value; }
  /// For a 429 the SDK did not wait out: the seconds to wait.
  float RetryAfter() const { return retryAfter_; }
  void SetRetryAfter(float value) { retryAfter_ = value; }
  /// Native extension: the token endpoint's `error` (`invalid_grant`…), empty otherwise.
  std::string const& OAuthError() const { return oauthError_; }
  void SetOAuthError(std::string value) { oauthError_ = std::move(value); }

 private:
  bool valid_ = true;
  ErrorType type_ = ErrorType::None;
  std::string error_;
  int32_t errorCode_ = 0;
  int32_t status_ = 0;
  std::string responseBody_;
  bool successful_ = true;
  bool retryable_ = false;
  float retryAfter_ = 0;
  std::string oauthError_;
};

/// The PKCE challenge sent with Client::Authorize.
class AuthorizationCodeChallenge {
 public:
  AuthorizationCodeChallenge() = default;
  explicit AuthorizationCodeChallenge(NullTag) : valid_(false) {}
  static const AuthorizationCodeChallenge nullobj;
  explicit operator bool() const { return valid_; }

  AuthenticationCodeChallengeMethod Method() const { return method_; }
  void SetMethod(AuthenticationCodeChallengeMethod value) { method_ = value; }
  /// The base64url SHA-256 of the verifier (43 characters).
  std::string const& Challenge() const { return challenge_; }
  void SetChallenge(std::string value) { challenge_ = std::move(value); }

 private:
  bool valid_ = true;
  AuthenticationCodeChallengeMethod method_ = AuthenticationCodeChallengeMethod::S256;
  std::string challenge_;
};

/// A PKCE verifier and its challenge (Client::CreateAuthorizationCodeVerifier).
class AuthorizationCodeVerifier {
 public:
  AuthorizationCodeVerifier() = default;
  explicit AuthorizationCodeVerifier(NullTag) : valid_(false), challenge_(NullTag{}) {}
  static const AuthorizationCodeVerifier nullobj;
  explicit operator bool() const { return valid_; }

  /// The challenge to put in AuthorizationArgs::SetCodeChallenge.
  AuthorizationCodeChallenge const& Challenge() const { return challenge_; }
  void SetChallenge(AuthorizationCodeChallenge value) { challenge_ = std::move(value); }
  /// The secret to give Client::GetToken; never send it anywhere else.
  std::string const& Verifier() const { return verifier_; }
  void SetVerifier(std::string value) { verifier_ = std::move(value); }

 private:
  bool valid_ = true;
  AuthorizationCodeChallenge challenge_;
  std::string verifier_;
};

/// What Client::Authorize asks the person for. Scopes is required.
class AuthorizationArgs {
 public:
  AuthorizationArgs() = default;
  explicit AuthorizationArgs(NullTag) : valid_(false) {}
  static const AuthorizationArgs nullobj;
  explicit operator bool() const { return valid_; }

  /// The application; unset: the client's (Client::SetApplicationId).
  std::optional<uint64_t> ClientId() const { return clientId_; }
  void SetClientId(std::optional<uint64_t> value) { clientId_ = value; }
  /// Space-separated scopes, such as Client::GetDefaultCommunicationScopes().
  std::string const& Scopes() const { return scopes_; }
  void SetScopes(std::string value) { scopes_ = std::move(value); }
  /// The OAuth2 state; unset (recommended): the SDK makes a random one.
  std::optional<std::string> const& State() const { return state_; }
  void SetState(std::optional<std::string> value) { state_ = std::move(value); }
  /// The OpenID Connect nonce, returned in the ID token.
  std::optional<std::string> const& Nonce() const { return nonce_; }
  void SetNonce(std::optional<std::string> value) { nonce_ = std::move(value); }
  /// The PKCE challenge; needed for Client::GetToken.
  std::optional<AuthorizationCodeChallenge> const& CodeChallenge() const { return codeChallenge_; }
  void SetCodeChallenge(std::optional<AuthorizationCodeChallenge> value) {
    codeChallenge_ = std::move(value);
  }
  /// The install context (GuildInstall or UserInstall); unset: none named.
  std::optional<platformpp::IntegrationType> IntegrationType() const { return integrationType_; }
  void SetIntegrationType(std::optional<platformpp::IntegrationType> value) {
    integrationType_ = value;
  }
  /// A mobile app's URI scheme; a desktop game gets the redirect on a loopback listener, so
  /// Client::Authorize refuses it.
  std::optional<std::string> const& CustomSchemeParam() const { return customSchemeParam_; }
  void SetCustomSchemeParam(std::optional<std::string> value) {
    customSchemeParam_ = std::move(value);
  }

 private:
  bool valid_ = true;
  std::optional<uint64_t> clientId_;
  std::string scopes_;
  std::optional<std::string> state_;
  std::optional<std::string> nonce_;
  std::optional<AuthorizationCodeChallenge> codeChallenge_;
  std::optional<platformpp::IntegrationType> integrationType_;
  std::optional<std::string> customSchemeParam_;
};

/// What Client::GetTokenFromDevice asks for. Scopes is required.
class DeviceAuthorizationArgs {
 public:
  DeviceAuthorizationArgs() = default;
  explicit DeviceAuthorizationArgs(NullTag) : valid_(false) {}
  static const DeviceAuthorizationArgs nullobj;
  explicit operator bool() const { return valid_; }

  std::optional<uint64_t> ClientId() const { return clientId_; }
  void SetClientId(std::optional<uint64_t> value) { clientId_ = value; }
  std::string const& Scopes() const { return scopes_; }
  void SetScopes(std::string value) { scopes_ = std::move(value); }

 private:
  bool valid_ = true;
  std::optional<uint64_t> clientId_;
  std::string scopes_;
};

/// How a Client is made: the platform's addresses and the spec's other options.
class ClientCreateOptions {
 public:
  ClientCreateOptions() = default;
  explicit ClientCreateOptions(NullTag) : valid_(false) {}
  static const ClientCreateOptions nullobj;
  explicit operator bool() const { return valid_; }

  /// The API base with its version. Default: http://127.0.0.1:8080/api/v10 (`npm start`).
  std::string const& ApiBase() const { return apiBase_; }
  void SetApiBase(std::string value) { apiBase_ = std::move(value); }
  /// The web client's base (authorize page, invites); empty: the API's origin.
  std::string const& WebBase() const { return webBase_; }
  void SetWebBase(std::string value) { webBase_ = std::move(value); }
  /// Stored; voice is not in the native SDK.
  AudioSystem ExperimentalAudioSystem() const { return audioSystem_; }
  void SetExperimentalAudioSystem(AudioSystem value) { audioSystem_ = value; }
  /// Stored; voice is not in the native SDK.
  bool ExperimentalAndroidPreventCommsForBluetooth() const { return preventBluetooth_; }
  void SetExperimentalAndroidPreventCommsForBluetooth(bool value) { preventBluetooth_ = value; }
  /// The CPUs the SDK's threads may run on (a bit per CPU; Linux), unset: any.
  std::optional<uint64_t> CpuAffinityMask() const { return cpuAffinityMask_; }
  void SetCpuAffinityMask(std::optional<uint64_t> value) { cpuAffinityMask_ = value; }
  /// Native extension: the loopback redirect of Client::Authorize, http://127.0.0.1[:port]/path;
  /// empty: http://127.0.0.1:<free port>/callback (register http://127.0.0.1/callback).
  std::string const& RedirectUri() const { return redirectUri_; }
  void SetRedirectUri(std::string value) { redirectUri_ = std::move(value); }
  /// Native extension: ask the gateway for `compress=zlib-stream` (default) or plain JSON.
  bool GatewayCompression() const { return gatewayCompression_; }
  void SetGatewayCompression(bool value) { gatewayCompression_ = value; }

 private:
  bool valid_ = true;
  std::string apiBase_ = "http://127.0.0.1:8080/api/v10";
  std::string webBase_;
  AudioSystem audioSystem_ = AudioSystem::Standard;
  bool preventBluetooth_ = false;
  std::optional<uint64_t> cpuAffinityMask_;
  std::string redirectUri_;
  bool gatewayCompression_ = true;
};

/// A guild the player is in (Client::GetUserGuilds).
class GuildMinimal {
 public:
  GuildMinimal() = default;
  explicit GuildMinimal(NullTag) : valid_(false) {}
  static const GuildMinimal nullobj;
  explicit operator bool() const { return valid_; }

  uint64_t Id() const { return id_; }
  void SetId(uint64_t value) { id_ = value; }
  std::string const& Name() const { return name_; }
  void SetName(std::string value) { name_ = std::move(value); }

 private:
  bool valid_ = true;
  uint64_t id_ = 0;
  std::string name_;
};

/// The lobby a guild channel is linked to.
class LinkedLobby {
 public:
  LinkedLobby() = default;
  explicit LinkedLobby(NullTag) : valid_(false) {}
  static const LinkedLobby nullobj;
  explicit operator bool() const { return valid_; }

  uint64_t ApplicationId() const { return applicationId_; }
  void SetApplicationId(uint64_t value) { applicationId_ = value; }
  uint64_t LobbyId() const { return lobbyId_; }
  void SetLobbyId(uint64_t value) { lobbyId_ = value; }

 private:
  bool valid_ = true;
  uint64_t applicationId_ = 0;
  uint64_t lobbyId_ = 0;
};

/// One channel of a guild as the player sees it, for linking (Client::GetGuildChannels).
class GuildChannel {
 public:
  GuildChannel() = default;
  explicit GuildChannel(NullTag) : valid_(false) {}
  static const GuildChannel nullobj;
  explicit operator bool() const { return valid_; }

  uint64_t Id() const { return id_; }
  void SetId(uint64_t value) { id_ = value; }
  std::string const& Name() const { return name_; }
  void SetName(std::string value) { name_ = std::move(value); }
  ChannelType Type() const { return type_; }
  void SetType(ChannelType value) { type_ = value; }
  int32_t Position() const { return position_; }
  void SetPosition(int32_t value) { position_ = value; }
  /// The category it is in, unset for none.
  std::optional<uint64_t> ParentCategoryId() const { return parentCategoryId_; }
  void SetParentCategoryId(std::optional<uint64_t> value) { parentCategoryId_ = value; }
  /// Whether the player may link a lobby to it (a text channel with MANAGE_CHANNELS).
  bool IsLinkable() const { return isLinkable_; }
  void SetIsLinkable(bool value) { isLinkable_ = value; }
  /// Whether every member may view it and send messages in it.
  bool IsViewableAndWriteableByAllMembers() const { return viewableByAll_; }
  void SetIsViewableAndWriteableByAllMembers(bool value) { viewableByAll_ = value; }
  /// The lobby of the token's application linked to it, unset for none.
  std::optional<platformpp::LinkedLobby> const& LinkedLobby() const { return linkedLobby_; }
  void SetLinkedLobby(std::optional<platformpp::LinkedLobby> value) {
    linkedLobby_ = std::move(value);
  }

 private:
  bool valid_ = true;
  uint64_t id_ = 0;
  std::string name_;
  ChannelType type_ = ChannelType::GuildText;
  int32_t position_ = 0;
  std::optional<uint64_t> parentCategoryId_;
  bool isLinkable_ = false;
  bool viewableByAll_ = false;
  std::optional<platformpp::LinkedLobby> linkedLobby_;
};

/// The guild channel a lobby is linked to (LobbyHandle::LinkedChannel).
class LinkedChannel {
 public:
  LinkedChannel() = default;
  explicit LinkedChannel(NullTag) : valid_(false) {}
  static const LinkedChannel nullobj;
  explicit operator bool() const { return valid_; }

  uint64_t Id() const { return id_; }
  void SetId(uint64_t value) { id_ = value; }
  std::string const& Name() const { return name_; }
  void SetName(std::string value) { name_ = std::move(value); }
  uint64_t GuildId() const { return guildId_; }
  void SetGuildId(uint64_t value) { guildId_ = value; }

 private:
  bool valid_ = true;
  uint64_t id_ = 0;
  std::string name_;
  uint64_t guildId_ = 0;
};

/// The last message of one DM (Client::GetUserMessageSummaries).
class UserMessageSummary {
 public:
  UserMessageSummary() = default;
  explicit UserMessageSummary(NullTag) : valid_(false) {}
  static const UserMessageSummary nullobj;
  explicit operator bool() const { return valid_; }

  uint64_t UserId() const { return userId_; }
  void SetUserId(uint64_t value) { userId_ = value; }
  uint64_t LastMessageId() const { return lastMessageId_; }
  void SetLastMessageId(uint64_t value) { lastMessageId_ = value; }

 private:
  bool valid_ = true;
  uint64_t userId_ = 0;
  uint64_t lastMessageId_ = 0;
};

/// The player's voice settings. The native SDK has no voice: Client::GetVoiceSettings answers
/// VoiceSettings::nullobj (docs/sdk-cpp.md, Voice).
class VoiceSettings {
 public:
  VoiceSettings() = default;
  explicit VoiceSettings(NullTag) : valid_(false) {}
  static const VoiceSettings nullobj;
  explicit operator bool() const { return valid_; }

  bool SelfMute() const { return selfMute_; }
  void SetSelfMute(bool value) { selfMute_ = value; }
  bool SelfDeaf() const { return selfDeaf_; }
  void SetSelfDeaf(bool value) { selfDeaf_ = value; }
  float InputVolume() const { return inputVolume_; }
  void SetInputVolume(float value) { inputVolume_ = value; }
  float OutputVolume() const { return outputVolume_; }
  void SetOutputVolume(float value) { outputVolume_ = value; }
  AudioModeType AudioMode() const { return audioMode_; }
  void SetAudioMode(AudioModeType value) { audioMode_ = value; }

 private:
  bool valid_ = true;
  bool selfMute_ = false;
  bool selfDeaf_ = false;
  float inputVolume_ = 100;
  float outputVolume_ = 100;
  AudioModeType audioMode_ = AudioModeType::VAD;
};

/// An audio device (the native SDK lists none).
class AudioDevice {
 public:
  AudioDevice() = default;
  explicit AudioDevice(NullTag) : valid_(false) {}
  static const AudioDevice nullobj;
  explicit operator bool() const { return valid_; }

  std::string const& Id() const { return id_; }
  void SetId(std::string value) { id_ = std::move(value); }
  std::string const& Name() const { return name_; }
  void SetName(std::string value) { name_ = std::move(value); }
  bool IsDefault() const { return isDefault_; }
  void SetIsDefault(bool value) { isDefault_ = value; }

 private:
  bool valid_ = true;
  std::string id_;
  std::string name_;
  bool isDefault_ = false;
};

}  // namespace platformpp
