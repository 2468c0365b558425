// Users: the player, users the client knows, user application profiles
// (docs/social-stats.md), and a provisional account's display name
// (docs/provisional-accounts.md).
#include "areas.h"
#include "client_impl.h"
#include "wire.h"

namespace platformpp {

using detail::Json;

namespace {

/// A display name (global_name): 1–32 characters.
constexpr size_t kMaxDisplayName = 32;

ExternalIdentityProviderType providerTypeOf(std::string const& wire) {
  if (wire == "OIDC") return ExternalIdentityProviderType::OIDC;
  if (wire == "EPIC_ONLINE_SERVICES") return ExternalIdentityProviderType::EpicOnlineServices;
  if (wire == "STEAM") return ExternalIdentityProviderType::Steam;
  if (wire == "UNITY") return ExternalIdentityProviderType::Unity;
  if (wire == "DISCORD_BOT") return ExternalIdentityProviderType::DiscordBot;
  if (wire == "NONE") return ExternalIdentityProviderType::None;
  return ExternalIdentityProviderType::Unknown;
}

UserApplicationProfileHandle profileOf(Json const& wire) {
  UserApplicationProfileHandle profile;
  profile.SetAvatarHash(detail::strAt(wire, "avatar_hash"));
  auto const& metadata = wire.contains("metadata") ? wire["metadata"] : Json();
  profile.SetMetadata(metadata.is_null() ? "" : detail::toText(metadata));
  profile.SetProviderId(detail::optStrAt(wire, "provider_id"));
  profile.SetProviderIssuedUserId(detail::strAt(wire, "provider_issued_user_id"));
  profile.SetProviderType(providerTypeOf(detail::strAt(wire, "provider_type")));
  profile.SetUsername(detail::strAt(wire, "username"));
  return profile;
}

}  // namespace

UserHandle Client::GetCurrentUser() const {
  if (!impl_) return UserHandle();
  auto& core = *impl_->core;
  {
    std::lock_guard lock(core.mutex);
    if (!core.areas.warnedGetCurrentUser) {
      core.areas.warnedGetCurrentUser = true;
      core.logger.warn(
          "GetCurrentUser() is deprecated: use GetCurrentUserV2(), which answers an empty "
          "optional until the client is ready.");
    }
  }
  auto me = GetCurrentUserV2();
  return me ? *me : UserHandle();
}

std::optional<UserHandle> Client::GetCurrentUserV2() const {
  if (!impl_) return std::nullopt;
  std::lock_guard lock(impl_->core->mutex);
  uint64_t me = impl_->core->state.currentUserId();
  if (me == 0) return std::nullopt;
  return UserHandle(impl_->core, me);
}

std::optional<UserHandle> Client::GetUser(uint64_t userId) const {
  if (!impl_) return std::nullopt;
  std::lock_guard lock(impl_->core->mutex);
  if (impl_->core->state.users.count(userId) == 0) return std::nullopt;
  return UserHandle(impl_->core, userId);
}

void Client::SetUserUpdatedCallback(UserUpdatedCallback callback) {
  if (impl_) impl_->core->setCallback(&detail::Callbacks::userUpdated, std::move(callback));
}

void Client::GetUserApplicationProfiles(uint64_t userId,
                                        GetUserApplicationProfilesCallback callback) {
  if (!impl_) return;
  if (auto refused = detail::checkId("GetUserApplicationProfiles", "userId", userId)) {
    return impl_->later(callback, detail::validationError(*refused),
                        std::vector<UserApplicationProfileHandle>{});
  }
  detail::HttpRequest request;
  request.path = "/users/" + std::to_string(userId) + "/application-profiles";
  auto core = impl_->core;
  impl_->request(std::move(request), [core, userId, callback](detail::HttpOutcome outcome) {
    std::vector<UserApplicationProfileHandle> profiles;
    if (outcome.result.Successful() && outcome.body.is_array()) {
      for (auto const& wire : outcome.body) profiles.push_back(profileOf(wire));
      std::lock_guard lock(core->mutex);
      core->areas.profiles[userId] = profiles;
    }
    if (callback) callback(outcome.result, profiles);
  });
}

std::vector<UserApplicationProfileHandle> Client::GetUserApplicationProfilesNoLock(
    uint64_t userId) const {
  if (!impl_) return {};
  return UserHandle(impl_->core, userId).UserApplicationProfiles();
}

void Client::UpdateProvisionalAccountDisplayName(
    std::string const& name, UpdateProvisionalAccountDisplayNameCallback callback) {
  if (!impl_) return;
  size_t length = detail::utf16Length(name);
  if (length < 1 || length > kMaxDisplayName) {
    std::string refusal = "UpdateProvisionalAccountDisplayName: the name must be 1 to " +
                          std::to_string(kMaxDisplayName) + " characters.";
    return impl_->later(callback, detail::validationError(refusal));
  }
  detail::HttpRequest request;
  request.method = "PATCH";
  request.path = "/partner-sdk/provisional-accounts/@me";
  request.json = Json{{"global_name", name}};
  auto core = impl_->core;
  impl_->request(std::move(request), [core, callback](detail::HttpOutcome outcome) {
    if (outcome.result.Successful() && outcome.body.is_object()) {
      // The player's new name shows at once (USER_UPDATE follows).
      std::lock_guard lock(core->mutex);
      core->state.cacheUser(outcome.body);
      uint64_t id = detail::idAt(outcome.body, "id");
      if (id != 0 && id == core->state.currentUserId()) {
        detail::mergeInto(core->state.currentUser, outcome.body);
      }
    }
    if (callback) callback(outcome.result);
  });
}

void Client::OpenConnectedGamesSettingsInPlatform(ResultCallback callback) {
  if (!impl_) return;
  auto core = impl_->core;
  core->post([core, callback] {
    core->openUrl(core->settings.webBase + "/settings/connected-games");
    if (callback) callback(detail::okResult());
  });
}

}  // namespace platformpp
