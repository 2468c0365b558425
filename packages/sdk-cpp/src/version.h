// The SDK's version: its minor follows the server's (docs/sdk-cpp.md, Versioning).
#pragma once

namespace platformpp::detail {
constexpr int kVersionMajor = 0;
constexpr int kVersionMinor = 1;
constexpr int kVersionPatch = 0;
constexpr char kVersionString[] = "0.1.0";
}  // namespace platformpp::detail
