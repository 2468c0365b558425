#include "wire.h"

#include <cstdio>
#include <ctime>

#include "rules.h"

namespace platformpp::detail {

namespace {

constexpr size_t kMaxName = 128;
constexpr size_t kMaxText = 128;
constexpr size_t kMaxUrl = 256;
constexpr size_t kMaxButtons = 2;
constexpr size_t kMaxButtonLabel = 32;
constexpr size_t kMaxButtonUrl = 512;
constexpr size_t kMetadataKeys = 25;
constexpr size_t kMetadataValue = 1024;

/// The wire names of ActivityGamePlatforms (op 3 `supported_platforms`), in bit order.
constexpr std::pair<int32_t, char const*> kPlatformNames[] = {
    {1, "desktop"}, {2, "xbox"},      {4, "samsung"}, {8, "ios"},
    {16, "android"}, {32, "embedded"}, {64, "ps4"},   {128, "ps5"}};
constexpr int32_t kAllPlatforms = 255;

std::optional<std::string> checkText(std::string const& what,
                                     std::optional<std::string> const& value, size_t max) {
  if (value && utf16Length(*value) > max) {
    return what + " is longer than " + std::to_string(max) + " characters: shorten it.";
  }
  return std::nullopt;
}

std::optional<std::string> checkUrl(std::string const& what,
                                    std::optional<std::string> const& value, size_t max) {
  if (auto refused = checkText(what, value, max)) return refused;
  if (!value || value->empty()) return std::nullopt;
  if (value->rfind("http://", 0) != 0 && value->rfind("https://", 0) != 0) {
    return what + " must be an http(s) URL: \"" + *value + "\" is not one.";
  }
  if (value->size() <= (value->rfind("https://", 0) == 0 ? 8U : 7U)) {
    return what + " must be an http(s) URL: \"" + *value + "\" has no host.";
  }
  return std::nullopt;
}

void put(Json& out, char const* key, std::optional<std::string> const& value) {
  if (value && !value->empty()) out[key] = *value;
}

/// days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
int64_t daysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  auto yoe = static_cast<unsigned>(y - era * 400);
  unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

}  // namespace

size_t utf16Length(std::string const& text) {
  size_t units = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    auto byte = static_cast<unsigned char>(text[i]);
    if ((byte & 0xC0) == 0x80) continue;
    units += byte >= 0xF0 ? 2 : 1;
  }
  return units;
}

