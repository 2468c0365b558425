#include "log.h"

#include <array>
#include <cctype>
#include <string_view>

namespace platformpp::detail {

namespace {

constexpr std::string_view kRedacted = "[redacted]";

// Longest first where one key ends another's prefix.
constexpr std::array<std::string_view, 9> kKeys = {
    "parent_client_secret", "parent_access_token", "external_auth_token",
    "refresh_token",        "code_verifier",       "client_secret",
    "access_token",         "id_token",            "token",
};

bool isWord(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool isSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool isTokenChar(char c) {
  return isWord(c) || c == '.' || c == '~' || c == '+' || c == '/' || c == '=' || c == '-';
}
bool endsValue(char c) {
  return isSpace(c) || c == '&' || c == '"' || c == '\'' || c == ',' || c == '}';
}

bool matchesAt(std::string const& text, size_t at, std::string_view word) {
  if (at + word.size() > text.size()) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[at + i])) != word[i]) return false;
  }
  return true;
}

size_t skipSpaces(std::string const& text, size_t at) {
  while (at < text.size() && isSpace(text[at])) ++at;
  return at;
}

/// `Bearer x`, `Bot x` at `at`: the end of the match, 0 when none.
size_t authScheme(std::string const& text, size_t at, std::string& out) {
  for (std::string_view scheme : {std::string_view("bearer"), std::string_view("bot")}) {
    size_t end = at + scheme.size();
    if (!matchesAt(text, at, scheme) || end >= text.size() || !isSpace(text[end])) continue;
    size_t value = skipSpaces(text, end);
    size_t stop = value;
    while (stop < text.size() && isTokenChar(text[stop])) ++stop;
    if (stop == value) continue;
    out.append(text, at, scheme.size()).append(" ").append(kRedacted);
    return stop;
  }
  return 0;
}

/// `key=v`, `"key":"v"`, `key: v` at `at`: the end of the match, 0 when none.
size_t secretKey(std::string const& text, size_t at, std::string& out) {
  for (std::string_view key : kKeys) {
    size_t end = at + key.size();
    if (!matchesAt(text, at, key) || (end < text.size() && isWord(text[end]))) continue;
    std::string original = text.substr(at, key.size());
    if (end < text.size() && text[end] == '=') {
      size_t stop = end + 1;
      while (stop < text.size() && !endsValue(text[stop])) ++stop;
      if (stop > end + 1) {
        out.append(original).append("=").append(kRedacted);
        return stop;
      }
    }
    if (at > 0 && text[at - 1] == '"' && end < text.size() && text[end] == '"') {
      size_t colon = skipSpaces(text, end + 1);
      if (colon < text.size() && text[colon] == ':') {
        size_t quote = skipSpaces(text, colon + 1);
        size_t close = quote < text.size() && text[quote] == '"' ? text.find('"', quote + 1)
                                                                 : std::string::npos;
        if (close != std::string::npos) {
          out.append(original).append("\":\"").append(kRedacted).append("\"");
          return close + 1;
        }
      }
    }
    if (key != "token") {
      size_t colon = skipSpaces(text, end);
      if (colon < text.size() && text[colon] == ':') {
        size_t value = skipSpaces(text, colon + 1);
        size_t stop = value;
        while (stop < text.size() && !isSpace(text[stop]) && text[stop] != ',' &&
               text[stop] != '}') {
          ++stop;
        }
        if (stop > value) {
          out.append(original).append(": ").append(kRedacted);
          return stop;
        }
      }
    }
  }
  return 0;
}

}  // namespace

std::string redactPatterns(std::string const& line) {
  std::string out;
  out.reserve(line.size());
  size_t i = 0;
  while (i < line.size()) {
    if (i == 0 || !isWord(line[i - 1])) {
      size_t next = authScheme(line, i, out);
      if (next == 0) next = secretKey(line, i, out);
      if (next != 0) {
        i = next;
        continue;
      }
    }
    out += line[i++];
  }
  return out;
}

void Logger::add(Consumer consumer, LoggingSeverity min) {
  std::lock_guard lock(mutex_);
  consumers_.push_back({std::move(consumer), min});
}

void Logger::secret(std::string const& value) {
  if (value.size() < 8) return;
  std::lock_guard lock(mutex_);
  secrets_.insert(value);
}

std::string Logger::redact(std::string const& message) const {
  std::string line = message;
  {
    std::lock_guard lock(mutex_);
    for (auto const& secret : secrets_) {
      for (size_t at = line.find(secret); at != std::string::npos;
           at = line.find(secret, at + kRedacted.size())) {
        line.replace(at, secret.size(), kRedacted);
      }
    }
  }
  return redactPatterns(line);
}

void Logger::log(LoggingSeverity severity, std::string const& message) {
  if (severity >= LoggingSeverity::None) return;
  std::vector<Consumer> due;
  {
    std::lock_guard lock(mutex_);
    for (auto const& entry : consumers_) {
      if (severity >= entry.min) due.push_back(entry.consumer);
    }
  }
  if (due.empty()) return;
  std::string line = redact(message);
  for (auto& consumer : due) {
    post_([consumer = std::move(consumer), line, severity] { consumer(line, severity); });
  }
}

}  // namespace platformpp::detail
