// What the native tests share: the world the vitest harness started (PLATFORMPP_TEST_WORLD), a
// synchronous HTTP client for the test's own requests (minting players, consenting as a person),
// clients that reach Ready, waiting while RunCallbacks runs, and the log every client writes to
// (checked at the end for tokens).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "platformpp.h"

namespace pptest {

using Json = nlohmann::json;
using platformpp::Client;
using platformpp::ClientResult;

struct Person {
  uint64_t id = 0;
  std::string session;
};

struct World {
  std::string apiBase;
  uint64_t applicationId = 0;
  std::string botToken;
  std::string adminToken;
  uint64_t childApplicationId = 0;
  /// An application of the developer with no link to the game until a test makes one.
  uint64_t parentApplicationId = 0;
  /// People registered for this run (a session each), used once each.
  std::vector<Person> people;
  /// OpenID Connect ID tokens of the app's identity provider, one subject each.
  std::vector<std::string> idTokens;
  /// The TCP proxy in front of the gateway: POST {proxyControl}/cut and /restore.
  std::string proxyControl;
  std::string rulesFixture;
  /// A provisional account's token that expires within the SDK's 5-minute notice.
  std::string expiringToken;
};

World const& world();
/// The next unused person of the world.
Person const& nextPerson();
/// The next unused OIDC ID token of the world.
std::string const& nextIdToken();

struct Answer {
  long status = 0;
  Json body;
};
/// A request to the API as someone ("Bot …", "Bearer …", a session token, or nobody).
Answer api(std::string const& method, std::string const& path, std::string const& auth = "",
           Json const& body = nullptr);
/// A GET of any URL (the loopback redirect).
long fetch(std::string const& url);
void cutProxy();
void restoreProxy();

struct Player {
  uint64_t id = 0;
  std::string token;
};
/// A provisional account minted by the app's bot (POST /partner-sdk/token/bot).
Player provisional(std::string const& name);
/// A name no other run used.
std::string unique(std::string const& base);

/// Runs RunCallbacks until `done` holds (false after `timeoutMs`).
bool pump(std::function<bool()> const& done, int timeoutMs = 10000);
/// Runs RunCallbacks for a while (to show that something does not happen).
void settle(int ms);

/// Every log line of every client made through these helpers.
std::vector<std::string>& logLines();
/// The newest log lines, to show with a failure.
std::string lastLogLines(size_t count = 20);
/// A value that must never appear in a log line.
void secret(std::string const& value);
/// Adds the shared log collector (Verbose and up) to a client.
void collectLogs(Client& client);
/// A client for the world's API with its log collected.
Client makeClient(platformpp::ClientCreateOptions options = {});
/// A client with a token, connected and Ready (fails the test otherwise).
Client readyClient(std::string const& token, platformpp::ClientCreateOptions options = {});

/// An opener that does a person's part of the authorize page over HTTP: the consent decision
/// (POST /api/v10/oauth2/authorize), then the redirect fetched on the SDK's listener.
Client::OpenUrlCallback consentAs(Person const& person, bool approve = true);
/// A person logs in through Authorize (PKCE) and GetToken: their access token.
std::string pkceLogin(Person const& person);

/// A result caught from a callback, and whether it came.
struct Caught {
  bool done = false;
  ClientResult result;
  Client::ResultCallback callback() {
    return [this](ClientResult r) {
      result = r;
      done = true;
    };
  }
};

}  // namespace pptest

#define PUMP_UNTIL(condition)                                                           \
  ASSERT_TRUE(pptest::pump([&] { return (condition); })) << #condition << "\nlast log lines:\n" \
                                                         << pptest::lastLogLines()
#define EXPECT_OK(result) EXPECT_TRUE((result).Successful()) << (result).ToString()
#define ASSERT_OK(result) ASSERT_TRUE((result).Successful()) << (result).ToString()