std::optional<std::string> activityToWire(Activity const& activity, Json& out) {
  if (!activity) return "UpdateRichPresence: pass an Activity (not Activity::nullobj).";
  auto type = static_cast<int>(activity.Type());
  if (type < 0 || type > 5) {
    return "Activity.Type: " + std::to_string(type) +
           " is not Playing, Streaming, Listening, Watching, CustomStatus or Competing.";
  }
  std::optional<std::string> refused;
  if ((refused = checkText("Activity.Name", activity.Name(), kMaxName)) ||
      (refused = checkText("Activity.State", activity.State(), kMaxText)) ||
      (refused = checkText("Activity.Details", activity.Details(), kMaxText)) ||
      (refused = checkUrl("Activity.StateUrl", activity.StateUrl(), kMaxUrl)) ||
      (refused = checkUrl("Activity.DetailsUrl", activity.DetailsUrl(), kMaxUrl))) {
    return refused;
  }
  out = Json{{"name", activity.Name()}, {"type", type}};
  put(out, "state", activity.State());
  put(out, "state_url", activity.StateUrl());
  put(out, "details", activity.Details());
  put(out, "details_url", activity.DetailsUrl());
  if (activity.StatusDisplayType()) {
    out["status_display_type"] = static_cast<int>(*activity.StatusDisplayType());
  }
  if (auto const& t = activity.Timestamps(); t && *t) {
    Json timestamps = Json::object();
    if (t->Start() > 0) timestamps["start"] = t->Start();
    if (t->End() > 0) timestamps["end"] = t->End();
    if (!timestamps.empty()) out["timestamps"] = timestamps;
  }
  if (auto const& a = activity.Assets(); a && *a) {
    if ((refused = checkText("ActivityAssets.LargeImage", a->LargeImage(), kMaxText)) ||
        (refused = checkText("ActivityAssets.LargeText", a->LargeText(), kMaxText)) ||
        (refused = checkUrl("ActivityAssets.LargeUrl", a->LargeUrl(), kMaxUrl)) ||
        (refused = checkText("ActivityAssets.SmallImage", a->SmallImage(), kMaxText)) ||
        (refused = checkText("ActivityAssets.SmallText", a->SmallText(), kMaxText)) ||
        (refused = checkUrl("ActivityAssets.SmallUrl", a->SmallUrl(), kMaxUrl)) ||
        (refused = checkText("ActivityAssets.InviteCoverImage", a->InviteCoverImage(), kMaxText))) {
      return refused;
    }
    Json assets = Json::object();
    put(assets, "large_image", a->LargeImage());
    put(assets, "large_text", a->LargeText());
    put(assets, "large_url", a->LargeUrl());
    put(assets, "small_image", a->SmallImage());
    put(assets, "small_text", a->SmallText());
    put(assets, "small_url", a->SmallUrl());
    put(assets, "invite_cover_image", a->InviteCoverImage());
    if (!assets.empty()) out["assets"] = assets;
  }
  if (auto const& p = activity.Party(); p && *p) {
    if ((refused = checkText("ActivityParty.Id", p->Id(), kMaxText))) return refused;
    if (p->CurrentSize() < 0 || p->MaxSize() < 0) {
      return "ActivityParty: sizes must be whole numbers of at least 0.";
    }
    if (p->MaxSize() > 0 && p->CurrentSize() > p->MaxSize()) {
      return "ActivityParty: CurrentSize " + std::to_string(p->CurrentSize()) +
             " is more than MaxSize " + std::to_string(p->MaxSize()) + ".";
    }
    if (p->MaxSize() == 0 && p->CurrentSize() > 0) {
      return "ActivityParty: set MaxSize (at least 1) with CurrentSize.";
    }
    Json party{{"privacy", static_cast<int>(p->Privacy())}};
    if (!p->Id().empty()) party["id"] = p->Id();
    if (p->MaxSize() > 0) party["size"] = Json::array({p->CurrentSize(), p->MaxSize()});
    out["party"] = party;
  }
  if (auto const& s = activity.Secrets(); s && *s && !s->Join().empty()) {
    if ((refused = checkText("ActivitySecrets.Join", s->Join(), kMaxText))) return refused;
    out["secrets"] = Json{{"join", s->Join()}};
  }
  auto const& buttons = activity.GetButtons();
  if (buttons.size() > kMaxButtons) return "Activity: at most 2 buttons.";
  if (!buttons.empty()) {
    Json list = Json::array();
    for (auto const& button : buttons) {
      if (button.Label().empty() || button.Url().empty()) {
        return "Activity.AddButton: set the button's label and URL first.";
      }
      if ((refused = checkText("ActivityButton.Label", button.Label(), kMaxButtonLabel)) ||
          (refused = checkUrl("ActivityButton.Url", button.Url(), kMaxButtonUrl))) {
        return refused;
      }
      list.push_back({{"label", button.Label()}, {"url", button.Url()}});
    }
    out["buttons"] = list;
  }
  auto platforms = static_cast<int32_t>(activity.SupportedPlatforms());
  if (platforms <= 0 || (platforms & ~kAllPlatforms) != 0) {
    return "Activity.SupportedPlatforms: " + std::to_string(platforms) +
           " is not a set of ActivityGamePlatforms.";
  }
  if (platforms != static_cast<int32_t>(ActivityGamePlatforms::Desktop)) {
    Json names = Json::array();
    for (auto const& [bit, name] : kPlatformNames) {
      if ((platforms & bit) != 0) names.push_back(name);
    }
    out["supported_platforms"] = names;
  }
  if (auto parent = activity.ParentApplicationId()) {
    if ((refused = checkId("UpdateRichPresence", "Activity.ParentApplicationId", *parent))) {
      return refused;
    }
    out["parent_application_id"] = std::to_string(*parent);
  }
  return std::nullopt;
}

