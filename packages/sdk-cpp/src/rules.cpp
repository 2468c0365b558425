#include "rules.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace platformpp::detail {

namespace {

/// ICU's root order of ASCII's spaces, punctuation and symbols (which sort before digits).
constexpr char kPunctuationOrder[] = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";
constexpr uint32_t kSpaceWeight = 100;
constexpr uint32_t kOtherSymbolWeight = 300;
constexpr uint32_t kDigitWeight = 1000;
constexpr uint32_t kLetterWeight = 2000;
constexpr uint32_t kOtherWeight = 3000;

/// Latin-1 Supplement and Latin Extended-A letters (U+00C0–U+017F) as their base letters at the
/// primary level ("" for those that are letters of their own, which sort after z).
constexpr char const* kLatinBase[] = {
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",    // C0
    "d", "n", "o", "o", "o", "o", "o", "", "o", "u", "u", "u", "u", "y", "", "ss",      // D0
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",    // E0
    "d", "n", "o", "o", "o", "o", "o", "", "o", "u", "u", "u", "u", "y", "", "y",       // F0
    "a", "a", "a", "a", "a", "a", "c", "c", "c", "c", "c", "c", "c", "c", "d", "d",     // 100
    "d", "d", "e", "e", "e", "e", "e", "e", "e", "e", "e", "e", "g", "g", "g", "g",     // 110
    "g", "g", "g", "g", "h", "h", "h", "h", "i", "i", "i", "i", "i", "i", "i", "i",     // 120
    "i", "", "ij", "ij", "j", "j", "k", "k", "", "l", "l", "l", "l", "l", "l", "l",     // 130
    "l", "l", "l", "n", "n", "n", "n", "n", "n", "", "", "", "o", "o", "o", "o",        // 140
    "o", "o", "oe", "oe", "r", "r", "r", "r", "r", "r", "s", "s", "s", "s", "s", "s",   // 150
    "s", "s", "t", "t", "t", "t", "", "", "u", "u", "u", "u", "u", "u", "u", "u",       // 160
    "u", "u", "u", "u", "w", "w", "y", "y", "y", "z", "z", "z", "z", "z", "z", "s",     // 170
};

struct Element {
  uint32_t weight;
  std::string digits;  // a digit run's value, without leading zeros
};

/// Decodes one UTF-8 code point at `i` (advancing it); U+FFFD for a broken sequence.
uint32_t nextCodePoint(std::string const& text, size_t& i) {
  auto byte = static_cast<unsigned char>(text[i++]);
  if (byte < 0x80) return byte;
  int extra = byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : byte >= 0xC0 ? 1 : -1;
  if (extra < 0) return 0xFFFD;
  uint32_t cp = byte & (0x3F >> extra);
  for (int k = 0; k < extra; ++k) {
    if (i >= text.size() || (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) return 0xFFFD;
    cp = (cp << 6) | (static_cast<unsigned char>(text[i++]) & 0x3F);
  }
  return cp;
}

bool ignorable(uint32_t cp) {
  return (cp < 0x20 && (cp < 0x09 || cp > 0x0D)) || (cp >= 0x7F && cp <= 0x9F) || cp == 0xAD ||
         (cp >= 0x200B && cp <= 0x200F) || cp == 0xFEFF;
}

void pushLetters(std::vector<Element>& out, char const* letters) {
  for (char const* c = letters; *c != '\0'; ++c) {
    out.push_back({kLetterWeight + static_cast<uint32_t>(*c - 'a'), {}});
  }
}

std::vector<Element> elementsOf(std::string const& text) {
  std::vector<Element> out;
  size_t i = 0;
  while (i < text.size()) {
    uint32_t cp = nextCodePoint(text, i);
    if (cp >= 0xFF01 && cp <= 0xFF5E) cp -= 0xFEE0;  // fullwidth forms
    if (ignorable(cp)) continue;
    if (cp >= '0' && cp <= '9') {
      std::string digits(1, static_cast<char>(cp));
      while (i < text.size() && text[i] >= '0' && text[i] <= '9') digits += text[i++];
      size_t first = digits.find_first_not_of('0');
      out.push_back({kDigitWeight, first == std::string::npos ? "" : digits.substr(first)});
    } else if (cp >= 'A' && cp <= 'Z') {
      out.push_back({kLetterWeight + (cp - 'A'), {}});
    } else if (cp >= 'a' && cp <= 'z') {
      out.push_back({kLetterWeight + (cp - 'a'), {}});
    } else if (cp < 0x80) {
      char const* at = cp >= 0x09 && cp <= 0x0D ? nullptr
                                                : std::strchr(kPunctuationOrder, static_cast<int>(cp));
      uint32_t rank = at == nullptr ? 0 : static_cast<uint32_t>(at - kPunctuationOrder);
      out.push_back({cp <= ' ' ? kSpaceWeight - 1 + rank : kSpaceWeight + rank, {}});
    } else if (cp >= 0xC0 && cp <= 0x17F && kLatinBase[cp - 0xC0][0] != '\0') {
      pushLetters(out, kLatinBase[cp - 0xC0]);
    } else if (cp < 0xC0) {
      out.push_back({kOtherSymbolWeight + cp, {}});
    } else {
      out.push_back({kOtherWeight + cp, {}});
    }
  }
  return out;
}

int compareElements(Element const& a, Element const& b) {
  if (a.weight != b.weight) return a.weight < b.weight ? -1 : 1;
  if (a.weight != kDigitWeight) return 0;
  if (a.digits.size() != b.digits.size()) return a.digits.size() < b.digits.size() ? -1 : 1;
  int order = a.digits.compare(b.digits);
  return order < 0 ? -1 : order > 0 ? 1 : 0;
}

bool isVoice(int type) { return type == 2 || type == 13; }
bool isText(int type) { return type == 0 || type == 5; }

}  // namespace

int compareDisplayNames(std::string const& a, std::string const& b) {
  auto left = elementsOf(a);
  auto right = elementsOf(b);
  size_t common = std::min(left.size(), right.size());
  for (size_t i = 0; i < common; ++i) {
    int order = compareElements(left[i], right[i]);
    if (order != 0) return order;
  }
  if (left.size() == right.size()) return 0;
  return left.size() < right.size() ? -1 : 1;
}

bool friendBefore(std::string const& nameA, uint64_t idA, std::string const& nameB, uint64_t idB) {
  int order = compareDisplayNames(nameA, nameB);
  if (order != 0) return order < 0;
  return std::to_string(idA) < std::to_string(idB);
}

StatusType statusOf(RelationshipType discord, RelationshipType game,
                    std::optional<std::string> const& presenceStatus) {
  if (discord == RelationshipType::Blocked || game == RelationshipType::Blocked) {
    return StatusType::Blocked;
  }
  if (!presenceStatus) return StatusType::Offline;
  auto const& status = *presenceStatus;
  if (status == "online") return StatusType::Online;
  if (status == "idle") return StatusType::Idle;
  if (status == "dnd") return StatusType::Dnd;
  if (status == "invisible") return StatusType::Invisible;
  if (status == "offline") return StatusType::Offline;
  if (status == "streaming") return StatusType::Streaming;
  return StatusType::Unknown;
}

std::optional<RelationshipGroupType> friendGroup(FriendFacts const& facts) {
  if (facts.discord != RelationshipType::Friend && facts.game != RelationshipType::Friend) {
    return std::nullopt;
  }
  StatusType status = statusOf(facts.discord, facts.game, facts.status);
  if (status == StatusType::Offline || status == StatusType::Invisible) {
    return RelationshipGroupType::Offline;
  }
  return facts.playingThisGame ? RelationshipGroupType::OnlinePlayingGame
                               : RelationshipGroupType::OnlineElsewhere;
}

std::vector<size_t> guildChannelOrder(std::vector<ChannelOrderEntry> const& channels) {
  auto byPosition = [&](size_t x, size_t y) {
    auto const& a = channels[x];
    auto const& b = channels[y];
    if (isVoice(a.type) != isVoice(b.type)) return !isVoice(a.type);
    if (a.position != b.position) return a.position < b.position;
    // Older first: a shorter id is older; equal lengths compare as text, as the TS SDK does.
    std::string ida = std::to_string(a.id);
    std::string idb = std::to_string(b.id);
    if (ida.size() != idb.size()) return ida.size() < idb.size();
    return ida < idb;
  };
  std::vector<size_t> categories;
  std::vector<size_t> listed;
  for (size_t i = 0; i < channels.size(); ++i) {
    if (channels[i].type == 4) categories.push_back(i);
    if (isText(channels[i].type) || isVoice(channels[i].type)) listed.push_back(i);
  }
  std::stable_sort(categories.begin(), categories.end(), byPosition);
  auto isCategory = [&](std::optional<uint64_t> parent) {
    return parent && std::any_of(categories.begin(), categories.end(),
                                 [&](size_t c) { return channels[c].id == *parent; });
  };
  std::vector<size_t> sorted;
  for (size_t i : listed) {
    if (!isCategory(channels[i].parentId)) sorted.push_back(i);
  }
  std::stable_sort(sorted.begin(), sorted.end(), byPosition);
  for (size_t category : categories) {
    sorted.push_back(category);
    std::vector<size_t> inside;
    for (size_t i : listed) {
      if (channels[i].parentId == channels[category].id) inside.push_back(i);
    }
    std::stable_sort(inside.begin(), inside.end(), byPosition);
    sorted.insert(sorted.end(), inside.begin(), inside.end());
  }
  return sorted;
}

bool cacheAnswers(ChannelHistory const* cached, int limit) {
  return cached != nullptr &&
         (cached->ids.size() >= static_cast<size_t>(std::max(limit, 0)) || cached->complete);
}

ChannelHistory mergeIds(ChannelHistory history, std::vector<uint64_t> const& ids) {
  history.ids.insert(history.ids.end(), ids.begin(), ids.end());
  std::sort(history.ids.begin(), history.ids.end());
  history.ids.erase(std::unique(history.ids.begin(), history.ids.end()), history.ids.end());
  return history;
}

}  // namespace platformpp::detail
