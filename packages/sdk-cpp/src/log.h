// The SDK's log: consumers added with Client::AddLogCallback, each with its minimum severity,
// called inside RunCallbacks. Every line passes the redactor first, so no bearer token, refresh
// token, code verifier or client secret reaches a consumer at any level (spec: Authentication
// 10; the same redactor as the TypeScript SDK's log.ts).
#pragma once

#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "platformpp/enums.h"

namespace platformpp::detail {

class Logger {
 public:
  using Consumer = std::function<void(std::string, LoggingSeverity)>;
  /// Hands a consumer call to the game thread (the client's callback queue).
  using Post = std::function<void(std::function<void()>)>;

  explicit Logger(Post post) : post_(std::move(post)) {}

  void add(Consumer consumer, LoggingSeverity min);
  /// Marks a value as secret from now on (a token, a verifier, a code): removed wherever it
  /// appears in a line. Values shorter than 8 characters are not worth hiding (and would mangle
  /// ordinary words).
  void secret(std::string const& value);
  std::string redact(std::string const& line) const;
  /// Any thread.
  void log(LoggingSeverity severity, std::string const& message);
  void verbose(std::string const& message) { log(LoggingSeverity::Verbose, message); }
  void info(std::string const& message) { log(LoggingSeverity::Info, message); }
  void warn(std::string const& message) { log(LoggingSeverity::Warning, message); }
  void error(std::string const& message) { log(LoggingSeverity::Error, message); }

 private:
  struct Entry {
    Consumer consumer;
    LoggingSeverity min;
  };
  Post post_;
  mutable std::mutex mutex_;
  std::vector<Entry> consumers_;
  std::set<std::string> secrets_;
};

/// The token-shaped values of a line, removed: `Bearer …`, `Bot …`, `key=value`, `"key":"value"`
/// and `key: value` for the secret keys (exposed for its unit test).
std::string redactPatterns(std::string const& line);

}  // namespace platformpp::detail
