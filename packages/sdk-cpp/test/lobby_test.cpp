// Lobbies against a real Guildhall: two players join one lobby by its secret (with metadata),
// exchange lobby messages, read the history, and one leaves; the user's guilds.
#include "support.h"

namespace {

using namespace pptest;

TEST(Lobbies, JoinBySecretTalkAndLeave) {
  auto ada = provisional("Ada");
  auto bob = provisional("Bob");
  Client a = readyClient(ada.token);
  Client b = readyClient(bob.token);
  std::string secretText = unique("lobby-secret");
  std::vector<uint64_t> aCreatedLobbies;
  std::vector<std::pair<uint64_t, uint64_t>> aMembersAdded;
  std::vector<std::pair<uint64_t, uint64_t>> aMembersRemoved;
  a.SetLobbyCreatedCallback([&](uint64_t id) { aCreatedLobbies.push_back(id); });
  a.SetLobbyMemberAddedCallback([&](uint64_t l, uint64_t m) { aMembersAdded.emplace_back(l, m); });
  a.SetLobbyMemberRemovedCallback([&](uint64_t l, uint64_t m) { aMembersRemoved.emplace_back(l, m); });

  uint64_t lobbyId = 0;
  bool created = false;
  a.CreateOrJoinLobbyWithMetadata(secretText, {{"mode", "capture the flag"}}, {{"team", "red"}},
                                  [&](ClientResult r, uint64_t id) {
                                    EXPECT_OK(r);
                                    lobbyId = id;
                                    created = true;
                                  });
  PUMP_UNTIL(created && lobbyId != 0);
  PUMP_UNTIL(!aCreatedLobbies.empty());
  EXPECT_EQ(aCreatedLobbies.front(), lobbyId);
  auto lobby = a.GetLobbyHandle(lobbyId);
  ASSERT_TRUE(lobby.has_value());
  EXPECT_EQ(lobby->Metadata().at("mode"), "capture the flag");
  EXPECT_EQ(lobby->GetLobbyMemberHandle(ada.id)->Metadata().at("team"), "red");

  uint64_t joined = 0;
  b.CreateOrJoinLobby(secretText, [&](ClientResult r, uint64_t id) {
    EXPECT_OK(r);
    joined = id;
  });
  PUMP_UNTIL(joined != 0);
  EXPECT_EQ(joined, lobbyId) << "the same secret is the same lobby";
  PUMP_UNTIL(!aMembersAdded.empty());
  EXPECT_EQ(aMembersAdded.back(), std::make_pair(lobbyId, bob.id));
  auto members = a.GetLobbyHandle(lobbyId)->LobbyMemberIds();
  EXPECT_EQ(members.size(), 2U);

  std::vector<std::string> aHeard;
  std::vector<std::string> bHeard;
  a.SetMessageCreatedCallback([&](uint64_t id) {
    auto m = a.GetMessageHandle(id);
    if (m && m->Lobby() && m->AuthorId() == bob.id) aHeard.push_back(m->Content());
  });
  b.SetMessageCreatedCallback([&](uint64_t id) {
    auto m = b.GetMessageHandle(id);
    if (m && m->Lobby() && m->AuthorId() == ada.id) bHeard.push_back(m->Content());
  });
  bool sent = false;
  a.SendLobbyMessage(lobbyId, "ready?", [&](ClientResult r, uint64_t) {
    EXPECT_OK(r);
    sent = true;
  });
  PUMP_UNTIL(sent && !bHeard.empty());
  EXPECT_EQ(bHeard.front(), "ready?");
  b.SendLobbyMessageWithMetadata(lobbyId, "ready!", {{"ping", "1"}},
                                 [&](ClientResult r, uint64_t) { EXPECT_OK(r); });
  PUMP_UNTIL(!aHeard.empty());
  EXPECT_EQ(aHeard.front(), "ready!");

  std::vector<platformpp::MessageHandle> history;
  bool read = false;
  b.GetLobbyMessagesWithLimit(lobbyId, 10, [&](ClientResult r, std::vector<platformpp::MessageHandle> list) {
    EXPECT_OK(r);
    history = list;
    read = true;
  });
  PUMP_UNTIL(read);
  ASSERT_EQ(history.size(), 2U);
  EXPECT_EQ(history[0].Content(), "ready!");
  EXPECT_EQ(history[0].Metadata().at("ping"), "1");
  EXPECT_EQ(history[1].Content(), "ready?");
  EXPECT_EQ(history[1].ChannelId(), lobbyId);

  // Bob leaves: his lobby goes, and Ada sees him leave.
  std::vector<uint64_t> bDeleted;
  b.SetLobbyDeletedCallback([&](uint64_t id) { bDeleted.push_back(id); });
  Caught left;
  b.LeaveLobby(lobbyId, left.callback());
  PUMP_UNTIL(left.done);
  ASSERT_OK(left.result);
  EXPECT_FALSE(b.GetLobbyHandle(lobbyId).has_value());
  EXPECT_EQ(bDeleted, std::vector<uint64_t>{lobbyId});
  PUMP_UNTIL(!aMembersRemoved.empty());
  EXPECT_EQ(aMembersRemoved.back(), std::make_pair(lobbyId, bob.id));
  EXPECT_EQ(a.GetLobbyHandle(lobbyId)->LobbyMemberIds(), std::vector<uint64_t>{ada.id});

  // A member-only read from someone who left: the platform's refusal, with its code.
  read = false;
  ClientResult refused;
  b.GetLobbyMessagesWithLimit(lobbyId, 10, [&](ClientResult r, std::vector<platformpp::MessageHandle>) {
    refused = r;
    read = true;
  });
  PUMP_UNTIL(read);
  EXPECT_EQ(refused.Status(), 403);
  EXPECT_EQ(refused.ErrorCode(), 50001);
}

TEST(Lobbies, GuildsOfAPlayerWithoutAny) {
  auto ada = provisional("Ada");
  Client a = readyClient(ada.token);
  bool done = false;
  std::vector<platformpp::GuildMinimal> guilds{platformpp::GuildMinimal()};
  a.GetUserGuilds([&](ClientResult r, std::vector<platformpp::GuildMinimal> list) {
    EXPECT_OK(r);
    guilds = list;
    done = true;
  });
  PUMP_UNTIL(done);
  EXPECT_TRUE(guilds.empty());
}

}  // namespace
