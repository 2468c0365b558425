// The rules shared with the TypeScript SDK, held to the cases both suites read
// (packages/sdk/test/fixtures/social-rules.json; sharedRules.test.ts reads the same file).
#include <fstream>

#include "rules.h"
#include "support.h"

namespace {

using namespace pptest;
using platformpp::RelationshipGroupType;
using platformpp::RelationshipType;
namespace rules = platformpp::detail;

Json const& fixture() {
  static Json const loaded = [] {
    std::ifstream file(world().rulesFixture);
    EXPECT_TRUE(file.good()) << "no fixture at " << world().rulesFixture;
    return Json::parse(file, nullptr, false);
  }();
  return loaded;
}

uint64_t id(Json const& text) { return std::stoull(text.get<std::string>()); }

TEST(SharedRules, DisplayNameOrder) {
  for (auto const& c : fixture().at("displayNameOrder")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    auto const& groups = c.at("groups");
    for (size_t i = 0; i < groups.size(); ++i) {
      for (auto const& a : groups[i]) {
        for (auto const& b : groups[i]) {
          EXPECT_EQ(rules::compareDisplayNames(a, b), 0) << a << " = " << b;
        }
        for (size_t j = i + 1; j < groups.size(); ++j) {
          for (auto const& b : groups[j]) {
            EXPECT_LT(rules::compareDisplayNames(a, b), 0) << a << " < " << b;
            EXPECT_GT(rules::compareDisplayNames(b, a), 0) << b << " > " << a;
          }
        }
      }
    }
  }
}

TEST(SharedRules, FriendsOrder) {
  for (auto const& c : fixture().at("friendsOrder")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    std::vector<std::pair<std::string, uint64_t>> friends;
    for (auto const& f : c.at("friends")) friends.emplace_back(f.at("name"), id(f.at("id")));
    std::sort(friends.begin(), friends.end(), [](auto const& a, auto const& b) {
      return rules::friendBefore(a.first, a.second, b.first, b.second);
    });
    std::vector<uint64_t> order;
    for (auto const& f : friends) order.push_back(f.second);
    std::vector<uint64_t> expected;
    for (auto const& e : c.at("expect")) expected.push_back(id(e));
    EXPECT_EQ(order, expected);
  }
}

TEST(SharedRules, FriendGroups) {
  std::map<std::string, RelationshipGroupType> names = {
      {"OnlinePlayingGame", RelationshipGroupType::OnlinePlayingGame},
      {"OnlineElsewhere", RelationshipGroupType::OnlineElsewhere},
      {"Offline", RelationshipGroupType::Offline}};
  for (auto const& c : fixture().at("friendGroups")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    rules::FriendFacts facts;
    facts.discord = static_cast<RelationshipType>(c.at("discord").get<int>());
    facts.game = static_cast<RelationshipType>(c.at("game").get<int>());
    if (!c.at("status").is_null()) facts.status = c.at("status").get<std::string>();
    auto const& app = c.at("applicationId");
    for (auto const& a : c.at("activityApplications")) {
      if (!app.is_null() && a == app) facts.playingThisGame = true;
    }
    auto group = rules::friendGroup(facts);
    if (c.at("expect").is_null()) {
      EXPECT_FALSE(group.has_value());
    } else {
      ASSERT_TRUE(group.has_value());
      EXPECT_EQ(*group, names.at(c.at("expect").get<std::string>()));
    }
  }
}

TEST(SharedRules, GuildChannelOrder) {
  for (auto const& c : fixture().at("guildChannels")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    std::vector<rules::ChannelOrderEntry> entries;
    for (auto const& ch : c.at("channels")) {
      rules::ChannelOrderEntry entry;
      entry.id = id(ch.at("id"));
      entry.type = ch.at("type");
      entry.position = ch.at("position");
      if (!ch.at("parent_id").is_null()) entry.parentId = id(ch.at("parent_id"));
      entries.push_back(entry);
    }
    std::vector<uint64_t> order;
    for (size_t index : rules::guildChannelOrder(entries)) order.push_back(entries[index].id);
    std::vector<uint64_t> expected;
    for (auto const& e : c.at("expect")) expected.push_back(id(e));
    EXPECT_EQ(order, expected);
  }
}

TEST(SharedRules, MessageCache) {
  for (auto const& c : fixture().at("messageCache")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    platformpp::detail::ChannelHistory history;
    if (!c.at("cached").is_null()) {
      for (auto const& i : c.at("cached").at("ids")) history.ids.push_back(id(i));
      history.complete = c.at("cached").at("complete");
    }
    bool answers = rules::cacheAnswers(c.at("cached").is_null() ? nullptr : &history, c.at("limit"));
    EXPECT_EQ(answers, c.at("expect") == "cache");
  }
  for (auto const& c : fixture().at("mergeIds")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    platformpp::detail::ChannelHistory history;
    for (auto const& i : c.at("history")) history.ids.push_back(id(i));
    std::vector<uint64_t> add;
    for (auto const& i : c.at("add")) add.push_back(id(i));
    std::vector<uint64_t> expected;
    for (auto const& i : c.at("expect")) expected.push_back(id(i));
    EXPECT_EQ(rules::mergeIds(history, add).ids, expected);
  }
}

}  // namespace
