// Client::Authorize and its parts: the PKCE verifier, the authorize page's query, the Connected
// Game flow's AUTHORIZE_REQUEST.
#include "auth.h"

#include "areas.h"
#include "encoding.h"

namespace platformpp {

using detail::Json;

namespace {

constexpr size_t kMaxStateLength = 1024;
constexpr size_t kMaxNonceLength = 512;
/// An S256 challenge: base64url of a SHA-256, 43 characters.
constexpr size_t kChallengeLength = 43;

bool base64urlText(std::string const& text) {
  return text.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") ==
         std::string::npos;
}

/// The refusal of AuthorizationArgs' values, if any.
std::optional<std::string> checkArgs(AuthorizationArgs const& args) {
  std::string op = "Authorize";
  if (!args) return op + ": pass an AuthorizationArgs (not AuthorizationArgs::nullobj).";
  if (args.Scopes().find_first_not_of(' ') == std::string::npos) {
    return op +
           ": AuthorizationArgs has no scopes; call "
           "SetScopes(Client::GetDefaultCommunicationScopes()).";
  }
  if (auto refused = detail::checkScopes(op, args.Scopes())) return refused;
  if (args.State() && (args.State()->empty() || args.State()->size() > kMaxStateLength)) {
    return op + ": the state must be 1–" + std::to_string(kMaxStateLength) + " characters.";
  }
  if (args.Nonce() && (args.Nonce()->empty() || args.Nonce()->size() > kMaxNonceLength)) {
    return op + ": the nonce must be 1–" + std::to_string(kMaxNonceLength) + " characters.";
  }
  if (auto const& challenge = args.CodeChallenge()) {
    if (challenge->Method() != AuthenticationCodeChallengeMethod::S256 ||
        challenge->Challenge().size() != kChallengeLength || !base64urlText(challenge->Challenge())) {
      return op +
             ": the code challenge is not an S256 challenge; pass "
             "CreateAuthorizationCodeVerifier().Challenge().";
    }
  }
  if (args.CustomSchemeParam()) {
    return op +
           ": CustomSchemeParam is for mobile apps; a desktop game gets the redirect on a "
           "loopback listener. Leave it unset.";
  }
  return std::nullopt;
}

}  // namespace

namespace detail {

void installAuthHandlers(Core& core) {
  // The person asked, from the web client, to link their account in this game (the server sends
  // it to this application's SDK sessions of theirs only; every session gets it anew).
  core.on("AUTHORIZE_REQUEST", [&core](Json const& data, Events& events) {
    uint64_t app = idAt(data, "application_id");
    if (core.state.applicationId != 0 && app != core.state.applicationId) return;
    core.logger.info("Authorize request: the person asked to link their account.");
    core.fire(events, &Callbacks::authorizeRequest);
  });
}

std::optional<std::string> checkScopes(std::string const& op, std::string const& scopes) {
  constexpr size_t kMaxScopesLength = 2048;
  if (scopes.size() > kMaxScopesLength) {
    return op + ": scopes are longer than " + std::to_string(kMaxScopesLength) + " characters.";
  }
  for (unsigned char c : scopes) {
    // RFC 6749 §3.3 scope-token characters, and the spaces between them.
    if (c != ' ' && (c < 0x21 || c == 0x22 || c == 0x5C || c > 0x7E)) {
      return op +
             ": the scopes hold a character a scope cannot have; separate scopes with spaces, as "
             "GetDefaultCommunicationScopes() does.";
    }
  }
  return std::nullopt;
}

void installHandlers(Core& core) {
  installSocialSync(core);
  installAuthHandlers(core);
  installPresence(core);
  installMessages(core);
  installLobbies(core);
}

}  // namespace detail

AuthorizationCodeVerifier Client::CreateAuthorizationCodeVerifier() {
  AuthorizationCodeVerifier verifier;
  verifier.SetVerifier(detail::randomToken(32));
  AuthorizationCodeChallenge challenge;
  challenge.SetMethod(AuthenticationCodeChallengeMethod::S256);
  challenge.SetChallenge(detail::base64url(detail::sha256(verifier.Verifier())));
  verifier.SetChallenge(challenge);
  if (impl_) impl_->core->logger.secret(verifier.Verifier());
  return verifier;
}

void Client::Authorize(AuthorizationArgs args, AuthorizationCallback callback) {
  if (!impl_) return;
  auto fail = [&](std::string message) {
    impl_->later(callback, detail::validationError(std::move(message)), std::string(),
                 std::string());
  };
  if (auto refused = checkArgs(args)) return fail(*refused);
  uint64_t clientId = args.ClientId().value_or(GetApplicationId());
  if (clientId == 0) {
    return fail("Authorize needs an application id: call SetApplicationId() first, or "
                "AuthorizationArgs::SetClientId().");
  }
  int port = 0;
  std::string path;
  if (auto refused = detail::loopbackTarget(impl_->core->settings.redirectUri, port, path)) {
    return fail(*refused);
  }
  std::string state = args.State().value_or(detail::randomToken(16));
  std::vector<std::pair<std::string, std::string>> query = {
      {"response_type", "code"},
      {"client_id", std::to_string(clientId)},
      {"scope", args.Scopes()},
      {"state", state},
  };
  if (args.CodeChallenge()) {
    query.emplace_back("code_challenge", args.CodeChallenge()->Challenge());
    query.emplace_back("code_challenge_method", "S256");
  }
  if (args.Nonce()) query.emplace_back("nonce", *args.Nonce());
  if (args.IntegrationType()) {
    query.emplace_back("integration_type", std::to_string(static_cast<int>(*args.IntegrationType())));
  }
  auto flows = impl_->auth;
  std::lock_guard lock(flows->mutex);
  if (flows->authorizing) {
    return fail("Authorize: an authorization is already under way; AbortAuthorize() ends it.");
  }
  auto holder = std::make_shared<std::weak_ptr<detail::AuthorizeSession>>();
  flows->authorizing = detail::startAuthorize(
      impl_->core, detail::formEncode(query), state, port, path,
      [flows, holder, callback](ClientResult result, std::string code, std::string redirectUri) {
        {
          std::lock_guard inner(flows->mutex);
          if (flows->authorizing == holder->lock()) flows->authorizing.reset();
        }
        if (callback) callback(result, code, redirectUri);
      });
  *holder = flows->authorizing;
}

void Client::AbortAuthorize() {
  if (!impl_) return;
  std::shared_ptr<detail::AuthorizeSession> pending;
  {
    std::lock_guard lock(impl_->auth->mutex);
    pending = impl_->auth->authorizing;
  }
  if (pending) detail::abortAuthorize(pending);
}

void Client::RegisterAuthorizeRequestCallback(AuthorizeRequestCallback callback) {
  if (impl_) impl_->core->setCallback(&detail::Callbacks::authorizeRequest, std::move(callback));
}

void Client::RemoveAuthorizeRequestCallback() {
  if (impl_) impl_->core->setCallback(&detail::Callbacks::authorizeRequest, {});
}

}  // namespace platformpp
