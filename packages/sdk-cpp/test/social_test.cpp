// Two players against a real Guildhall: Ada with a provisional account, Bob with his own account
// through PKCE. A game friend request and its accept (both see it through callbacks), the grouped
// friends list and its callback, rich presence seen by the friend, DMs both ways and the DM
// cache's rule.
#include "support.h"

namespace {

using namespace pptest;
using platformpp::RelationshipGroupType;
using platformpp::RelationshipType;

std::vector<uint64_t> group(Client const& client, RelationshipGroupType type) {
  std::vector<uint64_t> ids;
  for (auto const& handle : client.GetRelationshipsByGroup(type)) ids.push_back(handle.Id());
  return ids;
}

size_t cacheAnswers() {
  size_t count = 0;
  for (auto const& line : logLines()) {
    if (line == "GetUserMessagesWithLimit: answered from the cache") count++;
  }
  return count;
}

TEST(Social, FriendsPresenceAndDirectMessagesBetweenTwoPlayers) {
  auto ada = provisional("Ada");
  std::string bobToken = pkceLogin(nextPerson());
  Client a = readyClient(ada.token);
  Client b = readyClient(bobToken);
  uint64_t bobId = b.GetCurrentUserV2()->Id();
  std::vector<std::pair<uint64_t, bool>> aCreated;
  std::vector<std::pair<uint64_t, bool>> bCreated;
  std::vector<uint64_t> bGroupsUpdated;
  a.SetRelationshipCreatedCallback([&](uint64_t id, bool discord) { aCreated.emplace_back(id, discord); });
  b.SetRelationshipCreatedCallback([&](uint64_t id, bool discord) { bCreated.emplace_back(id, discord); });
  b.SetRelationshipGroupsUpdatedCallback([&](uint64_t id) { bGroupsUpdated.push_back(id); });

  // The request: Bob sees it arrive (a game relationship, not a platform-wide one).
  Caught sent;
  a.SendGameFriendRequestById(bobId, sent.callback());
  PUMP_UNTIL(sent.done);
  ASSERT_OK(sent.result);
  PUMP_UNTIL(b.GetRelationshipHandle(ada.id).GameRelationshipType() ==
             RelationshipType::PendingIncoming);
  ASSERT_FALSE(bCreated.empty());
  EXPECT_EQ(bCreated.back(), std::make_pair(ada.id, false));
  // Ada's side arrives by her own RELATIONSHIP_ADD, which may come after Bob's.
  PUMP_UNTIL(a.GetRelationshipHandle(bobId).GameRelationshipType() ==
             RelationshipType::PendingOutgoing);
  EXPECT_TRUE(bGroupsUpdated.empty()) << "a request is not a friend: the groups did not change";

  // Accepting what is not pending is refused before any request.
  Caught wrong;
  a.AcceptGameFriendRequest(bobId, wrong.callback());
  PUMP_UNTIL(wrong.done);
  EXPECT_EQ(wrong.result.Type(), platformpp::ErrorType::ValidationError);

  Caught accepted;
  b.AcceptGameFriendRequest(ada.id, accepted.callback());
  PUMP_UNTIL(accepted.done);
  ASSERT_OK(accepted.result);
  PUMP_UNTIL(a.GetRelationshipHandle(bobId).GameRelationshipType() == RelationshipType::Friend &&
             b.GetRelationshipHandle(ada.id).GameRelationshipType() == RelationshipType::Friend);
  PUMP_UNTIL(!aCreated.empty() && aCreated.back().first == bobId);
  EXPECT_FALSE(aCreated.back().second);
  PUMP_UNTIL(!bGroupsUpdated.empty());
  EXPECT_EQ(bGroupsUpdated.back(), ada.id);
  PUMP_UNTIL(group(b, RelationshipGroupType::OnlineElsewhere) == std::vector<uint64_t>{ada.id});
  ASSERT_EQ(b.SearchFriendsByUsername("ad").size(), 1U);

  // Rich presence: Bob sees Ada's activity in this game, and she moves to OnlinePlayingGame.
  size_t groupsBefore = bGroupsUpdated.size();
  std::vector<uint64_t> bUsersUpdated;
  b.SetUserUpdatedCallback([&](uint64_t id) { bUsersUpdated.push_back(id); });
  platformpp::Activity activity;
  activity.SetState("In the lobby");
  activity.SetDetails("Level 3");
  platformpp::ActivityParty party;
  party.SetId(unique("party"));
  party.SetCurrentSize(1);
  party.SetMaxSize(4);
  activity.SetParty(party);
  Caught published;
  a.UpdateRichPresence(activity, published.callback());
  PUMP_UNTIL(published.done);
  ASSERT_OK(published.result);
  PUMP_UNTIL(b.GetUser(ada.id) && b.GetUser(ada.id)->GameActivity().has_value());
  auto seen = *b.GetUser(ada.id)->GameActivity();
  EXPECT_EQ(seen.State().value_or(""), "In the lobby");
  EXPECT_EQ(seen.Details().value_or(""), "Level 3");
  EXPECT_EQ(seen.Party()->MaxSize(), 4);
  EXPECT_EQ(seen.Name(), "dev app") << "an empty name shows the application's";
  EXPECT_EQ(b.GetUser(ada.id)->Status(), platformpp::StatusType::Online);
  EXPECT_FALSE(bUsersUpdated.empty());
  PUMP_UNTIL(group(b, RelationshipGroupType::OnlinePlayingGame) == std::vector<uint64_t>{ada.id});
  EXPECT_EQ(bGroupsUpdated.size(), groupsBefore + 1) << "one callback per change of the groups";

  // DMs both ways.
  std::vector<std::string> aInbox;
  std::vector<std::string> bInbox;
  a.SetMessageCreatedCallback([&](uint64_t id) {
    if (auto m = a.GetMessageHandle(id); m && m->AuthorId() == bobId) aInbox.push_back(m->Content());
  });
  b.SetMessageCreatedCallback([&](uint64_t id) {
    if (auto m = b.GetMessageHandle(id); m && m->AuthorId() == ada.id) bInbox.push_back(m->Content());
  });
  uint64_t firstId = 0;
  bool firstSent = false;
  a.SendUserMessage(bobId, "hello Bob", [&](ClientResult r, uint64_t id) {
    EXPECT_OK(r);
    firstId = id;
    firstSent = true;
  });
  PUMP_UNTIL(firstSent && !bInbox.empty());
  EXPECT_EQ(bInbox.front(), "hello Bob");
  auto onBob = b.GetMessageHandle(firstId);
  ASSERT_TRUE(onBob.has_value());
  EXPECT_EQ(onBob->RecipientId(), bobId);
  EXPECT_EQ(onBob->ApplicationId().value_or(0), world().applicationId);
  Caught replied;
  b.SendUserMessageWithMetadata(ada.id, "hi Ada", {{"emote", "wave"}},
                                [&](ClientResult r, uint64_t) { replied.callback()(r); });
  PUMP_UNTIL(replied.done && !aInbox.empty());
  EXPECT_EQ(aInbox.front(), "hi Ada");

  // The cache: both messages came through this session's gateway, and Ada's client added its
  // disclosure to the DM (Bob's is a full account: her messages show in the web client), so three
  // are answered locally.
  size_t answersBefore = cacheAnswers();
  std::vector<platformpp::MessageHandle> history;
  bool read = false;
  auto readHistory = [&](int limit) {
    read = false;
    a.GetUserMessagesWithLimit(bobId, limit, [&](ClientResult r, std::vector<platformpp::MessageHandle> list) {
      EXPECT_OK(r);
      history = list;
      read = true;
    });
    return pump([&] { return read; });
  };
  ASSERT_TRUE(readHistory(3));
  ASSERT_EQ(history.size(), 3U);
  EXPECT_EQ(history[0].Content(), "hi Ada");
  EXPECT_EQ(history[0].Metadata().at("emote"), "wave");
  EXPECT_EQ(history[1].DisclosureType(), platformpp::DisclosureTypes::MessageDataVisibleOnDiscord);
  EXPECT_EQ(history[2].Content(), "hello Bob");
  EXPECT_EQ(cacheAnswers(), answersBefore + 1);
  // More than the cache holds: the server is asked, and the whole conversation is then known.
  ASSERT_TRUE(readHistory(50));
  EXPECT_EQ(history.size(), 3U) << "the server's two and the local disclosure";
  EXPECT_EQ(cacheAnswers(), answersBefore + 1);
  ASSERT_TRUE(readHistory(50));
  EXPECT_EQ(cacheAnswers(), answersBefore + 2);

  // Ending the friendship in the game: both see it go.
  std::vector<uint64_t> bDeleted;
  b.SetRelationshipDeletedCallback([&](uint64_t id, bool) { bDeleted.push_back(id); });
  Caught removed;
  a.RemoveGameFriend(bobId, removed.callback());
  PUMP_UNTIL(removed.done && !bDeleted.empty());
  ASSERT_OK(removed.result);
  EXPECT_EQ(bDeleted.front(), ada.id);
  PUMP_UNTIL(group(b, RelationshipGroupType::OnlinePlayingGame).empty());
}

}  // namespace
