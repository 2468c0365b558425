// A player's messages and the platform's web client against a real Guildhall: the disclosure the
// client injects once, the first time the player's message will show in the web client (a DM
// with a full account; not an unlinked lobby, not a DM between two provisional accounts), and a
// DM opened in the web client (a full account's; a provisional player is asked to link first).
#include "support.h"

namespace {

using namespace pptest;
using platformpp::DisclosureTypes;
using platformpp::ErrorType;

/// `a` and `b` become friends in this game (the platform's routes, before their clients start).
void befriend(Player const& a, std::string const& bToken, uint64_t bId) {
  auto asked = api("PUT", "/users/@me/game-relationships/" + std::to_string(bId),
                   "Bearer " + a.token, Json::object());
  ASSERT_LT(asked.status, 300) << asked.body.dump();
  auto accepted = api("PUT", "/users/@me/game-relationships/" + std::to_string(a.id),
                      "Bearer " + bToken, Json::object());
  ASSERT_LT(accepted.status, 300) << accepted.body.dump();
}

/// Sends a DM and waits for its id.
uint64_t sendDm(Client& client, uint64_t to, std::string const& content) {
  uint64_t id = 0;
  bool done = false;
  client.SendUserMessage(to, content, [&](ClientResult r, uint64_t sent) {
    EXPECT_OK(r);
    id = sent;
    done = true;
  });
  EXPECT_TRUE(pump([&] { return done; }));
  return id;
}

TEST(MessageLinks, TheDisclosureOnceAndADmOpenedInTheWebClient) {
  auto ada = provisional("Ada");
  auto cat = provisional("Cat");
  std::string bobToken = pkceLogin(nextPerson());
  auto bobMe = api("GET", "/users/@me", "Bearer " + bobToken);
  uint64_t bobId = std::stoull(bobMe.body.at("id").get<std::string>());
  befriend(ada, bobToken, bobId);
  befriend(ada, cat.token, cat.id);
  Client a = readyClient(ada.token);
  std::vector<uint64_t> heard;
  a.SetMessageCreatedCallback([&](uint64_t id) { heard.push_back(id); });
  auto disclosures = [&] {
    std::vector<uint64_t> found;
    for (uint64_t id : heard) {
      auto handle = a.GetMessageHandle(id);
      if (handle && handle->DisclosureType() == DisclosureTypes::MessageDataVisibleOnDiscord) {
        found.push_back(id);
      }
    }
    return found;
  };

  // An unlinked lobby and a DM between two provisional players stay in the game: none.
  uint64_t lobbyId = 0;
  a.CreateOrJoinLobby(unique("quiet-room"), [&](ClientResult r, uint64_t id) {
    EXPECT_OK(r);
    lobbyId = id;
  });
  PUMP_UNTIL(lobbyId != 0);
  uint64_t inLobby = 0;
  a.SendLobbyMessage(lobbyId, "here", [&](ClientResult r, uint64_t id) {
    EXPECT_OK(r);
    inLobby = id;
  });
  PUMP_UNTIL(inLobby != 0);
  uint64_t toCat = sendDm(a, cat.id, "psst");
  EXPECT_FALSE(a.GetMessageHandle(toCat)->DisclosureType().has_value());
  EXPECT_FALSE(a.GetMessageHandle(inLobby)->DisclosureType().has_value());
  EXPECT_TRUE(disclosures().empty());

  // A DM with a full account shows in the web client: the disclosure comes in that DM, once.
  uint64_t toBob = sendDm(a, bobId, "hello there");
  PUMP_UNTIL(disclosures().size() == 1);
  auto disclosure = a.GetMessageHandle(disclosures().front());
  ASSERT_TRUE(disclosure.has_value());
  EXPECT_NE(disclosure->Content().find("also visible"), std::string::npos) << disclosure->Content();
  EXPECT_EQ(disclosure->ChannelId(), a.GetMessageHandle(toBob)->ChannelId());
  EXPECT_EQ(disclosure->AuthorId(), ada.id);
  EXPECT_FALSE(a.GetMessageHandle(toBob)->DisclosureType().has_value());
  sendDm(a, bobId, "again");
  EXPECT_EQ(disclosures().size(), 1U);

  // What the web client can show: DMs, not lobby messages nor unknown ones.
  PUMP_UNTIL(a.CanOpenMessageInDiscord(toBob));
  EXPECT_FALSE(a.CanOpenMessageInDiscord(inLobby));
  EXPECT_FALSE(a.CanOpenMessageInDiscord(123));
  Caught lobbyRefused;
  a.OpenMessageInDiscord(inLobby, nullptr, lobbyRefused.callback());
  PUMP_UNTIL(lobbyRefused.done);
  EXPECT_EQ(lobbyRefused.result.Type(), ErrorType::ValidationError);
  // A provisional player: the merge callback, and a refusal.
  int mergeAsked = 0;
  Caught provisionalRefused;
  a.OpenMessageInDiscord(toBob, [&] { mergeAsked++; }, provisionalRefused.callback());
  PUMP_UNTIL(provisionalRefused.done);
  EXPECT_FALSE(provisionalRefused.result.Successful());
  EXPECT_EQ(mergeAsked, 1);

  // Bob's own account opens his DM in the web client, at the message.
  Client b = readyClient(bobToken);
  std::vector<std::string> opened;
  b.SetOpenUrlCallback([&](std::string const& url) {
    opened.push_back(url);
    return true;
  });
  uint64_t toAda = sendDm(b, ada.id, "see you there");
  PUMP_UNTIL(b.CanOpenMessageInDiscord(toAda));
  Caught openedResult;
  b.OpenMessageInDiscord(toAda, nullptr, openedResult.callback());
  PUMP_UNTIL(openedResult.done);
  ASSERT_OK(openedResult.result);
  std::string origin = world().apiBase.substr(0, world().apiBase.find("/api/"));
  ASSERT_EQ(opened.size(), 1U);
  EXPECT_EQ(opened.front(), origin + "/channels/@me/" +
                                std::to_string(b.GetMessageHandle(toAda)->ChannelId()) + "/" +
                                std::to_string(toAda));
}

}  // namespace