Activity activityFromWire(Json const& wire) {
  Activity activity;
  activity.SetName(strAt(wire, "name"));
  activity.SetType(static_cast<ActivityTypes>(intAt(wire, "type", 0)));
  activity.SetState(optStrAt(wire, "state"));
  activity.SetStateUrl(optStrAt(wire, "state_url"));
  activity.SetDetails(optStrAt(wire, "details"));
  activity.SetDetailsUrl(optStrAt(wire, "details_url"));
  if (wire.contains("status_display_type") && wire["status_display_type"].is_number()) {
    activity.SetStatusDisplayType(
        static_cast<StatusDisplayTypes>(wire["status_display_type"].get<int>()));
  }
  if (uint64_t app = idAt(wire, "application_id")) activity.SetApplicationId(app);
  int32_t platforms = 0;
  for (auto const& name : arrayAt(wire, "supported_platforms")) {
    for (auto const& [bit, known] : kPlatformNames) {
      if (name.is_string() && name.get<std::string>() == known) platforms |= bit;
    }
  }
  if (platforms != 0) activity.SetSupportedPlatforms(static_cast<ActivityGamePlatforms>(platforms));
  if (uint64_t parent = idAt(wire, "parent_application_id")) {
    activity.SetParentApplicationId(parent);
  }
  if (wire.contains("assets")) {
    auto const& a = objectAt(wire, "assets");
    ActivityAssets assets;
    assets.SetLargeImage(optStrAt(a, "large_image"));
    assets.SetLargeText(optStrAt(a, "large_text"));
    assets.SetLargeUrl(optStrAt(a, "large_url"));
    assets.SetSmallImage(optStrAt(a, "small_image"));
    assets.SetSmallText(optStrAt(a, "small_text"));
    assets.SetSmallUrl(optStrAt(a, "small_url"));
    assets.SetInviteCoverImage(optStrAt(a, "invite_cover_image"));
    activity.SetAssets(assets);
  }
  if (wire.contains("timestamps")) {
    auto const& t = objectAt(wire, "timestamps");
    ActivityTimestamps timestamps;
    timestamps.SetStart(static_cast<uint64_t>(std::max<int64_t>(intAt(t, "start", 0), 0)));
    timestamps.SetEnd(static_cast<uint64_t>(std::max<int64_t>(intAt(t, "end", 0), 0)));
    activity.SetTimestamps(timestamps);
  }
  if (wire.contains("party")) {
    auto const& p = objectAt(wire, "party");
    ActivityParty party;
    party.SetId(strAt(p, "id"));
    auto const& size = arrayAt(p, "size");
    if (size.size() == 2 && size[0].is_number() && size[1].is_number()) {
      party.SetCurrentSize(size[0].get<int32_t>());
      party.SetMaxSize(size[1].get<int32_t>());
    }
    party.SetPrivacy(static_cast<ActivityPartyPrivacy>(intAt(p, "privacy", 0)));
    activity.SetParty(party);
  }
  if (auto join = optStrAt(objectAt(wire, "secrets"), "join")) {
    ActivitySecrets secrets;
    secrets.SetJoin(*join);
    activity.SetSecrets(secrets);
  }
  auto const& urls = arrayAt(objectAt(wire, "metadata"), "button_urls");
  auto const& buttons = arrayAt(wire, "buttons");
  for (size_t i = 0; i < buttons.size(); ++i) {
    ActivityButton button;
    if (buttons[i].is_string()) {
      button.SetLabel(buttons[i].get<std::string>());
      if (i < urls.size() && urls[i].is_string()) button.SetUrl(urls[i].get<std::string>());
    } else {
      button.SetLabel(strAt(buttons[i], "label"));
      button.SetUrl(strAt(buttons[i], "url"));
    }
    activity.AddButton(button);
  }
  return activity;
}


std::optional<std::string> checkMetadata(std::string const& operation, std::string const& what,
                                         std::unordered_map<std::string, std::string> const& map) {
  if (map.size() > kMetadataKeys) {
    return operation + ": " + what + " has " + std::to_string(map.size()) +
           " keys; the most is " + std::to_string(kMetadataKeys) + ".";
  }
  for (auto const& [key, value] : map) {
    if (key.empty()) return operation + ": " + what + " has an empty key.";
    if (utf16Length(value) > kMetadataValue) {
      return operation + ": " + what + "[\"" + key + "\"] is longer than " +
             std::to_string(kMetadataValue) + " characters.";
    }
  }
  return std::nullopt;
}

