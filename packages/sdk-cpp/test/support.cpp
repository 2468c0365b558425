#include "support.h"

#include <curl/curl.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <random>
#include <thread>

namespace pptest {

namespace {

World loadWorld() {
  char const* text = std::getenv("PLATFORMPP_TEST_WORLD");
  if (text == nullptr) {
    std::fprintf(stderr,
                 "PLATFORMPP_TEST_WORLD is not set: run the suite through "
                 "`npx vitest run packages/sdk-cpp/test/native.test.ts`, which starts the server.\n");
    std::exit(2);
  }
  Json json = Json::parse(text);
  World w;
  w.apiBase = json.at("apiBase").get<std::string>();
  w.applicationId = std::stoull(json.at("applicationId").get<std::string>());
  w.botToken = json.at("botToken").get<std::string>();
  w.adminToken = json.at("adminToken").get<std::string>();
  w.childApplicationId = std::stoull(json.at("childApplicationId").get<std::string>());
  w.parentApplicationId = std::stoull(json.at("parentApplicationId").get<std::string>());
  for (auto const& person : json.at("people")) {
    w.people.push_back({std::stoull(person.at("id").get<std::string>()),
                        person.at("session").get<std::string>()});
  }
  for (auto const& token : json.at("idTokens")) w.idTokens.push_back(token.get<std::string>());
  w.proxyControl = json.at("proxyControl").get<std::string>();
  w.rulesFixture = json.at("rulesFixture").get<std::string>();
  w.expiringToken = json.at("expiringToken").get<std::string>();
  return w;
}

size_t onBody(char* data, size_t size, size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

long request(std::string const& method, std::string const& url, std::string const& auth,
             std::string const* body, std::string& answer) {
  CURL* easy = curl_easy_init();
  curl_slist* headers = nullptr;
  if (!auth.empty()) headers = curl_slist_append(headers, ("Authorization: " + auth).c_str());
  if (body != nullptr) headers = curl_slist_append(headers, "Content-Type: application/json");
  curl_easy_setopt(easy, CURLOPT_URL, url.c_str());
  curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, method.c_str());
  curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
  if (body != nullptr) {
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE, static_cast<long>(body->size()));
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, body->c_str());
  }
  curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, onBody);
  curl_easy_setopt(easy, CURLOPT_WRITEDATA, &answer);
  curl_easy_setopt(easy, CURLOPT_TIMEOUT, 20L);
  CURLcode code = curl_easy_perform(easy);
  long status = 0;
  curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
  curl_slist_free_all(headers);
  curl_easy_cleanup(easy);
  return code == CURLE_OK ? status : -1;
}

std::mutex logMutex;
std::vector<std::string> secrets;

/// At the end of the run: no token of any kind reached any client's log line.
class NoTokensInLogs : public ::testing::Environment {
 public:
  void TearDown() override {
    std::lock_guard lock(logMutex);
    EXPECT_FALSE(logLines().empty()) << "the clients logged nothing";
    for (auto const& line : logLines()) {
      for (auto const& value : secrets) {
        EXPECT_EQ(line.find(value), std::string::npos) << "a token reached a log line: " << line;
      }
    }
  }
};

[[maybe_unused]] auto* const registered =
    ::testing::AddGlobalTestEnvironment(new NoTokensInLogs);

}  // namespace

World const& world() {
  static World const instance = loadWorld();
  return instance;
}

Person const& nextPerson() {
  static std::atomic<size_t> next{0};
  size_t index = next++;
  if (index >= world().people.size()) {
    std::fprintf(stderr, "the world has only %zu people\n", world().people.size());
    std::abort();
  }
  secret(world().people[index].session);
  return world().people[index];
}

std::string const& nextIdToken() {
  static std::atomic<size_t> next{0};
  size_t index = next++;
  if (index >= world().idTokens.size()) std::abort();
  secret(world().idTokens[index]);
  return world().idTokens[index];
}

Answer api(std::string const& method, std::string const& path, std::string const& auth,
           Json const& body) {
  std::string text;
  std::string payload = body.is_null() ? "" : body.dump();
  Answer answer;
  answer.status =
      request(method, world().apiBase + path, auth, body.is_null() ? nullptr : &payload, text);
  answer.body = text.empty() ? Json() : Json::parse(text, nullptr, false);
  return answer;
}

long fetch(std::string const& url) {
  std::string ignored;
  return request("GET", url, "", nullptr, ignored);
}

void cutProxy() {
  std::string ignored;
  std::string none = "{}";
  ASSERT_EQ(request("POST", world().proxyControl + "/cut", "", &none, ignored), 204);
}

void restoreProxy() {
  std::string ignored;
  std::string none = "{}";
  ASSERT_EQ(request("POST", world().proxyControl + "/restore", "", &none, ignored), 204);
}

std::string unique(std::string const& base) {
  static std::mt19937_64 random{std::random_device{}()};
  return base + "-" + std::to_string(random() % 1000000000);
}

