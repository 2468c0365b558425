// Refusals: the HTTP timeout (SetHttpRequestTimeout) against a server that never answers, the
// platform's error codes in ClientResult, arguments refused before any request, operations that
// need Ready, and voice, which the native SDK does not have.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "support.h"

namespace {

using namespace pptest;
using platformpp::ErrorType;

/// A TCP listener that accepts connections and never answers.
struct Silent {
  int fd = -1;
  int port = 0;
  Silent() {
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address));
    ::listen(fd, 8);
    socklen_t length = sizeof(address);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    port = ntohs(address.sin_port);
  }
  ~Silent() { ::close(fd); }
};

TEST(Refusals, AnHttpRequestWithoutAnswerEndsAtTheTimeout) {
  Silent silent;
  platformpp::ClientCreateOptions options;
  options.SetApiBase("http://127.0.0.1:" + std::to_string(silent.port) + "/api/v10");
  Client client = makeClient(options);
  client.SetHttpRequestTimeout(300);
  bool done = false;
  ClientResult result;
  client.GetProvisionalToken(world().applicationId,
                             platformpp::AuthenticationExternalAuthType::OIDC, "an-id-token",
                             [&](ClientResult r, std::string, std::string,
                                 platformpp::AuthorizationTokenType, int32_t, std::string) {
                               result = r;
                               done = true;
                             });
  PUMP_UNTIL(done);
  EXPECT_EQ(result.Type(), ErrorType::NetworkError);
  EXPECT_TRUE(result.Retryable());
  EXPECT_EQ(result.Status(), 0);
  EXPECT_NE(result.Error().find("got no answer within 300 ms (SetHttpRequestTimeout)"),
            std::string::npos)
      << result.Error();
}

TEST(Refusals, ThePlatformsCodesReachTheResult) {
  auto ada = provisional("Ada");
  Client a = readyClient(ada.token);
  bool done = false;
  ClientResult result;
  a.SendUserMessage(42, "hello?", [&](ClientResult r, uint64_t) {
    result = r;
    done = true;
  });
  PUMP_UNTIL(done);
  EXPECT_FALSE(result.Successful());
  EXPECT_EQ(result.Type(), ErrorType::HTTPError);
  EXPECT_EQ(result.Status(), 404);
  EXPECT_EQ(result.ErrorCode(), 10013);
  EXPECT_NE(result.ResponseBody().find("10013"), std::string::npos);
  // A forged bot-issued token: 403 with the platform's 50025.
  done = false;
  a.GetProvisionalToken(world().applicationId,
                        platformpp::AuthenticationExternalAuthType::DiscordBotIssuedAccessToken,
                        "not-a-token-of-this-app",
                        [&](ClientResult r, std::string, std::string,
                            platformpp::AuthorizationTokenType, int32_t, std::string) {
                          result = r;
                          done = true;
                        });
  PUMP_UNTIL(done);
  EXPECT_EQ(result.Status(), 403);
  EXPECT_EQ(result.ErrorCode(), 50025);
}

TEST(Refusals, BadArgumentsAndAClientNotReadyAreRefusedBeforeAnyRequest) {
  auto ada = provisional("Ada");
  Client idle = makeClient();
  Caught notReady;
  idle.LeaveLobby(1, notReady.callback());
  std::vector<std::pair<std::string, ClientResult>> results;
  auto keep = [&](std::string what) {
    return [&results, what](ClientResult r, auto...) { results.emplace_back(what, r); };
  };
  Client a = readyClient(ada.token);
  a.SendUserMessage(0, "hi", keep("recipient 0"));
  a.SendUserMessage(7, "   ", keep("blank content"));
  a.SendUserMessage(7, std::string(2001, 'x'), keep("content too long"));
  a.GetUserMessagesWithLimit(7, 0, keep("limit 0"));
  a.GetLobbyMessagesWithLimit(7, 201, keep("limit 201"));
  a.CreateOrJoinLobby("", keep("empty secret"));
  platformpp::Activity tooLong;
  tooLong.SetState(std::string(129, 's'));
  a.UpdateRichPresence(tooLong, keep("state too long"));
  platformpp::Activity badButton;
  platformpp::ActivityButton button;
  button.SetLabel("Join");
  button.SetUrl("ftp://example.test");
  badButton.AddButton(button);
  a.UpdateRichPresence(badButton, keep("button url"));
  a.SetOnlineStatus(platformpp::StatusType::Blocked, keep("status Blocked"));
  a.SendActivityInvite(7, "come", keep("invite without a party"));
  a.UpdateToken(platformpp::AuthorizationTokenType::Bearer, "", keep("empty token"));
  platformpp::AuthorizationArgs noScopes;
  a.Authorize(noScopes, keep("no scopes"));
  PUMP_UNTIL(results.size() == 12 && notReady.done);
  for (auto const& [what, result] : results) {
    EXPECT_EQ(result.Type(), ErrorType::ValidationError) << what << ": " << result.ToString();
    EXPECT_FALSE(result.Error().empty()) << what;
  }
  EXPECT_EQ(notReady.result.Type(), ErrorType::ClientNotReady);
  EXPECT_NE(notReady.result.Error().find("Connect()"), std::string::npos);
}

TEST(Refusals, VoiceIsNotAvailableInTheNativeSdk) {
  Client client = makeClient();
  std::vector<std::string> errors;
  client.AddLogCallback([&](std::string line, platformpp::LoggingSeverity) { errors.push_back(line); },
                        platformpp::LoggingSeverity::Error);
  platformpp::Call call = client.StartCall(1);
  EXPECT_FALSE(call);
  EXPECT_EQ(call.GetStatus(), platformpp::Call::Status::Disconnected);
  EXPECT_FALSE(client.GetVoiceSettings());
  EXPECT_TRUE(client.GetCalls().empty());
  Caught ended;
  client.EndCall(1, ended.callback());
  Caught speaker;
  client.SetSpeakerMode(true, speaker.callback());
  PUMP_UNTIL(ended.done && speaker.done && !errors.empty());
  for (auto const& result : {ended.result, speaker.result}) {
    EXPECT_EQ(result.Type(), ErrorType::Disabled);
    EXPECT_NE(result.Error().find("voice is not available in the native SDK"), std::string::npos);
  }
  EXPECT_NE(errors.front().find("StartCall: voice is not available in the native SDK"),
            std::string::npos);
}

}  // namespace
