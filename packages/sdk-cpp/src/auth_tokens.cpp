// The token operations, each a request as a public client (no secret: the application must have
// public_client on, docs/oauth.md): code exchange (and the provisional merge), refresh, revoke,
// provisional tokens, unmerge, child tokens. A game with a backend keeps its secret there.
#include "auth.h"

namespace platformpp {

using detail::Json;

namespace {

constexpr size_t kMaxExternalTokenLength = 10240;
constexpr size_t kMinVerifier = 43;
constexpr size_t kMaxVerifier = 128;

bool pkceVerifier(std::string const& text) {
  return text.size() >= kMinVerifier && text.size() <= kMaxVerifier &&
         text.find_first_not_of(
             "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~-") ==
             std::string::npos;
}

bool blank(std::string const& text) { return text.find_first_not_of(" \t\r\n") == std::string::npos; }

using Form = std::vector<std::pair<std::string, std::string>>;

void refuseTokens(detail::ClientImpl& impl, Client::TokenExchangeCallback const& callback,
                  std::string message) {
  impl.later(callback, detail::validationError(std::move(message)), std::string(), std::string(),
             AuthorizationTokenType::Bearer, int32_t{0}, std::string());
}

void tokenRequest(detail::ClientImpl& impl, std::string const& op, Form form,
                  Client::TokenExchangeCallback callback) {
  auto core = impl.core;
  detail::oauthPost(core, op, "/oauth2/token", std::move(form),
                    [core, callback](detail::HttpOutcome outcome) {
                      detail::deliverTokens(*core, outcome, callback);
                    });
}

void codeGrant(detail::ClientImpl& impl, std::string const& op, uint64_t applicationId,
               std::string const& code, std::string const& verifier, std::string const& redirectUri,
               Form extra, Client::TokenExchangeCallback callback) {
  if (applicationId == 0) return refuseTokens(impl, callback, op + ": the application id is 0.");
  if (blank(code)) return refuseTokens(impl, callback, op + ": the code is empty.");
  if (!pkceVerifier(verifier)) {
    return refuseTokens(impl, callback,
                        op +
                            ": the code verifier must be the Verifier() of "
                            "CreateAuthorizationCodeVerifier() (43–128 characters).");
  }
  if (blank(redirectUri)) return refuseTokens(impl, callback, op + ": the redirect URI is empty.");
  impl.core->logger.secret(code);
  Form form = {{"grant_type", "authorization_code"},
               {"client_id", std::to_string(applicationId)},
               {"code", code},
               {"code_verifier", verifier},
               {"redirect_uri", redirectUri}};
  form.insert(form.end(), extra.begin(), extra.end());
  tokenRequest(impl, op, std::move(form), std::move(callback));
}

}  // namespace

namespace detail {

void oauthPost(std::shared_ptr<Core> const& core, std::string const& op, std::string const& path,
               std::vector<std::pair<std::string, std::string>> form,
               std::function<void(HttpOutcome)> onGame) {
  HttpRequest request;
  request.method = "POST";
  request.path = path;
  request.auth = false;
  request.form = std::move(form);
  sendRequest(core, std::move(request), [op, onGame](HttpOutcome outcome) {
    auto& result = outcome.result;
    if (result.OAuthError() == "invalid_client") {
      result.SetError(op +
                      ": the server refused the application as a public client "
                      "(invalid_client). Turn on public_client for the app (PATCH "
                      "/applications/{id}), or run this exchange on your backend with the client "
                      "secret.");
    } else if (result.OAuthError() == "invalid_grant") {
      result.SetError(result.Error() +
                      ". The grant is no longer valid (used, expired, revoked or unlinked): "
                      "authorize again.");
    }
    onGame(std::move(outcome));
  });
}

void deliverTokens(Core& core, HttpOutcome const& outcome, Client::TokenExchangeCallback const& cb) {
  auto const& body = outcome.body;
  std::string access = strAt(body, "access_token");
  std::string refresh = strAt(body, "refresh_token");
  core.logger.secret(access);
  core.logger.secret(refresh);
  core.logger.secret(strAt(body, "id_token"));
  if (!cb) return;
  if (!outcome.result.Successful()) {
    cb(outcome.result, "", "", AuthorizationTokenType::Bearer, 0, "");
    return;
  }
  cb(outcome.result, access, refresh, AuthorizationTokenType::Bearer,
     static_cast<int32_t>(intAt(body, "expires_in", 0)), strAt(body, "scope"));
}

std::optional<std::string> externalAuth(std::string const& op, AuthenticationExternalAuthType type,
                                        std::string const& token, std::string& wire) {
  switch (type) {
    case AuthenticationExternalAuthType::OIDC: wire = "OIDC"; break;
    case AuthenticationExternalAuthType::EpicOnlineServicesAccessToken:
      wire = "EPIC_ONLINE_SERVICES_ACCESS_TOKEN";
      break;
    case AuthenticationExternalAuthType::EpicOnlineServicesIdToken:
      wire = "EPIC_ONLINE_SERVICES_ID_TOKEN";
      break;
    case AuthenticationExternalAuthType::SteamSessionTicket: wire = "STEAM_SESSION_TICKET"; break;
    case AuthenticationExternalAuthType::UnityServicesIdToken:
      wire = "UNITY_SERVICES_ID_TOKEN";
      break;
    case AuthenticationExternalAuthType::DiscordBotIssuedAccessToken:
      wire = "DISCORD_BOT_ISSUED_ACCESS_TOKEN";
      break;
    case AuthenticationExternalAuthType::AppleIdToken: wire = "APPLE_ID_TOKEN"; break;
    case AuthenticationExternalAuthType::PlayStationNetworkIdToken:
      wire = "PLAYSTATION_NETWORK_ID_TOKEN";
      break;
    default:
      return op + ": " + std::to_string(static_cast<int>(type)) +
             " is not an AuthenticationExternalAuthType.";
  }
  if (blank(token)) return op + ": the external auth token is empty.";
  if (token.size() > kMaxExternalTokenLength) {
    return op + ": the external auth token is longer than " +
           std::to_string(kMaxExternalTokenLength) + " characters.";
  }
  return std::nullopt;
}

}  // namespace detail

void Client::GetToken(uint64_t applicationId, std::string const& code,
                      std::string const& codeVerifier, std::string const& redirectUri,
                      TokenExchangeCallback callback) {
  if (impl_) {
    codeGrant(*impl_, "GetToken", applicationId, code, codeVerifier, redirectUri, {}, callback);
  }
}

void Client::GetTokenFromProvisionalMerge(uint64_t applicationId, std::string const& code,
                                          std::string const& codeVerifier,
                                          std::string const& redirectUri,
                                          AuthenticationExternalAuthType externalAuthType,
                                          std::string const& externalAuthToken,
                                          TokenExchangeCallback callback) {
  if (!impl_) return;
  std::string op = "GetTokenFromProvisionalMerge";
  std::string wire;
  if (auto refused = detail::externalAuth(op, externalAuthType, externalAuthToken, wire)) {
    return refuseTokens(*impl_, callback, *refused);
  }
  impl_->core->logger.secret(externalAuthToken);
  codeGrant(*impl_, op, applicationId, code, codeVerifier, redirectUri,
            {{"external_auth_type", wire}, {"external_auth_token", externalAuthToken}}, callback);
}

void Client::RefreshToken(uint64_t applicationId, std::string const& refreshToken,
                          TokenExchangeCallback callback) {
  if (!impl_) return;
  std::string op = "RefreshToken";
  if (applicationId == 0) return refuseTokens(*impl_, callback, op + ": the application id is 0.");
  if (blank(refreshToken)) return refuseTokens(*impl_, callback, op + ": the refresh token is empty.");
  impl_->core->logger.secret(refreshToken);
  tokenRequest(*impl_, op,
               {{"grant_type", "refresh_token"},
                {"client_id", std::to_string(applicationId)},
                {"refresh_token", refreshToken}},
               callback);
}

void Client::RevokeToken(uint64_t applicationId, std::string const& token,
                         RevokeTokenCallback callback) {
  if (!impl_) return;
  std::string op = "RevokeToken";
  if (applicationId == 0 || blank(token)) {
    return impl_->later(callback, detail::validationError(op + ": pass the application id and a "
                                                               "token."));
  }
  impl_->core->logger.secret(token);
  auto core = impl_->core;
  detail::oauthPost(core, op, "/oauth2/token/revoke",
                    {{"client_id", std::to_string(applicationId)}, {"token", token}},
                    [core, callback](detail::HttpOutcome outcome) {
                      if (outcome.result.Successful()) {
                        core->logger.info("Token revoked: the authorization has ended.");
                      }
                      if (callback) callback(outcome.result);
                    });
}

void Client::GetProvisionalToken(uint64_t applicationId,
                                 AuthenticationExternalAuthType externalAuthType,
                                 std::string const& externalAuthToken,
                                 TokenExchangeCallback callback) {
  if (!impl_) return;
  std::string op = "GetProvisionalToken";
  std::string wire;
  if (applicationId == 0) return refuseTokens(*impl_, callback, op + ": the application id is 0.");
  if (auto refused = detail::externalAuth(op, externalAuthType, externalAuthToken, wire)) {
    return refuseTokens(*impl_, callback, *refused);
  }
  impl_->core->logger.secret(externalAuthToken);
  detail::HttpRequest request;
  request.method = "POST";
  request.path = "/partner-sdk/token";
  request.auth = false;
  request.json = Json{{"client_id", std::to_string(applicationId)},
                      {"external_auth_type", wire},
                      {"external_auth_token", externalAuthToken}};
  auto core = impl_->core;
  impl_->request(std::move(request), [core, callback](detail::HttpOutcome outcome) {
    detail::deliverTokens(*core, outcome, callback);
  });
}

void Client::UnmergeIntoProvisionalAccount(uint64_t applicationId,
                                           AuthenticationExternalAuthType externalAuthType,
                                           std::string const& externalAuthToken,
                                           UnmergeIntoProvisionalAccountCallback callback) {
  if (!impl_) return;
  std::string op = "UnmergeIntoProvisionalAccount";
  std::string wire;
  std::optional<std::string> refused;
  if (applicationId == 0) refused = op + ": the application id is 0.";
  if (!refused) refused = detail::externalAuth(op, externalAuthType, externalAuthToken, wire);
  if (refused) return impl_->later(callback, detail::validationError(*refused));
  impl_->core->logger.secret(externalAuthToken);
  detail::HttpRequest request;
  request.method = "POST";
  request.path = "/partner-sdk/provisional-accounts/unmerge";
  request.auth = false;
  request.json = Json{{"client_id", std::to_string(applicationId)},
                      {"external_auth_type", wire},
                      {"external_auth_token", externalAuthToken}};
  auto core = impl_->core;
  impl_->request(std::move(request), [core, callback](detail::HttpOutcome outcome) {
    if (outcome.result.Successful()) {
      core->logger.info("Unmerged: the identity is a provisional account again.");
    }
    if (callback) callback(outcome.result);
  });
}

void Client::ExchangeChildToken(std::string const& parentApplicationToken,
                                uint64_t childApplicationId, ExchangeChildTokenCallback callback) {
  if (!impl_) return;
  std::string op = "ExchangeChildToken";
  if (blank(parentApplicationToken) || childApplicationId == 0) {
    return impl_->later(callback,
                        detail::validationError(op +
                                                ": pass the parent application's access token "
                                                "and the child application's id."),
                        std::string(), AuthorizationTokenType::Bearer, int32_t{0}, std::string());
  }
  impl_->core->logger.secret(parentApplicationToken);
  detail::HttpRequest request;
  request.method = "POST";
  request.path = "/partner-sdk/child-token";
  request.auth = false;
  request.json = Json{{"parent_access_token", parentApplicationToken},
                      {"child_application_id", std::to_string(childApplicationId)}};
  auto core = impl_->core;
  impl_->request(std::move(request), [core, callback](detail::HttpOutcome outcome) {
    detail::deliverTokens(*core, outcome,
                          [callback](ClientResult result, std::string access, std::string,
                                     AuthorizationTokenType type, int32_t expiresIn,
                                     std::string scopes) {
                            if (callback) callback(result, access, type, expiresIn, scopes);
                          });
  });
}

}  // namespace platformpp
