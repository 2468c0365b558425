// Rich presence between two game friends against a real Guildhall: a join request (Bob asks,
// Ada's game gets an ActivityInvite of type JoinRequest, replies with an invite, Bob joins), and
// an activity's supported platforms and parent application as the friend sees them.
#include "support.h"

namespace {

using namespace pptest;
using platformpp::ActivityActionTypes;
using platformpp::ActivityGamePlatforms;
using platformpp::ActivityInvite;
using platformpp::ErrorType;

struct Friends {
  Player ada;
  Player bob;
  Client a;
  Client b;
};

/// Two provisional players, game friends, each seeing the other online.
Friends friends() {
  Friends f{provisional("Ada"), provisional("Bob"), Client(platformpp::NullTag{}),
            Client(platformpp::NullTag{})};
  f.a = readyClient(f.ada.token);
  f.b = readyClient(f.bob.token);
  Caught sent;
  f.a.SendGameFriendRequestById(f.bob.id, sent.callback());
  EXPECT_TRUE(pump([&] {
    return sent.done && f.b.GetRelationshipHandle(f.ada.id).GameRelationshipType() ==
                            platformpp::RelationshipType::PendingIncoming;
  }));
  Caught accepted;
  f.b.AcceptGameFriendRequest(f.ada.id, accepted.callback());
  EXPECT_TRUE(pump([&] {
    auto seenBob = f.a.GetUser(f.bob.id);
    auto seenAda = f.b.GetUser(f.ada.id);
    return accepted.done && seenBob && seenAda &&
           seenBob->Status() == platformpp::StatusType::Online &&
           seenAda->Status() == platformpp::StatusType::Online;
  })) << lastLogLines();
  return f;
}

/// A party activity with a join secret.
platformpp::Activity partyActivity(std::string const& partyId) {
  platformpp::Activity activity;
  activity.SetName("Tiny Tanks");
  activity.SetState("In a party");
  platformpp::ActivityParty party;
  party.SetId(partyId);
  party.SetCurrentSize(1);
  party.SetMaxSize(4);
  activity.SetParty(party);
  platformpp::ActivitySecrets secrets;
  secrets.SetJoin("secret-of-" + partyId);
  activity.SetSecrets(secrets);
  return activity;
}

TEST(Activities, AJoinRequestIsAnsweredWithAnInviteTheAskerAccepts) {
  auto f = friends();
  std::vector<ActivityInvite> aInvites;
  std::vector<ActivityInvite> bInvites;
  f.a.SetActivityInviteCreatedCallback([&](ActivityInvite invite) { aInvites.push_back(invite); });
  f.b.SetActivityInviteCreatedCallback([&](ActivityInvite invite) { bInvites.push_back(invite); });

  // No party seen yet: nothing to ask to join, refused before any request.
  Caught early;
  f.b.SendActivityJoinRequest(f.ada.id, early.callback());
  PUMP_UNTIL(early.done);
  EXPECT_EQ(early.result.Type(), ErrorType::ValidationError) << early.result.ToString();

  std::string partyId = unique("party");
  Caught published;
  f.a.UpdateRichPresence(partyActivity(partyId), published.callback());
  PUMP_UNTIL(published.done);
  ASSERT_OK(published.result);
  PUMP_UNTIL(f.b.GetUser(f.ada.id)->GameActivity() &&
             f.b.GetUser(f.ada.id)->GameActivity()->Party() &&
             f.b.GetUser(f.ada.id)->GameActivity()->Party()->Id() == partyId);

  Caught asked;
  f.b.SendActivityJoinRequest(f.ada.id, asked.callback());
  PUMP_UNTIL(asked.done && !aInvites.empty());
  ASSERT_OK(asked.result);
  ActivityInvite request = aInvites.front();
  EXPECT_EQ(request.Type(), ActivityActionTypes::JoinRequest);
  EXPECT_EQ(request.SenderId(), f.bob.id);
  EXPECT_EQ(request.PartyId(), partyId);
  EXPECT_EQ(request.ApplicationId(), world().applicationId);
  ASSERT_TRUE(f.a.GetUser(f.bob.id).has_value()) << "the asker is known to the host's client";

  // Only a JoinRequest is answered this way.
  Caught wrong;
  f.a.SendActivityJoinRequestReply(ActivityInvite(), wrong.callback());
  PUMP_UNTIL(wrong.done);
  EXPECT_EQ(wrong.result.Type(), ErrorType::ValidationError) << wrong.result.ToString();

  Caught replied;
  f.a.SendActivityJoinRequestReply(request, replied.callback());
  PUMP_UNTIL(replied.done && !bInvites.empty());
  ASSERT_OK(replied.result);
  ActivityInvite invite = bInvites.front();
  EXPECT_EQ(invite.Type(), ActivityActionTypes::Join);
  EXPECT_EQ(invite.PartyId(), partyId);
  std::string joinSecret;
  bool joined = false;
  f.b.AcceptActivityInvite(invite, [&](ClientResult r, std::string secretText) {
    EXPECT_OK(r);
    joinSecret = std::move(secretText);
    joined = true;
  });
  PUMP_UNTIL(joined);
  EXPECT_EQ(joinSecret, "secret-of-" + partyId);
}

/// Ada's activity as Bob's client shows it once it has the party `partyId`, else none.
std::optional<platformpp::Activity> seenParty(Friends const& f, std::string const& partyId) {
  auto user = f.b.GetUser(f.ada.id);
  if (!user) return std::nullopt;
  auto activity = user->GameActivity();
  if (!activity || !activity->Party() || activity->Party()->Id() != partyId) return std::nullopt;
  return activity;
}

TEST(Activities, SupportedPlatformsAndAParentApplicationOnlyAsTheOperatorLinkedIt) {
  auto f = friends();
  uint64_t parentId = world().parentApplicationId;
  EXPECT_EQ(platformpp::Activity().SupportedPlatforms(), ActivityGamePlatforms::Desktop);
  auto activity = partyActivity(unique("party-p"));
  activity.SetSupportedPlatforms(ActivityGamePlatforms::Desktop | ActivityGamePlatforms::Android);
  activity.SetParentApplicationId(parentId);
  Caught published;
  f.a.UpdateRichPresence(activity, published.callback());
  PUMP_UNTIL(published.done);
  ASSERT_OK(published.result);
  PUMP_UNTIL(seenParty(f, activity.Party()->Id()).has_value());
  auto shown = *seenParty(f, activity.Party()->Id());
  EXPECT_EQ(shown.SupportedPlatforms(),
            ActivityGamePlatforms::Desktop | ActivityGamePlatforms::Android);
  EXPECT_FALSE(shown.ParentApplicationId().has_value())
      << "no approved link from that parent: the platform drops it";

  auto linked = api("PUT",
                    "/admin/application-links/" + std::to_string(parentId) + "/" +
                        std::to_string(world().applicationId),
                    "Admin " + world().adminToken);
  ASSERT_LT(linked.status, 300) << linked.body.dump();
  auto party = *activity.Party();
  party.SetId(unique("party-q"));
  activity.SetParty(party);
  Caught again;
  f.a.UpdateRichPresence(activity, again.callback());
  PUMP_UNTIL(again.done);
  ASSERT_OK(again.result);
  PUMP_UNTIL(seenParty(f, party.Id()).has_value());
  EXPECT_EQ(seenParty(f, party.Id())->ParentApplicationId().value_or(0), parentId);

  // A set that is no set of platforms is refused before anything is sent.
  activity.SetSupportedPlatforms(static_cast<ActivityGamePlatforms>(0));
  Caught refused;
  f.a.UpdateRichPresence(activity, refused.callback());
  PUMP_UNTIL(refused.done);
  EXPECT_EQ(refused.result.Type(), ErrorType::ValidationError) << refused.result.ToString();
}

}  // namespace
