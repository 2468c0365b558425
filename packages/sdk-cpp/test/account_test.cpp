// A player's account upkeep against a real Guildhall: a provisional account renames itself
// (a full account's token keeps the platform's refusal), and the token expiration callback runs
// once for a token about to expire or refused, not for a fresh one.
#include <regex>

#include "support.h"

namespace {

using namespace pptest;
using platformpp::AuthorizationTokenType;

/// The newest "the expiration callback runs in N s" log line's N, or -1.
int64_t armedSeconds() {
  static std::regex const armed("the expiration callback runs in (\\d+) s");
  auto const& lines = logLines();
  for (auto line = lines.rbegin(); line != lines.rend(); ++line) {
    std::smatch match;
    if (std::regex_search(*line, match, armed)) return std::stoll(match[1].str());
  }
  return -1;
}

TEST(Account, AProvisionalAccountRenamesItselfAFullOneIsRefused) {
  auto player = provisional("Before");
  Client client = readyClient(player.token);
  Caught renamed;
  client.UpdateProvisionalAccountDisplayName("After", renamed.callback());
  PUMP_UNTIL(renamed.done);
  ASSERT_OK(renamed.result);
  EXPECT_EQ(client.GetCurrentUserV2()->DisplayName(), "After") << "shown at once";
  auto me = api("GET", "/users/@me", "Bearer " + player.token);
  EXPECT_EQ(me.body.value("global_name", ""), "After");

  Caught empty;
  client.UpdateProvisionalAccountDisplayName("", empty.callback());
  PUMP_UNTIL(empty.done);
  EXPECT_EQ(empty.result.Type(), platformpp::ErrorType::ValidationError) << empty.result.ToString();

  Client person = makeClient();
  Caught updated;
  person.UpdateToken(AuthorizationTokenType::Bearer, pkceLogin(nextPerson()), updated.callback());
  Caught refused;
  person.UpdateProvisionalAccountDisplayName("Mine", refused.callback());
  PUMP_UNTIL(refused.done);
  EXPECT_EQ(refused.result.ErrorCode(), 530010) << refused.result.ToString();
  EXPECT_EQ(refused.result.Status(), 400);
}

TEST(Account, TheTokenExpirationCallbackRunsOncePerTokenAboutToExpireOrRefused) {
  auto fresh = provisional("Fresh");
  secret(world().expiringToken);
  Client client = makeClient();
  int expired = 0;
  client.SetTokenExpirationCallback([&] { expired++; });
  Caught updated;
  client.UpdateToken(AuthorizationTokenType::Bearer, fresh.token, updated.callback());
  // The fresh token's notice is armed days from now: nothing yet.
  PUMP_UNTIL(armedSeconds() >= 0);
  EXPECT_GT(armedSeconds(), 6 * 24 * 3600) << "a fresh token lives 7 days";
  EXPECT_EQ(expired, 0);

  client.UpdateToken(AuthorizationTokenType::Bearer, world().expiringToken, updated.callback());
  PUMP_UNTIL(expired == 1);
  client.UpdateToken(AuthorizationTokenType::Bearer, "not-a-token", updated.callback());
  PUMP_UNTIL(expired == 2);
  // An empty callback stops the notices.
  client.SetTokenExpirationCallback(nullptr);
  client.UpdateToken(AuthorizationTokenType::Bearer, world().expiringToken, updated.callback());
  settle(500);
  EXPECT_EQ(expired, 2);
}

}  // namespace
