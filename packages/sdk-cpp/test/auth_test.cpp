// Account linking against a real Guildhall: the authorize page through the game's opener and the
// loopback listener (PKCE), GetToken, refresh, revoke (the connected client ends Disconnected with
// the platform's close code), a declined consent, abort, provisional accounts with their merge and
// unmerge, child tokens and the device flow.
#include "support.h"

namespace {

using namespace pptest;
using platformpp::AuthenticationExternalAuthType;
using platformpp::AuthorizationArgs;
using platformpp::ErrorType;

struct Tokens {
  bool done = false;
  ClientResult result;
  std::string access;
  std::string refresh;
  std::string scopes;
  Client::TokenExchangeCallback callback() {
    return [this](ClientResult r, std::string a, std::string f, platformpp::AuthorizationTokenType,
                  int32_t, std::string s) {
      result = r;
      access = a;
      refresh = f;
      scopes = s;
      secret(a);
      secret(f);
      done = true;
    };
  }
};

/// The id of a token's user, or the HTTP status when the token is refused.
std::string whoIs(std::string const& token) {
  auto me = api("GET", "/users/@me", "Bearer " + token);
  return me.status == 200 ? me.body.at("id").get<std::string>() : std::to_string(me.status);
}

struct Authorized {
  ClientResult result;
  std::string code;
  std::string redirect;
  bool done = false;
};

Authorized authorize(Client& client, AuthorizationArgs const& args) {
  Authorized out;
  client.Authorize(args, [&](ClientResult r, std::string code, std::string redirect) {
    out.result = r;
    out.code = code;
    out.redirect = redirect;
    secret(code);
    out.done = true;
  });
  EXPECT_TRUE(pump([&] { return out.done; }));
  return out;
}

TEST(Auth, PkceLoginThenRefreshThenRevokeEndsTheSession) {
  auto const& person = nextPerson();
  Client linking = makeClient();
  linking.SetApplicationId(world().applicationId);
  std::vector<std::string> opened;
  auto consent = consentAs(person);
  linking.SetOpenUrlCallback([&](std::string const& url) {
    opened.push_back(url);
    return consent(url);
  });
  auto verifier = linking.CreateAuthorizationCodeVerifier();
  secret(verifier.Verifier());
  EXPECT_EQ(verifier.Verifier().size(), 43U);
  AuthorizationArgs args;
  args.SetScopes(Client::GetDefaultCommunicationScopes());
  args.SetCodeChallenge(verifier.Challenge());
  auto authorized = authorize(linking, args);
  ASSERT_OK(authorized.result);
  ASSERT_EQ(opened.size(), 1U);
  EXPECT_EQ(opened[0].rfind(world().apiBase.substr(0, world().apiBase.find("/api/")) +
                                "/oauth2/authorize?",
                            0),
            0U);
  EXPECT_NE(opened[0].find("code_challenge_method=S256"), std::string::npos);
  EXPECT_EQ(authorized.redirect.rfind("http://127.0.0.1:", 0), 0U);

  Tokens tokens;
  linking.GetToken(world().applicationId, authorized.code, verifier.Verifier(),
                   authorized.redirect, tokens.callback());
  PUMP_UNTIL(tokens.done);
  ASSERT_OK(tokens.result);
  EXPECT_EQ(whoIs(tokens.access), std::to_string(person.id));
  EXPECT_NE(tokens.scopes.find("sdk.social_layer"), std::string::npos);
  EXPECT_FALSE(tokens.refresh.empty());

  Tokens refreshed;
  linking.RefreshToken(world().applicationId, tokens.refresh, refreshed.callback());
  PUMP_UNTIL(refreshed.done);
  ASSERT_OK(refreshed.result);
  EXPECT_NE(refreshed.access, tokens.access);
  // The old refresh token stopped working: invalid_grant, with what to do next.
  Tokens stale;
  linking.RefreshToken(world().applicationId, tokens.refresh, stale.callback());
  PUMP_UNTIL(stale.done);
  EXPECT_EQ(stale.result.Type(), ErrorType::AuthorizationFailed);
  EXPECT_EQ(stale.result.OAuthError(), "invalid_grant");
  EXPECT_NE(stale.result.Error().find("authorize again"), std::string::npos);

  Client player = readyClient(refreshed.access);
  Client::Error error = Client::Error::None;
  int32_t detail = 0;
  player.SetStatusChangedCallback([&](Client::Status, Client::Error e, int32_t d) {
    error = e;
    detail = d;
  });
  Caught revoked;
  linking.RevokeToken(world().applicationId, refreshed.access, revoked.callback());
  PUMP_UNTIL(revoked.done);
  ASSERT_OK(revoked.result);
  PUMP_UNTIL(player.GetStatus() == Client::Status::Disconnected);
  EXPECT_EQ(error, Client::Error::UnexpectedClose);
  EXPECT_EQ(detail, 4004);
  EXPECT_EQ(whoIs(refreshed.access), "401");
}

TEST(Auth, ADeclinedConsentFailsWithAccessDenied) {
  Client client = makeClient();
  client.SetApplicationId(world().applicationId);
  client.SetOpenUrlCallback(consentAs(nextPerson(), false));
  AuthorizationArgs args;
  args.SetScopes(Client::GetDefaultPresenceScopes());
  args.SetCodeChallenge(client.CreateAuthorizationCodeVerifier().Challenge());
  auto authorized = authorize(client, args);
  EXPECT_EQ(authorized.result.Type(), ErrorType::AuthorizationFailed);
  EXPECT_EQ(authorized.result.OAuthError(), "access_denied");
  EXPECT_EQ(authorized.result.Error(), "Authorize: the person declined the authorization.");
}

TEST(Auth, OneAuthorizeAtATimeAndAbortEndsIt) {
  Client client = makeClient();
  client.SetApplicationId(world().applicationId);
  bool shown = false;
  client.SetOpenUrlCallback([&](std::string const&) { return shown = true; });
  AuthorizationArgs args;
  args.SetScopes(Client::GetDefaultCommunicationScopes());
  Authorized first;
  client.Authorize(args, [&](ClientResult r, std::string, std::string) {
    first.result = r;
    first.done = true;
  });
  PUMP_UNTIL(shown);
  Authorized second;
  client.Authorize(args, [&](ClientResult r, std::string, std::string) {
    second.result = r;
    second.done = true;
  });
  PUMP_UNTIL(second.done);
  EXPECT_EQ(second.result.Type(), ErrorType::ValidationError);
  EXPECT_FALSE(first.done);
  client.AbortAuthorize();
  PUMP_UNTIL(first.done);
  EXPECT_EQ(first.result.Type(), ErrorType::Aborted);
}

TEST(Auth, ProvisionalAccountsMergeAndUnmergeKeepThePlatformCodes) {
  auto const app = world().applicationId;
  auto const& idToken = nextIdToken();
  Client client = makeClient();
  Tokens provisionalTokens;
  client.GetProvisionalToken(app, AuthenticationExternalAuthType::OIDC, idToken,
                             provisionalTokens.callback());
  PUMP_UNTIL(provisionalTokens.done);
  ASSERT_OK(provisionalTokens.result);
  std::string provisionalId = whoIs(provisionalTokens.access);

  // A bot-issued token of this app; a store provider this server does not verify.
  auto pip = provisional("Pip");
  Tokens botIssued;
  client.GetProvisionalToken(app, AuthenticationExternalAuthType::DiscordBotIssuedAccessToken,
                             pip.token, botIssued.callback());
  PUMP_UNTIL(botIssued.done);
  ASSERT_OK(botIssued.result);
  EXPECT_EQ(whoIs(botIssued.access), std::to_string(pip.id));
  Tokens steam;
  client.GetProvisionalToken(app, AuthenticationExternalAuthType::SteamSessionTicket, "ticket",
                             steam.callback());
  PUMP_UNTIL(steam.done);
  EXPECT_EQ(steam.result.ErrorCode(), 530000) << steam.result.ToString();

  auto const& eve = nextPerson();
  Client linking = makeClient();
  linking.SetApplicationId(app);
  linking.SetOpenUrlCallback(consentAs(eve));
  auto verifier = linking.CreateAuthorizationCodeVerifier();
  AuthorizationArgs args;
  args.SetScopes(Client::GetDefaultCommunicationScopes());
  args.SetCodeChallenge(verifier.Challenge());
  auto authorized = authorize(linking, args);
  ASSERT_OK(authorized.result);
  Tokens merged;
  linking.GetTokenFromProvisionalMerge(app, authorized.code, verifier.Verifier(),
                                       authorized.redirect, AuthenticationExternalAuthType::OIDC,
                                       idToken, merged.callback());
  PUMP_UNTIL(merged.done);
  ASSERT_OK(merged.result);
  EXPECT_EQ(whoIs(merged.access), std::to_string(eve.id));
  EXPECT_EQ(whoIs(provisionalTokens.access), "401");

  Caught unmerged;
  client.UnmergeIntoProvisionalAccount(app, AuthenticationExternalAuthType::OIDC, idToken,
                                       unmerged.callback());
  PUMP_UNTIL(unmerged.done);
  ASSERT_OK(unmerged.result);
  EXPECT_EQ(whoIs(merged.access), "401");
  Tokens again;
  client.GetProvisionalToken(app, AuthenticationExternalAuthType::OIDC, idToken, again.callback());
  PUMP_UNTIL(again.done);
  ASSERT_OK(again.result);
  std::string newId = whoIs(again.access);
  EXPECT_NE(newId, provisionalId);
  EXPECT_NE(newId, std::to_string(eve.id));
  Caught still;
  client.UnmergeIntoProvisionalAccount(app, AuthenticationExternalAuthType::OIDC, idToken,
                                       still.callback());
  PUMP_UNTIL(still.done);
  EXPECT_EQ(still.result.ErrorCode(), 50229);
  EXPECT_EQ(still.result.Status(), 400);
}

TEST(Auth, ChildTokensAfterAnOperatorLinksTheApps) {
  auto const child = world().childApplicationId;
  std::string parent = pkceLogin(nextPerson());
  Client client = makeClient();
  std::string childToken;
  ClientResult result;
  bool done = false;
  auto exchange = [&](std::string const& token) {
    done = false;
    client.ExchangeChildToken(token, child,
                              [&](ClientResult r, std::string access,
                                  platformpp::AuthorizationTokenType, int32_t, std::string) {
                                result = r;
                                childToken = access;
                                secret(access);
                                done = true;
                              });
    return pump([&] { return done; });
  };
  ASSERT_TRUE(exchange(parent));
  EXPECT_EQ(result.ErrorCode(), 10002) << result.ToString();
  auto linked = api("PUT",
                    "/admin/application-links/" + std::to_string(world().applicationId) + "/" +
                        std::to_string(child),
                    "Admin " + world().adminToken);
  ASSERT_LT(linked.status, 300) << linked.body.dump();
  ASSERT_TRUE(exchange(parent));
  ASSERT_OK(result);
  EXPECT_NE(childToken, parent);
  EXPECT_EQ(whoIs(childToken), whoIs(parent));
}

TEST(Auth, DeviceFlowApprovedOnAnotherDeviceAndAborted) {
  auto const& hal = nextPerson();
  platformpp::DeviceAuthorizationArgs args;
  args.SetClientId(world().applicationId);
  args.SetScopes(Client::GetDefaultCommunicationScopes());
  Client client = makeClient();
  int approvals = 0;
  client.SetOpenUrlCallback([&](std::string const& url) {
    std::string userCode = url.substr(url.find("user_code=") + 10);
    auto verified = api("POST", "/oauth2/device/verify", hal.session,
                        Json{{"user_code", userCode}, {"authorize", true}});
    if (verified.status == 200) approvals++;
    return true;
  });
  Tokens tokens;
  client.GetTokenFromDevice(args, tokens.callback());
  ASSERT_TRUE(pump([&] { return tokens.done; }, 30000));
  ASSERT_OK(tokens.result);
  EXPECT_EQ(approvals, 1);
  EXPECT_EQ(whoIs(tokens.access), std::to_string(hal.id));

  Client waiting = makeClient();
  bool shown = false;
  waiting.SetOpenUrlCallback([&](std::string const&) { return shown = true; });
  Tokens pending;
  waiting.GetTokenFromDevice(args, pending.callback());
  PUMP_UNTIL(shown);
  waiting.AbortGetTokenFromDevice();
  PUMP_UNTIL(pending.done);
  EXPECT_EQ(pending.result.Type(), ErrorType::Aborted);
}

}  // namespace
