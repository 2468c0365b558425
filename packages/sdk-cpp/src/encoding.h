// Encodings and digests the SDK needs: base64 (WebSocket keys), base64url (PKCE), percent
// encoding (queries and forms), random bytes and SHA digests (OpenSSL's libcrypto).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace platformpp::detail {

std::string base64(std::string_view bytes);
std::string base64url(std::string_view bytes);
/// RFC 3986 unreserved characters kept, everything else %XX.
std::string percentEncode(std::string_view text);
/// `application/x-www-form-urlencoded` (and a query string): key=value&…
std::string formEncode(std::vector<std::pair<std::string, std::string>> const& fields);
/// Decodes %XX and '+' (a query string's value).
std::string percentDecode(std::string_view text);
/// Cryptographically random bytes (OpenSSL RAND_bytes).
std::string randomBytes(size_t count);
/// base64url of `bytes` random bytes: a PKCE verifier (32 → 43 characters), a state.
std::string randomToken(size_t bytes = 32);
std::string sha256(std::string_view data);
std::string sha1(std::string_view data);

}  // namespace platformpp::detail
