#include "inflate.h"

#include <zlib.h>

#include <cstring>

namespace platformpp::detail {

namespace {
/// Inflated gateway messages are bounded like WebSocket messages.
constexpr size_t kMaxInflatedBytes = 64 * 1024 * 1024;
}  // namespace

struct ZlibStream::State {
  z_stream stream{};
  bool ready = false;
};

ZlibStream::ZlibStream() : state_(std::make_unique<State>()) { reset(); }

ZlibStream::~ZlibStream() {
  if (state_->ready) inflateEnd(&state_->stream);
}

void ZlibStream::reset() {
  if (state_->ready) inflateEnd(&state_->stream);
  std::memset(&state_->stream, 0, sizeof(state_->stream));
  state_->ready = inflateInit(&state_->stream) == Z_OK;
  pending_.clear();
}

std::optional<std::string> ZlibStream::push(std::string const& bytes, bool& broken) {
  broken = false;
  pending_ += bytes;
  static constexpr unsigned char kSuffix[] = {0x00, 0x00, 0xFF, 0xFF};
  if (pending_.size() < 4 || std::memcmp(pending_.data() + pending_.size() - 4, kSuffix, 4) != 0) {
    return std::nullopt;
  }
  if (!state_->ready) {
    broken = true;
    return std::nullopt;
  }
  auto& stream = state_->stream;
  stream.next_in = reinterpret_cast<Bytef*>(pending_.data());
  stream.avail_in = static_cast<uInt>(pending_.size());
  std::string out;
  char chunk[16384];
  do {
    stream.next_out = reinterpret_cast<Bytef*>(chunk);
    stream.avail_out = sizeof(chunk);
    int code = inflate(&stream, Z_SYNC_FLUSH);
    if (code != Z_OK && code != Z_BUF_ERROR) {
      broken = true;
      pending_.clear();
      return std::nullopt;
    }
    out.append(chunk, sizeof(chunk) - stream.avail_out);
    if (out.size() > kMaxInflatedBytes) {
      broken = true;
      pending_.clear();
      return std::nullopt;
    }
    if (code == Z_BUF_ERROR) break;
  } while (stream.avail_out == 0 || stream.avail_in > 0);
  pending_.clear();
  return out;
}

}  // namespace platformpp::detail
