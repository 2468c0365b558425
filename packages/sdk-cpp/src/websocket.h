// A WebSocket client (RFC 6455) for the gateway: libcurl opens the TCP or TLS connection
// (CURLOPT_CONNECT_ONLY, so wss:// gets curl's TLS and certificate checks), this class does the
// upgrade handshake and the framing. Used from the gateway thread only; reads never block
// (readAvailable after poll() says the socket is readable), writes wait for room.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace platformpp::detail {

class WebSocket {
 public:
  struct Message {
    bool binary = false;
    std::string data;
  };
  enum class ReadStatus { Open, Closed };

  WebSocket() = default;
  ~WebSocket();
  WebSocket(WebSocket const&) = delete;
  WebSocket& operator=(WebSocket const&) = delete;

  /// Connects and upgrades (blocking, up to timeoutMs); false with `error` set when it failed.
  bool connect(std::string const& url, long timeoutMs, std::string& error);
  /// The socket to poll, -1 when closed.
  int fd() const { return fd_; }
  bool open() const { return easy_ != nullptr; }
  bool sendText(std::string const& text);
  /// Sends a close frame (best effort) and closes the connection.
  void close(uint16_t code, std::string const& reason);
  /// Drops the connection without a close frame.
  void drop();
  /// Reads what has arrived; complete messages go to `out`. Closed when the peer closed (its
  /// close code in closeCode(), 1006 for a dropped connection) or the stream broke.
  ReadStatus readAvailable(std::vector<Message>& out);
  /// The messages that came with the upgrade's answer (a server may send its first message in
  /// the same packet): read them right after connect(), before waiting on the socket.
  ReadStatus readBuffered(std::vector<Message>& out);
  uint16_t closeCode() const { return closeCode_; }
  std::string const& closeReason() const { return closeReason_; }

 private:
  bool sendFrame(uint8_t opcode, std::string const& payload);
  bool sendAll(std::string const& bytes);
  bool handshake(std::string const& host, std::string const& target, long timeoutMs,
                 std::string& error);
  /// Parses complete frames out of the buffer; false when the stream is broken or closed.
  bool parseFrames(std::vector<Message>& out);

  void* easy_ = nullptr;
  int fd_ = -1;
  std::string buffer_;
  std::string fragments_;
  uint8_t fragmentOpcode_ = 0;
  uint16_t closeCode_ = 1006;
  std::string closeReason_;
};

}  // namespace platformpp::detail
