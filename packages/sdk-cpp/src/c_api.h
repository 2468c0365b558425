// What the C API's two sources share: the opaque structs and the wrappers of C callbacks.
#pragma once

#include <cstring>
#include <string>

#include "platformpp.h"
#include "platformpp_c.h"

struct platformpp_client {
  platformpp::Client client;
};

struct platformpp_result {
  platformpp::ClientResult const* result;
};

struct platformpp_activity {
  platformpp::Activity activity;
};

namespace platformpp::c_api {

/// snprintf-like copy: at most size bytes, NUL-terminated; the full length.
inline size_t copyOut(std::string const& text, char* buffer, size_t size) {
  if (buffer != nullptr && size > 0) {
    size_t n = text.size() < size - 1 ? text.size() : size - 1;
    std::memcpy(buffer, text.data(), n);
    buffer[n] = '\0';
  }
  return text.size();
}

inline std::string text(char const* value) { return value == nullptr ? "" : value; }

inline Client::ResultCallback resultCallback(platformpp_result_callback callback, void* user) {
  if (callback == nullptr) return {};
  return [callback, user](ClientResult result) {
    platformpp_result borrowed{&result};
    callback(&borrowed, user);
  };
}

inline Client::SendUserMessageCallback idCallback(platformpp_id_result_callback callback,
                                                  void* user) {
  if (callback == nullptr) return {};
  return [callback, user](ClientResult result, uint64_t id) {
    platformpp_result borrowed{&result};
    callback(&borrowed, id, user);
  };
}

}  // namespace platformpp::c_api

/// Keeps C++ exceptions (an allocation failure) out of C callers.
#define PLATFORMPP_C_GUARD(fallback, body) \
  try {                                    \
    body                                   \
  } catch (...) {                          \
    return fallback;                       \
  }
