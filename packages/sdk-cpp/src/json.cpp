#include "json.h"

#include <cstdlib>

namespace platformpp::detail {

uint64_t idOf(Json const& value) {
  if (value.is_number_unsigned()) return value.get<uint64_t>();
  if (value.is_number_integer()) {
    auto number = value.get<int64_t>();
    return number < 0 ? 0 : static_cast<uint64_t>(number);
  }
  if (!value.is_string()) return 0;
  auto const& text = value.get_ref<std::string const&>();
  if (text.empty() || text.size() > 20) return 0;
  uint64_t id = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return 0;
    uint64_t next = id * 10 + static_cast<uint64_t>(c - '0');
    if (next / 10 != id) return 0;  // beyond 2^64
    id = next;
  }
  return id;
}

uint64_t idAt(Json const& object, char const* key) {
  if (!object.is_object()) return 0;
  auto found = object.find(key);
  return found == object.end() ? 0 : idOf(*found);
}

std::string idText(uint64_t id) { return std::to_string(id); }

std::string strAt(Json const& object, char const* key, std::string const& fallback) {
  if (!object.is_object()) return fallback;
  auto found = object.find(key);
  if (found == object.end() || !found->is_string()) return fallback;
  return found->get<std::string>();
}

std::optional<std::string> optStrAt(Json const& object, char const* key) {
  if (!object.is_object()) return std::nullopt;
  auto found = object.find(key);
  if (found == object.end() || !found->is_string()) return std::nullopt;
  return found->get<std::string>();
}

int64_t intAt(Json const& object, char const* key, int64_t fallback) {
  if (!object.is_object()) return fallback;
  auto found = object.find(key);
  if (found == object.end() || !found->is_number()) return fallback;
  return found->is_number_float() ? static_cast<int64_t>(found->get<double>())
                                  : found->get<int64_t>();
}

bool boolAt(Json const& object, char const* key) {
  if (!object.is_object()) return false;
  auto found = object.find(key);
  return found != object.end() && found->is_boolean() && found->get<bool>();
}

std::unordered_map<std::string, std::string> stringMap(Json const& object) {
  std::unordered_map<std::string, std::string> out;
  if (!object.is_object()) return out;
  for (auto const& [key, value] : object.items()) {
    if (value.is_string()) out.emplace(key, value.get<std::string>());
  }
  return out;
}

Json const& objectAt(Json const& object, char const* key) {
  static Json const empty = Json::object();
  if (!object.is_object()) return empty;
  auto found = object.find(key);
  return found != object.end() && found->is_object() ? *found : empty;
}

Json const& arrayAt(Json const& object, char const* key) {
  static Json const empty = Json::array();
  if (!object.is_object()) return empty;
  auto found = object.find(key);
  return found != object.end() && found->is_array() ? *found : empty;
}

void mergeInto(Json& known, Json const& patch) {
  if (!known.is_object() || !patch.is_object()) {
    known = patch;
    return;
  }
  for (auto const& [key, value] : patch.items()) known[key] = value;
}

}  // namespace platformpp::detail
