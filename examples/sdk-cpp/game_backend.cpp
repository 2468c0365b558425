#include "game_backend.h"

#include <curl/curl.h>

namespace {

size_t onBody(char* data, size_t size, size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

std::string quoted(std::string const& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string jsonString(std::string const& json, std::string const& key) {
  auto at = json.find("\"" + key + "\"");
  if (at == std::string::npos) return "";
  auto open = json.find('"', json.find(':', at) + 1);
  auto close = json.find('"', open + 1);
  if (open == std::string::npos || close == std::string::npos) return "";
  return json.substr(open + 1, close - open - 1);
}

std::string mintPlayerToken(std::string const& apiBase, std::string const& botToken,
                            std::string const& playerName, std::string& error) {
  std::string body = "{\"external_user_id\":" + quoted("console-" + playerName) +
                     ",\"preferred_global_name\":" + quoted(playerName) + "}";
  std::string answer;
  CURL* easy = curl_easy_init();
  curl_slist* headers = curl_slist_append(nullptr, ("Authorization: Bot " + botToken).c_str());
  headers = curl_slist_append(headers, "Content-Type: application/json");
  std::string url = apiBase + "/partner-sdk/token/bot";
  curl_easy_setopt(easy, CURLOPT_URL, url.c_str());
  curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(easy, CURLOPT_POSTFIELDS, body.c_str());
  curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, onBody);
  curl_easy_setopt(easy, CURLOPT_WRITEDATA, &answer);
  curl_easy_setopt(easy, CURLOPT_TIMEOUT, 30L);
  CURLcode code = curl_easy_perform(easy);
  long status = 0;
  curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
  curl_slist_free_all(headers);
  curl_easy_cleanup(easy);
  if (code != CURLE_OK) {
    error = std::string("could not reach ") + apiBase + ": " + curl_easy_strerror(code);
    return "";
  }
  std::string token = jsonString(answer, "access_token");
  if (status != 200 || token.empty()) {
    error = "the platform refused to mint a player (HTTP " + std::to_string(status) + "): " + answer;
    return "";
  }
  return token;
}
