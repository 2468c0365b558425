// The connection against a real Guildhall: the status machine to Ready with zlib-stream and with
// plain JSON, a connect without a token, and reconnecting with RESUME after the gateway's socket
// is cut (a TCP proxy in front of the gateway, run by the harness).
#include "support.h"

namespace {

using namespace pptest;
using platformpp::ClientCreateOptions;

bool logged(std::string const& text) {
  for (auto const& line : logLines()) {
    if (line.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(Connection, GoesConnectingConnectedReadyOverZlibStream) {
  auto ada = provisional("Ada");
  Client client = makeClient();
  std::vector<Client::Status> seen;
  client.SetStatusChangedCallback(
      [&](Client::Status status, Client::Error, int32_t) { seen.push_back(status); });
  EXPECT_EQ(client.GetStatus(), Client::Status::Disconnected);
  EXPECT_FALSE(client.IsAuthenticated());
  Caught updated;
  client.UpdateToken(platformpp::AuthorizationTokenType::Bearer, ada.token, updated.callback());
  client.Connect();
  PUMP_UNTIL(client.GetStatus() == Client::Status::Ready);
  EXPECT_TRUE(updated.done && updated.result.Successful());
  EXPECT_TRUE(client.IsAuthenticated());
  EXPECT_EQ(seen, (std::vector<Client::Status>{Client::Status::Connecting,
                                               Client::Status::Connected, Client::Status::Ready}));
  EXPECT_EQ(client.GetApplicationId(), world().applicationId);
  auto me = client.GetCurrentUserV2();
  ASSERT_TRUE(me.has_value());
  EXPECT_EQ(me->Id(), ada.id);
  EXPECT_EQ(me->DisplayName(), "Ada");
  EXPECT_TRUE(me->IsProvisional());
  EXPECT_TRUE(logged("compress=zlib-stream"));
  EXPECT_TRUE(logged("Status: Ready"));
  client.Disconnect();
  PUMP_UNTIL(client.GetStatus() == Client::Status::Disconnected);
  EXPECT_EQ(seen.back(), Client::Status::Disconnected);
}

TEST(Connection, PlainJsonGatewayCarriesDispatches) {
  auto ada = provisional("Ada");
  auto bob = provisional("Bob");
  ClientCreateOptions plain;
  plain.SetGatewayCompression(false);
  Client a = readyClient(ada.token, plain);
  std::vector<uint64_t> created;
  a.SetRelationshipCreatedCallback([&](uint64_t id, bool) { created.push_back(id); });
  auto sent = api("PUT", "/users/@me/game-relationships/" + std::to_string(ada.id),
                  "Bearer " + bob.token, Json::object());
  ASSERT_EQ(sent.status, 204) << sent.body.dump();
  PUMP_UNTIL(!created.empty());
  EXPECT_EQ(created.front(), bob.id);
  EXPECT_EQ(a.GetRelationshipHandle(bob.id).GameRelationshipType(),
            platformpp::RelationshipType::PendingIncoming);
  bool plainUrl = false;
  for (auto const& line : logLines()) {
    if (line.find("Gateway URL:") != std::string::npos &&
        line.find("compress=") == std::string::npos) {
      plainUrl = true;
    }
  }
  EXPECT_TRUE(plainUrl);
}

TEST(Connection, WithoutATokenEndsDisconnectedSayingWhatToDo) {
  Client client = makeClient();
  Client::Error error = Client::Error::None;
  client.SetStatusChangedCallback([&](Client::Status, Client::Error e, int32_t) { error = e; });
  std::vector<std::string> errors;
  client.AddLogCallback([&](std::string line, platformpp::LoggingSeverity) { errors.push_back(line); },
                        platformpp::LoggingSeverity::Error);
  client.Connect();
  PUMP_UNTIL(error == Client::Error::ConnectionFailed);
  EXPECT_EQ(client.GetStatus(), Client::Status::Disconnected);
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors.front(), "Connect() needs a token: call UpdateToken() first.");
}

TEST(Connection, ResumesAfterACutSocketAndReceivesWhatItMissed) {
  auto ada = provisional("Ada");
  auto bob = provisional("Bob");
  for (auto const& [from, to] : {std::pair{ada, bob}, std::pair{bob, ada}}) {
    auto made = api("PUT", "/users/@me/game-relationships/" + std::to_string(to.id),
                    "Bearer " + from.token, Json::object());
    ASSERT_EQ(made.status, 204) << made.body.dump();
  }
  Client a = readyClient(ada.token);
  std::vector<Client::Status> seen;
  a.SetStatusChangedCallback(
      [&](Client::Status status, Client::Error, int32_t) { seen.push_back(status); });
  std::vector<std::string> received;
  a.SetMessageCreatedCallback([&](uint64_t id) {
    if (auto message = a.GetMessageHandle(id)) received.push_back(message->Content());
  });
  cutProxy();
  PUMP_UNTIL(a.GetStatus() == Client::Status::Reconnecting);
  // Sent while Ada's gateway connection is down: the RESUME replays it.
  auto sent = api("POST", "/users/" + std::to_string(ada.id) + "/messages", "Bearer " + bob.token,
                  Json{{"content", "sent while you were away"}});
  ASSERT_EQ(sent.status, 200) << sent.body.dump();
  restoreProxy();
  PUMP_UNTIL(a.GetStatus() == Client::Status::Ready);
  PUMP_UNTIL(!received.empty());
  EXPECT_EQ(received.front(), "sent while you were away");
  EXPECT_TRUE(logged("Resumed the gateway session."));
  // The same session: the player's lobbies, friends and caches were kept, not rebuilt.
  EXPECT_EQ(a.GetRelationshipHandle(bob.id).GameRelationshipType(),
            platformpp::RelationshipType::Friend);
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.front(), Client::Status::Reconnecting);
}

}  // namespace