Player provisional(std::string const& name) {
  auto minted = api("POST", "/partner-sdk/token/bot", "Bot " + world().botToken,
                    Json{{"external_user_id", unique("player-" + name)},
                         {"preferred_global_name", name}});
  if (minted.status != 200) {
    ADD_FAILURE() << "minting " << name << ": " << minted.status << " " << minted.body.dump();
    return {};
  }
  Player player;
  player.token = minted.body.at("access_token").get<std::string>();
  secret(player.token);
  auto me = api("GET", "/users/@me", "Bearer " + player.token);
  player.id = std::stoull(me.body.at("id").get<std::string>());
  return player;
}

bool pump(std::function<bool()> const& done, int timeoutMs) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
  for (;;) {
    platformpp::RunCallbacks();
    if (done()) return true;
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void settle(int ms) {
  pump([] { return false; }, ms);
}

std::vector<std::string>& logLines() {
  static std::vector<std::string> lines;
  return lines;
}

std::string lastLogLines(size_t count) {
  std::lock_guard lock(logMutex);
  auto const& lines = logLines();
  std::string out;
  for (size_t i = lines.size() > count ? lines.size() - count : 0; i < lines.size(); ++i) {
    out += "  " + lines[i] + "\n";
  }
  return out;
}

void secret(std::string const& value) {
  std::lock_guard lock(logMutex);
  if (value.size() >= 8) secrets.push_back(value);
}

void collectLogs(Client& client) {
  client.AddLogCallback(
      [](std::string line, platformpp::LoggingSeverity) {
        std::lock_guard lock(logMutex);
        logLines().push_back(std::move(line));
      },
      platformpp::LoggingSeverity::Verbose);
}

Client makeClient(platformpp::ClientCreateOptions options) {
  if (options.ApiBase() == platformpp::ClientCreateOptions().ApiBase()) {
    options.SetApiBase(world().apiBase);
  }
  Client client(options);
  collectLogs(client);
  return client;
}

Client readyClient(std::string const& token, platformpp::ClientCreateOptions options) {
  Client client = makeClient(std::move(options));
  Caught updated;
  client.UpdateToken(platformpp::AuthorizationTokenType::Bearer, token, updated.callback());
  client.Connect();
  bool ready = pump([&] { return client.GetStatus() == Client::Status::Ready; });
  EXPECT_TRUE(ready) << "not Ready: " << Client::StatusToString(client.GetStatus())
                     << "; the last log lines:\n" << lastLogLines();
  EXPECT_TRUE(updated.done && updated.result.Successful());
  return client;
}

Client::OpenUrlCallback consentAs(Person const& person, bool approve) {
  std::string session = person.session;
  return [session, approve](std::string const& url) {
    Json decision = Json::object();
    auto mark = url.find('?');
    std::string query = mark == std::string::npos ? "" : url.substr(mark + 1);
    for (size_t at = 0; at <= query.size();) {
      size_t amp = query.find('&', at);
      std::string pair = query.substr(at, amp == std::string::npos ? std::string::npos : amp - at);
      size_t eq = pair.find('=');
      int length = 0;
      char* key = curl_easy_unescape(nullptr, pair.substr(0, eq).c_str(), 0, &length);
      char* value = curl_easy_unescape(
          nullptr, eq == std::string::npos ? "" : pair.substr(eq + 1).c_str(), 0, &length);
      decision[key] = value;
      curl_free(key);
      curl_free(value);
      if (amp == std::string::npos) break;
      at = amp + 1;
    }
    decision["authorize"] = approve;
    auto decided = api("POST", "/oauth2/authorize", session, decision);
    if (decided.status != 200) {
      ADD_FAILURE() << "consent: " << decided.status << " " << decided.body.dump();
      return false;
    }
    return fetch(decided.body.at("location").get<std::string>()) > 0;
  };
}

std::string pkceLogin(Person const& person) {
  Client client = makeClient();
  client.SetApplicationId(world().applicationId);
  client.SetOpenUrlCallback(consentAs(person));
  auto verifier = client.CreateAuthorizationCodeVerifier();
  secret(verifier.Verifier());
  platformpp::AuthorizationArgs args;
  args.SetScopes(Client::GetDefaultCommunicationScopes());
  args.SetCodeChallenge(verifier.Challenge());
  bool authorized = false;
  std::string code;
  std::string redirect;
  client.Authorize(args, [&](ClientResult result, std::string c, std::string r) {
    EXPECT_TRUE(result.Successful()) << result.ToString();
    code = c;
    redirect = r;
    secret(c);
    authorized = true;
  });
  if (!pump([&] { return authorized; })) ADD_FAILURE() << "Authorize did not finish";
  std::string token;
  bool exchanged = false;
  client.GetToken(world().applicationId, code, verifier.Verifier(), redirect,
                  [&](ClientResult result, std::string access, std::string refresh,
                      platformpp::AuthorizationTokenType, int32_t, std::string) {
                    EXPECT_TRUE(result.Successful()) << result.ToString();
                    token = access;
                    secret(access);
                    secret(refresh);
                    exchanged = true;
                  });
  if (!pump([&] { return exchanged; })) ADD_FAILURE() << "GetToken did not finish";
  return token;
}

}  // namespace pptest
