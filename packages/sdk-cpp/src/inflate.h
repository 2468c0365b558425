// The gateway's `compress=zlib-stream`: one zlib context for the whole connection; a message is
// complete when its bytes end with the sync-flush marker 00 00 FF FF.
#pragma once

#include <memory>
#include <optional>
#include <string>

namespace platformpp::detail {

class ZlibStream {
 public:
  ZlibStream();
  ~ZlibStream();
  ZlibStream(ZlibStream const&) = delete;
  ZlibStream& operator=(ZlibStream const&) = delete;

  /// Adds a WebSocket message's bytes; the inflated JSON text once a message is complete, unset
  /// while more is to come. `broken` is set when the stream cannot be read.
  std::optional<std::string> push(std::string const& bytes, bool& broken);
  void reset();

 private:
  struct State;
  std::unique_ptr<State> state_;
  std::string pending_;
};

}  // namespace platformpp::detail
