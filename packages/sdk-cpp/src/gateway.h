// The client's gateway connection, on its own thread: HELLO, IDENTIFY with the player's token,
// heartbeats with zombie detection (no ACK: reconnect), RESUME after a drop (with backoff), a
// fresh IDENTIFY after 4007/4009 or an INVALID_SESSION that cannot resume, and a stop on the close
// codes no retry can fix (4004: the token was refused or revoked). The same machine as the
// TypeScript SDK's gateway.ts, plus zlib-stream. Status changes and dispatches go to the client's
// callback queue in the order they happened.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>

#include "inflate.h"
#include "json.h"
#include "platformpp/client.h"
#include "websocket.h"

namespace platformpp::detail {

class Core;
class Worker;

class Gateway {
 public:
  Gateway(std::shared_ptr<Core> core, Worker& worker);
  ~Gateway();
  Gateway(Gateway const&) = delete;
  Gateway& operator=(Gateway const&) = delete;

  void start();
  /// Closes the session (1000) and ends the thread.
  void stop();
  /// Opens the connection; no-op when one is under way (any thread).
  void connect();
  /// Closes the connection and ends the session (any thread).
  void disconnect();
  /// The op 3 payload: sent now when Ready, and after every READY (any thread).
  void setPresence(Json presence);

 private:
  struct Command {
    enum Kind { Connect, Disconnect, Presence, GatewayUrl, HttpWait, Stop };
    Command(Kind k, Json v = nullptr, bool f = false) : kind(k), value(std::move(v)), flag(f) {}
    Kind kind;
    Json value;
    bool flag;
    std::string text;
  };
  using Clock = std::chrono::steady_clock;

  void push(Command command);
  void run();
  bool handleCommands();
  void begin();
  void openSocket(std::string const& base);
  void onGatewayUrl(Command const& command);
  /// Handles what a read brought (`closed`: the connection ended after these messages).
  void consume(std::vector<WebSocket::Message> const& messages, bool closed);
  void onMessage(std::string const& text);
  void onHello(int64_t intervalMs);
  void onDispatch(std::string const& type, Json const& data);
  void onClose(uint16_t code, std::string const& reason);
  void reconnect();
  void retryLater(Client::Error error, int32_t detail);
  void beat();
  void sendPayload(int op, Json const& d);
  void sendPresence();
  void clearSession();
  void setStatus(Client::Status status, Client::Error error, int32_t detail);
  int pollTimeoutMs() const;

  std::shared_ptr<Core> core_;
  Worker& worker_;
  std::thread thread_;
  int wake_[2] = {-1, -1};
  std::mutex mutex_;
  std::deque<Command> commands_;
  // Gateway thread only:
  Client::Status status_ = Client::Status::Disconnected;
  WebSocket socket_;
  ZlibStream zlib_;
  std::string sessionId_;
  std::string resumeUrl_;
  std::string gatewayUrl_;
  std::optional<int64_t> seq_;
  int64_t heartbeatIntervalMs_ = 0;
  std::optional<Clock::time_point> nextBeat_;
  std::optional<Clock::time_point> retryAt_;
  bool acked_ = true;
  int attempts_ = 0;
  bool stopping_ = false;  // Disconnect was asked: the next close is the player's
  bool waitingUrl_ = false;
  bool exiting_ = false;
  /// Counts connections: messages of a dropped one are not read.
  uint64_t generation_ = 0;
  Json presence_;
  std::mt19937 random_;
};

}  // namespace platformpp::detail
