#include "websocket.h"

#include <curl/curl.h>
#include <poll.h>

#include <chrono>
#include <cstring>

#include "encoding.h"

namespace platformpp::detail {

namespace {

constexpr char kAcceptGuid[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
/// A gateway message never comes near this: a larger one breaks the connection (bounded memory).
constexpr uint64_t kMaxMessageBytes = 64ULL * 1024 * 1024;
constexpr long kWriteWaitMs = 10000;
constexpr size_t kMaxHandshakeBytes = 16 * 1024;

enum Opcode : uint8_t {
  kContinuation = 0x0,
  kText = 0x1,
  kBinary = 0x2,
  kClose = 0x8,
  kPing = 0x9,
  kPong = 0xA,
};

bool waitFor(int fd, short events, long timeoutMs) {
  pollfd entry{fd, events, 0};
  return ::poll(&entry, 1, static_cast<int>(timeoutMs)) > 0;
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

WebSocket::~WebSocket() { drop(); }

bool WebSocket::connect(std::string const& url, long timeoutMs, std::string& error) {
  drop();
  bool secure = url.rfind("wss://", 0) == 0;
  if (!secure && url.rfind("ws://", 0) != 0) {
    error = "not a ws:// or wss:// URL: " + url;
    return false;
  }
  std::string rest = url.substr(secure ? 6 : 5);
  size_t slash = rest.find('/');
  std::string host = slash == std::string::npos ? rest : rest.substr(0, slash);
  std::string target = slash == std::string::npos ? "/" : rest.substr(slash);
  std::string transport = (secure ? "https://" : "http://") + host + "/";
  CURL* easy = curl_easy_init();
  easy_ = easy;
  curl_easy_setopt(easy, CURLOPT_URL, transport.c_str());
  curl_easy_setopt(easy, CURLOPT_CONNECT_ONLY, 1L);
  curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, timeoutMs);
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  CURLcode code = curl_easy_perform(easy);
  if (code != CURLE_OK) {
    error = curl_easy_strerror(code);
    drop();
    return false;
  }
  curl_socket_t socket = CURL_SOCKET_BAD;
  curl_easy_getinfo(easy, CURLINFO_ACTIVESOCKET, &socket);
  fd_ = static_cast<int>(socket);
  if (!handshake(host, target, timeoutMs, error)) {
    drop();
    return false;
  }
  return true;
}

bool WebSocket::handshake(std::string const& host, std::string const& target, long timeoutMs,
                          std::string& error) {
  std::string key = base64(randomBytes(16));
  std::string request = "GET " + target + " HTTP/1.1\r\nHost: " + host +
                        "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " +
                        key + "\r\nSec-WebSocket-Version: 13\r\n\r\n";
  if (!sendAll(request)) {
    error = "the upgrade request could not be sent";
    return false;
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
  std::string answer;
  size_t end = std::string::npos;
  while ((end = answer.find("\r\n\r\n")) == std::string::npos) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0 || answer.size() > kMaxHandshakeBytes) {
      error = "no upgrade answer in time";
      return false;
    }
    char chunk[4096];
    size_t got = 0;
    CURLcode code = curl_easy_recv(static_cast<CURL*>(easy_), chunk, sizeof(chunk), &got);
    if (code == CURLE_AGAIN) {
      waitFor(fd_, POLLIN, left);
      continue;
    }
    if (code != CURLE_OK || got == 0) {
      error = "the connection closed during the upgrade";
      return false;
    }
    answer.append(chunk, got);
  }
  std::string head = lower(answer.substr(0, end));
  buffer_ = answer.substr(end + 4);
  if (head.rfind("http/1.1 101", 0) != 0) {
    error = "the server refused the upgrade: " + answer.substr(0, answer.find("\r\n"));
    return false;
  }
  std::string expected = lower(base64(sha1(key + kAcceptGuid)));
  if (head.find("sec-websocket-accept: " + expected) == std::string::npos) {
    error = "the upgrade answer's Sec-WebSocket-Accept does not match";
    return false;
  }
  return true;
}

bool WebSocket::sendAll(std::string const& bytes) {
  size_t sent = 0;
  while (sent < bytes.size()) {
    size_t wrote = 0;
    CURLcode code = curl_easy_send(static_cast<CURL*>(easy_), bytes.data() + sent,
                                   bytes.size() - sent, &wrote);
    if (code == CURLE_AGAIN) {
      if (!waitFor(fd_, POLLOUT, kWriteWaitMs)) return false;
      continue;
    }
    if (code != CURLE_OK) return false;
    sent += wrote;
  }
  return true;
}

bool WebSocket::sendFrame(uint8_t opcode, std::string const& payload) {
  if (easy_ == nullptr) return false;
  std::string frame;
  frame += static_cast<char>(0x80 | opcode);
  uint64_t size = payload.size();
  if (size < 126) {
    frame += static_cast<char>(0x80 | size);
  } else if (size <= 0xFFFF) {
    frame += static_cast<char>(0x80 | 126);
    frame += static_cast<char>((size >> 8) & 0xFF);
    frame += static_cast<char>(size & 0xFF);
  } else {
    frame += static_cast<char>(0x80 | 127);
    for (int shift = 56; shift >= 0; shift -= 8) frame += static_cast<char>((size >> shift) & 0xFF);
  }
  // A client masks every frame (RFC 6455 §5.3).
  std::string mask = randomBytes(4);
  frame += mask;
  for (size_t i = 0; i < payload.size(); ++i) frame += static_cast<char>(payload[i] ^ mask[i % 4]);
  return sendAll(frame);
}

bool WebSocket::sendText(std::string const& text) { return sendFrame(kText, text); }

void WebSocket::close(uint16_t code, std::string const& reason) {
  if (easy_ == nullptr) return;
  std::string payload;
  payload += static_cast<char>(code >> 8);
  payload += static_cast<char>(code & 0xFF);
  payload += reason.substr(0, 120);
  sendFrame(kClose, payload);
  drop();
}

void WebSocket::drop() {
  if (easy_ != nullptr) curl_easy_cleanup(static_cast<CURL*>(easy_));
  easy_ = nullptr;
  fd_ = -1;
  buffer_.clear();
  fragments_.clear();
}

WebSocket::ReadStatus WebSocket::readAvailable(std::vector<Message>& out) {
  if (easy_ == nullptr) return ReadStatus::Closed;
  for (;;) {
    char chunk[16384];
    size_t got = 0;
    CURLcode code = curl_easy_recv(static_cast<CURL*>(easy_), chunk, sizeof(chunk), &got);
    if (code == CURLE_AGAIN) break;
    if (code != CURLE_OK || got == 0) {
      // Whatever complete frames came before the end still count (a close frame among them
      // names the code).
      if (parseFrames(out)) {
        closeCode_ = 1006;
        closeReason_ = code == CURLE_OK ? "connection closed" : curl_easy_strerror(code);
      }
      drop();
      return ReadStatus::Closed;
    }
    buffer_.append(chunk, got);
  }
  if (!parseFrames(out)) {
    drop();
    return ReadStatus::Closed;
  }
  return ReadStatus::Open;
}

WebSocket::ReadStatus WebSocket::readBuffered(std::vector<Message>& out) {
  if (easy_ == nullptr) return ReadStatus::Closed;
  if (!parseFrames(out)) {
    drop();
    return ReadStatus::Closed;
  }
  return ReadStatus::Open;
}

bool WebSocket::parseFrames(std::vector<Message>& out) {
  for (;;) {
    if (buffer_.size() < 2) return true;
    auto byte = [&](size_t i) { return static_cast<uint8_t>(buffer_[i]); };
    bool fin = (byte(0) & 0x80) != 0;
    uint8_t opcode = byte(0) & 0x0F;
    bool masked = (byte(1) & 0x80) != 0;
    uint64_t size = byte(1) & 0x7F;
    size_t offset = 2;
    if (size == 126) {
      if (buffer_.size() < 4) return true;
      size = (static_cast<uint64_t>(byte(2)) << 8) | byte(3);
      offset = 4;
    } else if (size == 127) {
      if (buffer_.size() < 10) return true;
      size = 0;
      for (size_t i = 0; i < 8; ++i) size = (size << 8) | byte(2 + i);
      offset = 10;
    }
    if (size > kMaxMessageBytes) {
      closeCode_ = 1009;
      closeReason_ = "message too big";
      return false;
    }
    size_t maskOffset = offset;
    if (masked) offset += 4;
    if (buffer_.size() < offset + size) return true;
    std::string payload = buffer_.substr(offset, static_cast<size_t>(size));
    if (masked) {
      for (size_t i = 0; i < payload.size(); ++i) payload[i] ^= buffer_[maskOffset + i % 4];
    }
    buffer_.erase(0, offset + static_cast<size_t>(size));
    switch (opcode) {
      case kPing:
        sendFrame(kPong, payload);
        break;
      case kPong:
        break;
      case kClose:
        closeCode_ = payload.size() >= 2 ? static_cast<uint16_t>((static_cast<uint8_t>(payload[0]) << 8) |
                                                                 static_cast<uint8_t>(payload[1]))
                                         : 1005;
        closeReason_ = payload.size() > 2 ? payload.substr(2) : "";
        // Answer the close (RFC 6455 §5.5.1), best effort: the connection ends either way.
        sendFrame(kClose, payload.substr(0, 2));
        return false;
      case kText:
      case kBinary:
      case kContinuation: {
        if (opcode != kContinuation) {
          fragmentOpcode_ = opcode;
          fragments_.clear();
        }
        if (fragments_.size() + payload.size() > kMaxMessageBytes) {
          closeCode_ = 1009;
          closeReason_ = "message too big";
          return false;
        }
        fragments_ += payload;
        if (fin) {
          out.push_back({fragmentOpcode_ == kBinary, std::move(fragments_)});
          fragments_.clear();
        }
        break;
      }
      default:
        closeCode_ = 1002;
        closeReason_ = "unknown opcode";
        return false;
    }
  }
}

}  // namespace platformpp::detail
