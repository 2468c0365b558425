// The gateway protocol on the gateway thread: HELLO and IDENTIFY or RESUME, heartbeats, the
// dispatches handed to the client's queue, closes (fatal, resumable, or a fresh session) and the
// backoff between attempts. gateway.cpp runs the thread, its commands and the socket.
#include <algorithm>
#include <cmath>

#include "core.h"
#include "gateway.h"
#include "platform.h"
#include "version.h"

namespace platformpp::detail {
namespace {

enum Op : int {
  kDispatch = 0,
  kHeartbeat = 1,
  kIdentify = 2,
  kPresenceUpdate = 3,
  kResume = 6,
  kReconnect = 7,
  kInvalidSession = 9,
  kHello = 10,
  kHeartbeatAck = 11,
};

/// Close codes after which reconnecting cannot help: the client stops and says why.
char const* fatalReason(uint16_t code) {
  switch (code) {
    case 4004:
      return "the token was refused or has been revoked: authorize again, or pass a new token to "
             "UpdateToken()";
    case 4010:
      return "invalid shard";
    case 4011:
      return "sharding required";
    case 4012:
      return "invalid API version";
    case 4013:
      return "invalid intents";
    case 4014:
      return "disallowed intents";
    default:
      return nullptr;
  }
}

/// A close the client makes to reconnect: not 1000/1001, which would end the session.
constexpr uint16_t kReconnectCloseCode = 4900;
constexpr int64_t kMaxBackoffMs = 30000;

}  // namespace
void Gateway::onMessage(std::string const& text) {
  Json payload = parseJson(text);
  if (!payload.is_object()) {
    core_->logger.warn("The gateway sent a frame that is not JSON; reconnecting.");
    reconnect();
    return;
  }
  auto seq = payload.find("s");
  if (seq != payload.end() && seq->is_number_integer()) seq_ = seq->get<int64_t>();
  int op = static_cast<int>(intAt(payload, "op", -1));
  Json const& d = payload.contains("d") ? payload["d"] : Json();
  switch (op) {
    case kHello:
      onHello(intAt(d, "heartbeat_interval", 41250));
      return;
    case kHeartbeatAck:
      acked_ = true;
      return;
    case kHeartbeat:
      beat();
      return;
    case kReconnect:
      core_->logger.info("The gateway asked for a reconnect; resuming.");
      reconnect();
      return;
    case kInvalidSession: {
      bool resumable = d.is_boolean() && d.get<bool>();
      if (!resumable) clearSession();
      core_->logger.info(resumable ? "Session invalid; resuming." : "Session ended; identifying anew.");
      reconnect();
      return;
    }
    case kDispatch:
      onDispatch(strAt(payload, "t"), d);
      return;
    default:
      return;
  }
}

void Gateway::onHello(int64_t intervalMs) {
  setStatus(Client::Status::Connected, Client::Error::None, 0);
  heartbeatIntervalMs_ = std::max<int64_t>(intervalMs, 1000);
  acked_ = true;
  std::uniform_real_distribution<double> jitter(0, 1);
  nextBeat_ = Clock::now() + std::chrono::milliseconds(static_cast<int64_t>(
                                 static_cast<double>(heartbeatIntervalMs_) * jitter(random_)));
  std::string token = core_->authorization();
  if (!sessionId_.empty()) {
    sendPayload(kResume, Json{{"token", token},
                              {"session_id", sessionId_},
                              {"seq", seq_ ? Json(*seq_) : Json()}});
  } else {
    sendPayload(kIdentify, Json{{"token", token},
                                {"intents", 0},
                                {"properties",
                                 {{"os", platformName()},
                                  {"browser", "guildhall-social-sdk-cpp"},
                                  {"device", kVersionString}}}});
  }
}

void Gateway::onDispatch(std::string const& type, Json const& data) {
  auto core = core_;
  auto post = [core, type, data] { core->post([core, type, data] { core->dispatch(type, data); }); };
  if (type == "READY") {
    sessionId_ = strAt(data, "session_id");
    resumeUrl_ = strAt(data, "resume_gateway_url", gatewayUrl_);
    attempts_ = 0;
    post();
    setStatus(Client::Status::Ready, Client::Error::None, 0);
    // The platform keeps no presence for a new session: the player's goes out again.
    sendPresence();
    return;
  }
  if (type == "RESUMED") {
    attempts_ = 0;
    core_->logger.info("Resumed the gateway session.");
    setStatus(Client::Status::Ready, Client::Error::None, 0);
    post();
    return;
  }
  post();
}

void Gateway::onClose(uint16_t code, std::string const& reason) {
  nextBeat_.reset();
  if (stopping_) return;
  if (char const* fatal = fatalReason(code)) {
    clearSession();
    core_->logger.error("The gateway closed the connection (" + std::to_string(code) +
                        "): " + fatal + ".");
    setStatus(Client::Status::Disconnected, Client::Error::UnexpectedClose, code);
    return;
  }
  if (code == 4007 || code == 4009) clearSession();
  core_->logger.warn("The gateway connection closed (" + std::to_string(code) +
                     (reason.empty() ? "" : ": " + reason) + "); reconnecting.");
  retryLater(Client::Error::UnexpectedClose, code);
}

void Gateway::reconnect() {
  nextBeat_.reset();
  generation_ += 1;
  if (socket_.open()) socket_.close(kReconnectCloseCode, "reconnect");
  if (stopping_) return;
  setStatus(Client::Status::Reconnecting, Client::Error::None, 0);
  std::uniform_int_distribution<int> delay(250, 1000);
  retryAt_ = Clock::now() + std::chrono::milliseconds(delay(random_));
}

void Gateway::retryLater(Client::Error error, int32_t detail) {
  if (stopping_) return;
  setStatus(Client::Status::Reconnecting, error, detail);
  double base = std::min<double>(kMaxBackoffMs, 1000 * std::pow(2, std::min(attempts_, 16)));
  std::uniform_real_distribution<double> jitter(0.5, 1.0);
  attempts_ += 1;
  retryAt_ = Clock::now() + std::chrono::milliseconds(static_cast<int64_t>(base * jitter(random_)));
}

void Gateway::beat() {
  acked_ = false;
  sendPayload(kHeartbeat, seq_ ? Json(*seq_) : Json());
}

void Gateway::sendPayload(int op, Json const& d) {
  if (!socket_.open()) return;
  if (!socket_.sendText(toText(Json{{"op", op}, {"d", d}}))) {
    core_->logger.warn("A gateway frame could not be sent; reconnecting.");
    reconnect();
  }
}

void Gateway::sendPresence() { sendPayload(kPresenceUpdate, presence_); }

void Gateway::clearSession() {
  sessionId_.clear();
  seq_.reset();
}

void Gateway::setStatus(Client::Status status, Client::Error error, int32_t detail) {
  if (status == status_ && error == Client::Error::None) return;
  status_ = status;
  std::string line = "Status: " + Client::StatusToString(status);
  if (error != Client::Error::None) {
    line += " (" + Client::ErrorToString(error) + ", " + std::to_string(detail) + ")";
  }
  core_->logger.info(line);
  auto core = core_;
  core_->post([core, status, error, detail] {
    Client::OnStatusChanged callback;
    {
      std::lock_guard lock(core->mutex);
      core->status = status;
      callback = core->callbacks.statusChanged;
    }
    if (callback) callback(status, error, detail);
  });
}

}  // namespace platformpp::detail