std::optional<std::string> checkContent(std::string const& operation, std::string const& content,
                                        size_t max) {
  if (content.find_first_not_of(" \t\r\n") == std::string::npos) {
    return operation + ": the content is empty; send some text.";
  }
  size_t length = utf16Length(content);
  if (length > max) {
    return operation + ": the content has " + std::to_string(length) +
           " characters; the most is " + std::to_string(max) + ".";
  }
  return std::nullopt;
}

std::optional<std::string> checkId(std::string const& operation, std::string const& what,
                                   uint64_t id) {
  if (id == 0) return operation + ": " + what + " must be an id (not 0).";
  return std::nullopt;
}

Json metadataJson(std::unordered_map<std::string, std::string> const& map) {
  Json out = Json::object();
  for (auto const& [key, value] : map) out[key] = value;
  return out;
}

RelationshipType relationshipTypeOf(Json const& relationship) {
  if (!relationship.is_object()) return RelationshipType::None;
  return static_cast<RelationshipType>(intAt(relationship, "type", 0));
}

bool isFriend(RelationshipPair const& pair) {
  return relationshipTypeOf(pair.discord) == RelationshipType::Friend ||
         relationshipTypeOf(pair.game) == RelationshipType::Friend;
}

StatusType userStatus(SocialState const& state, uint64_t userId) {
  RelationshipType discord = RelationshipType::None;
  RelationshipType game = RelationshipType::None;
  if (auto found = state.relationships.find(userId); found != state.relationships.end()) {
    discord = relationshipTypeOf(found->second.discord);
    game = relationshipTypeOf(found->second.game);
  }
  std::optional<std::string> presence;
  if (auto found = state.presences.find(userId); found != state.presences.end()) {
    presence = strAt(found->second, "status");
  }
  return statusOf(discord, game, presence);
}

bool playingApplication(SocialState const& state, uint64_t userId, uint64_t applicationId) {
  if (applicationId == 0) return false;
  auto found = state.presences.find(userId);
  if (found == state.presences.end()) return false;
  for (auto const& activity : arrayAt(found->second, "activities")) {
    if (idAt(activity, "application_id") == applicationId) return true;
  }
  return false;
}

bool isProvisionalUser(Json const& user) {
  return strAt(user, "username") == "provisional_" + strAt(user, "id");
}

std::string displayNameOf(Json const& user) {
  if (auto global = optStrAt(user, "global_name")) return *global;
  return strAt(user, "username");
}

/// An ISO 8601 timestamp (2025-01-02T03:04:05.678+00:00) in Unix ms; 0 when it is not one.
uint64_t parseTimestamp(std::string const& text) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, consumed = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &year, &month, &day, &hour, &minute,
                  &second, &consumed) != 6) {
    return 0;
  }
  size_t at = static_cast<size_t>(consumed);
  int64_t millis = 0;
  if (at < text.size() && text[at] == '.') {
    int64_t scale = 100;
    for (++at; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at) {
      millis += (text[at] - '0') * scale;
      scale /= 10;
    }
  }
  int64_t offsetMinutes = 0;
  if (at < text.size() && (text[at] == '+' || text[at] == '-')) {
    int oh = 0, om = 0;
    if (std::sscanf(text.c_str() + at + 1, "%2d:%2d", &oh, &om) == 2) {
      offsetMinutes = (text[at] == '+' ? 1 : -1) * (oh * 60 + om);
    }
  }
  int64_t days = daysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  int64_t seconds = days * 86400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60;
  return seconds < 0 ? 0 : static_cast<uint64_t>(seconds * 1000 + millis);
}


std::string isoTimestamp(uint64_t ms) {
  std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm utc{};
#ifdef _WIN32
  gmtime_s(&utc, &seconds);
#else
  gmtime_r(&seconds, &utc);
#endif
  char text[40];
  size_t length = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
  std::snprintf(text + length, sizeof text - length, ".%03dZ", static_cast<int>(ms % 1000));
  return text;
}

}  // namespace platformpp::detail

namespace platformpp {

bool Activity::Equals(Activity const& other) const {
  detail::Json left;
  detail::Json right;
  bool leftOk = !detail::activityToWire(*this, left);
  bool rightOk = !detail::activityToWire(other, right);
  return leftOk == rightOk && left == right;
}

}  // namespace platformpp
