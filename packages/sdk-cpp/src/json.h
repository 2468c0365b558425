// The SDK's JSON: nlohmann/json, used only inside the library (never in its public headers), and
// the few readers the wire needs. Wire ids are snowflake strings; the public API uses uint64_t.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

namespace platformpp::detail {

using Json = nlohmann::json;

/// JSON text; invalid UTF-8 in a game's strings is replaced, never thrown.
inline std::string toText(Json const& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

/// Parses text; a discarded value (is_discarded()) when it is not JSON.
inline Json parseJson(std::string const& text) { return Json::parse(text, nullptr, false); }

/// A snowflake (a string of digits, or a number) as uint64_t; 0 when it is neither.
uint64_t idOf(Json const& value);
/// The field `key` of an object as an id; 0 when missing.
uint64_t idAt(Json const& object, char const* key);
/// A snowflake as its wire string.
std::string idText(uint64_t id);
/// The string at `key`, or `fallback` when missing or not a string.
std::string strAt(Json const& object, char const* key, std::string const& fallback = "");
/// The string at `key`, unset when missing, null or not a string.
std::optional<std::string> optStrAt(Json const& object, char const* key);
/// The integer at `key`, or `fallback`.
int64_t intAt(Json const& object, char const* key, int64_t fallback = 0);
/// Whether `key` holds true.
bool boolAt(Json const& object, char const* key);
/// A string-to-string object (metadata) as a map; non-string values are left out.
std::unordered_map<std::string, std::string> stringMap(Json const& object);
/// The object at `key`, or an empty object (a shared one: do not keep a reference past a write).
Json const& objectAt(Json const& object, char const* key);
/// The array at `key`, or an empty array.
Json const& arrayAt(Json const& object, char const* key);
/// `{...known, ...patch}`: the patch's top-level fields replace the known ones.
void mergeInto(Json& known, Json const& patch);

}  // namespace platformpp::detail
