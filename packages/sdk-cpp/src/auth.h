// Account linking (docs/oauth.md, docs/provisional-accounts.md): the authorize flow through the
// system browser and a loopback listener (RFC 8252 §7.3, PKCE), the token exchanges as a public
// client, provisional accounts, child tokens and the device flow (RFC 8628).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "client_impl.h"

namespace platformpp::detail {

/// How long Authorize waits for the person: an authorization code lives no longer.
constexpr int64_t kAuthorizeTimeoutMs = 600000;

struct AuthorizeSession;
struct DeviceSession;

/// The flows under way (one authorize and one device flow at a time).
struct AuthFlows {
  std::mutex mutex;
  std::shared_ptr<AuthorizeSession> authorizing;
  std::shared_ptr<DeviceSession> device;
};

/// The loopback redirect's port and path from ClientCreateOptions::RedirectUri (empty: a free
/// port and /callback); the refusal when it is not http://127.0.0.1[:port]/path.
std::optional<std::string> loopbackTarget(std::string const& redirectUri, int& port,
                                          std::string& path);

/// Starts an authorization: the listener on the worker, the page through the game's opener;
/// `done(result, code, redirectUri)` inside RunCallbacks.
std::shared_ptr<AuthorizeSession> startAuthorize(
    std::shared_ptr<Core> const& core, std::string authorizeQuery, std::string state, int port,
    std::string path, std::function<void(ClientResult, std::string, std::string)> done);
/// Ends it with Aborted (any thread).
void abortAuthorize(std::shared_ptr<AuthorizeSession> const& session);

/// A form POST to an OAuth2 endpoint as a public client; refusals say what to do next.
void oauthPost(std::shared_ptr<Core> const& core, std::string const& op, std::string const& path,
               std::vector<std::pair<std::string, std::string>> form,
               std::function<void(HttpOutcome)> onGame);
/// A token answer to the callback's arguments (its tokens become log secrets).
void deliverTokens(Core& core, HttpOutcome const& outcome, Client::TokenExchangeCallback const& cb);

/// The wire name of an external auth type, with the refusal when the type or token is bad.
std::optional<std::string> externalAuth(std::string const& op, AuthenticationExternalAuthType type,
                                        std::string const& token, std::string& wire);
std::optional<std::string> checkScopes(std::string const& op, std::string const& scopes);

/// The device flow; `extra` adds the merge's fields to the token request.
void startDeviceFlow(std::shared_ptr<Core> const& core, std::shared_ptr<AuthFlows> const& flows,
                     std::string const& op, uint64_t clientId, std::string scopes,
                     std::vector<std::pair<std::string, std::string>> extra,
                     Client::TokenExchangeCallback callback);
void abortDeviceFlow(std::shared_ptr<AuthFlows> const& flows);

}  // namespace platformpp::detail
