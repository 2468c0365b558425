// Lobbies against a real Guildhall: two players join one lobby by its secret (with metadata),
// exchange lobby messages, read the history, and one leaves; a guild channel linked to a lobby,
// the user's guilds and their channels.
#include <algorithm>

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

TEST(Lobbies, LinkedChannelsGuildsAndJoiningTheLinkedGuild) {
  auto const& dee = nextPerson();
  std::string deeToken = pkceLogin(dee);
  auto guild = api("POST", "/guilds", dee.session, Json{{"name", "Raid night"}});
  ASSERT_EQ(guild.status, 201) << guild.body.dump();
  uint64_t guildId = std::stoull(guild.body.at("id").get<std::string>());
  auto listed = api("GET", "/guilds/" + std::to_string(guildId) + "/channels", dee.session);
  uint64_t general = 0;
  for (auto const& channel : listed.body) {
    if (channel.at("name") == "general") general = std::stoull(channel.at("id").get<std::string>());
  }
  ASSERT_NE(general, 0U);
  auto bob = provisional("Bob");
  Client d = readyClient(deeToken);
  Client b = readyClient(bob.token);

  bool done = false;
  std::vector<platformpp::GuildMinimal> guilds;
  d.GetUserGuilds([&](ClientResult r, std::vector<platformpp::GuildMinimal> list) {
    EXPECT_OK(r);
    guilds = list;
    done = true;
  });
  PUMP_UNTIL(done);
  ASSERT_EQ(guilds.size(), 1U);
  EXPECT_EQ(guilds[0].Id(), guildId);
  EXPECT_EQ(guilds[0].Name(), "Raid night");
  done = false;
  std::vector<platformpp::GuildChannel> channels;
  d.GetGuildChannels(guildId, [&](ClientResult r, std::vector<platformpp::GuildChannel> list) {
    EXPECT_OK(r);
    channels = list;
    done = true;
  });
  PUMP_UNTIL(done);
  auto generalChannel = std::find_if(channels.begin(), channels.end(),
                                     [&](auto const& c) { return c.Id() == general; });
  ASSERT_NE(generalChannel, channels.end());
  EXPECT_TRUE(generalChannel->IsLinkable());
  EXPECT_FALSE(generalChannel->LinkedLobby().has_value());

  std::string secretText = unique("guild-run");
  uint64_t lobbyId = 0;
  d.CreateOrJoinLobby(secretText, [&](ClientResult r, uint64_t id) {
    EXPECT_OK(r);
    lobbyId = id;
  });
  PUMP_UNTIL(lobbyId != 0);
  uint64_t joined = 0;
  b.CreateOrJoinLobby(secretText, [&](ClientResult, uint64_t id) { joined = id; });
  PUMP_UNTIL(joined == lobbyId);
  // Without CanLinkLobby the platform refuses; the game's backend grants it.
  Caught unflagged;
  d.LinkChannelToLobby(lobbyId, general, unflagged.callback());
  PUMP_UNTIL(unflagged.done);
  EXPECT_EQ(unflagged.result.Status(), 403);
  EXPECT_EQ(unflagged.result.ErrorCode(), 50013);
  std::vector<uint64_t> updated;
  d.SetLobbyMemberUpdatedCallback([&](uint64_t, uint64_t member) { updated.push_back(member); });
  auto granted = api("PUT",
                     "/lobbies/" + std::to_string(lobbyId) + "/members/" + std::to_string(dee.id),
                     "Bot " + world().botToken, Json{{"flags", 1}});
  ASSERT_EQ(granted.status, 200) << granted.body.dump();
  // Another update of Dee (her join, say) may come first: wait for the one that grants it.
  auto canLink = [&] {
    auto deeLobby = d.GetLobbyHandle(lobbyId);
    auto deeMember = deeLobby ? deeLobby->GetLobbyMemberHandle(dee.id) : std::nullopt;
    return deeMember && deeMember->CanLinkLobby();
  };
  PUMP_UNTIL(canLink());
  EXPECT_NE(std::find(updated.begin(), updated.end(), dee.id), updated.end());

  std::vector<uint64_t> bobSawUpdate;
  b.SetLobbyUpdatedCallback([&](uint64_t id) { bobSawUpdate.push_back(id); });
  Caught linked;
  d.LinkChannelToLobby(lobbyId, general, linked.callback());
  PUMP_UNTIL(linked.done);
  ASSERT_OK(linked.result);
  auto channel = d.GetLobbyHandle(lobbyId)->LinkedChannel();
  ASSERT_TRUE(channel.has_value());
  EXPECT_EQ(channel->Id(), general);
  EXPECT_EQ(channel->Name(), "general");
  EXPECT_EQ(channel->GuildId(), guildId);
  PUMP_UNTIL(!bobSawUpdate.empty());
  EXPECT_EQ(b.GetLobbyHandle(lobbyId)->LinkedChannel()->Id(), general);

  // A provisional account cannot join a guild: the merge-required callback, and the code.
  bool mergeRequired = false;
  ClientResult refused;
  done = false;
  b.JoinLinkedLobbyGuild(
      lobbyId, [&] { mergeRequired = true; },
      [&](ClientResult r, std::string) {
        refused = r;
        done = true;
      });
  PUMP_UNTIL(done);
  EXPECT_TRUE(mergeRequired);
  EXPECT_EQ(refused.ErrorCode(), 50229);

  Caught unlinked;
  d.UnlinkChannelFromLobby(lobbyId, unlinked.callback());
  PUMP_UNTIL(unlinked.done);
  ASSERT_OK(unlinked.result);
  EXPECT_FALSE(d.GetLobbyHandle(lobbyId)->LinkedChannel().has_value());
}

}  // namespace
