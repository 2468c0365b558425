// The parts that need no server: the log's redactor, zlib-stream, the answers' error mapping,
// PKCE, and the value types' shapes (copyable, movable, operator bool, nullobj, setters).
#include <zlib.h>

#include <type_traits>
#include <typeinfo>

#include "encoding.h"
#include "inflate.h"
#include "log.h"
#include "support.h"
#include "worker.h"

namespace {

using namespace pptest;
namespace detail = platformpp::detail;

TEST(Redactor, RemovesTokensAtEveryShape) {
  EXPECT_EQ(detail::redactPatterns("Authorization: Bearer abc.DEF-123"),
            "Authorization: Bearer [redacted]");
  EXPECT_EQ(detail::redactPatterns("bot MTIz.abc"), "bot [redacted]");
  EXPECT_EQ(detail::redactPatterns("grant_type=refresh_token&refresh_token=r3fr35h&x=1"),
            "grant_type=refresh_token&refresh_token=[redacted]&x=1");
  EXPECT_EQ(detail::redactPatterns(R"({"access_token": "tok", "scope":"openid"})"),
            R"({"access_token":"[redacted]", "scope":"openid"})");
  EXPECT_EQ(detail::redactPatterns("code_verifier: abcdef, next"),
            "code_verifier: [redacted], next");
  EXPECT_EQ(detail::redactPatterns("?token=xyz"), "?token=[redacted]");
  // Words that only look like the keys stay.
  EXPECT_EQ(detail::redactPatterns("a robot token_type=Bearer"), "a robot token_type=Bearer");
}

TEST(Redactor, RemovesTheClientsOwnSecretsWhereverTheyAppear) {
  std::vector<std::string> delivered;
  detail::Logger logger([&](std::function<void()> task) { task(); });
  logger.add([&](std::string line, platformpp::LoggingSeverity) { delivered.push_back(line); },
             platformpp::LoggingSeverity::Verbose);
  logger.secret("s3cr3t-value-42");
  logger.verbose("GET /users/s3cr3t-value-42/x");
  logger.error("oops s3cr3t-value-42.");
  logger.log(platformpp::LoggingSeverity::None, "never s3cr3t-value-42");
  EXPECT_EQ(delivered,
            (std::vector<std::string>{"GET /users/[redacted]/x", "oops [redacted]."}));
}

std::string deflateSync(z_stream& stream, std::string const& text) {
  std::string out(text.size() + 64, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  stream.avail_in = static_cast<uInt>(text.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  deflate(&stream, Z_SYNC_FLUSH);
  out.resize(out.size() - stream.avail_out);
  return out;
}

TEST(ZlibStream, InflatesMessagesOfOneContextAcrossFrames) {
  z_stream stream{};
  deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 10, 8, Z_DEFAULT_STRATEGY);
  detail::ZlibStream inflater;
  bool broken = false;
  std::string first = deflateSync(stream, R"({"op":10,"d":{"heartbeat_interval":41250}})");
  // A message split across two WebSocket frames completes only with its marker.
  EXPECT_FALSE(inflater.push(first.substr(0, 5), broken).has_value());
  EXPECT_EQ(inflater.push(first.substr(5), broken).value_or(""),
            R"({"op":10,"d":{"heartbeat_interval":41250}})");
  // The second message reuses the first one's dictionary.
  std::string second = deflateSync(stream, R"({"op":11,"d":{"heartbeat_interval":41250}})");
  EXPECT_EQ(inflater.push(second, broken).value_or(""),
            R"({"op":11,"d":{"heartbeat_interval":41250}})");
  EXPECT_FALSE(broken);
  deflateEnd(&stream);
  std::string junk = "not deflate at all";
  junk += std::string("\x00\x00\xff\xff", 4);
  EXPECT_FALSE(inflater.push(junk, broken).has_value());
  EXPECT_TRUE(broken);
}

TEST(Answers, TheErrorBodiesBecomeResults) {
  auto platform = detail::errorFromAnswer("GET", "/users/1", 404,
                                          R"({"code":10013,"message":"Unknown User"})", 1);
  EXPECT_EQ(platform.Type(), platformpp::ErrorType::HTTPError);
  EXPECT_EQ(platform.ErrorCode(), 10013);
  EXPECT_EQ(platform.Error(), "GET /users/1 → 404: Unknown User");
  EXPECT_FALSE(platform.Retryable());
  auto oauth = detail::errorFromAnswer("POST", "/oauth2/token", 400,
                                       R"({"error":"invalid_grant"})", 1);
  EXPECT_EQ(oauth.Type(), platformpp::ErrorType::AuthorizationFailed);
  EXPECT_EQ(oauth.OAuthError(), "invalid_grant");
  auto limited = detail::errorFromAnswer("GET", "/x", 429, R"({"retry_after":75})", 75);
  EXPECT_TRUE(limited.Retryable());
  EXPECT_FLOAT_EQ(limited.RetryAfter(), 75);
  EXPECT_TRUE(detail::errorFromAnswer("GET", "/x", 502, "", 1).Retryable());
  EXPECT_EQ(detail::errorFromAnswer("GET", "/x", 401, "{}", 1).Type(),
            platformpp::ErrorType::AuthorizationFailed);
}

TEST(Pkce, TheChallengeIsTheVerifiersS256) {
  EXPECT_EQ(detail::base64url(detail::sha256("dBjftJeZ4CVP-mJ92K9qGcK1SFe2Oo6hMzYTj6WZ5Gk")),
            "Y3XpDpLHKyoExQnj4PbTS92vCwBJQk0ZnN_NKYtwtYA");
  auto verifier = Client(platformpp::ClientCreateOptions()).CreateAuthorizationCodeVerifier();
  EXPECT_EQ(verifier.Verifier().size(), 43U);
  EXPECT_EQ(verifier.Challenge().Challenge(),
            detail::base64url(detail::sha256(verifier.Verifier())));
  EXPECT_EQ(verifier.Challenge().Method(), platformpp::AuthenticationCodeChallengeMethod::S256);
}

TEST(Shapes, ValueTypesAreCopyableMovableWithNullObjects) {
  platformpp::AuthorizationArgs args;
  EXPECT_TRUE(args);
  EXPECT_FALSE(platformpp::AuthorizationArgs::nullobj);
  args.SetScopes(Client::GetDefaultCommunicationScopes());
  args.SetClientId(42);
  platformpp::AuthorizationArgs copy = args;
  copy.SetScopes(Client::GetDefaultPresenceScopes());
  EXPECT_EQ(args.Scopes(), "openid sdk.social_layer");
  EXPECT_EQ(copy.Scopes(), "openid sdk.social_layer_presence");
  platformpp::AuthorizationArgs moved = std::move(copy);
  EXPECT_EQ(moved.ClientId().value_or(0), 42U);
  platformpp::Activity activity;
  platformpp::ActivityButton button;
  button.SetLabel("Watch");
  button.SetUrl("https://example.test/watch");
  activity.AddButton(button);
  platformpp::Activity same = activity;
  EXPECT_TRUE(same.Equals(activity));
  same.SetState("changed");
  EXPECT_FALSE(same.Equals(activity));
  EXPECT_FALSE(platformpp::Activity::nullobj);
  EXPECT_FALSE(platformpp::UserHandle::nullobj);
  EXPECT_FALSE(platformpp::MessageHandle::nullobj);
  EXPECT_FALSE(Client::nullobj);
  EXPECT_TRUE(platformpp::ClientResult().Successful());
  EXPECT_EQ(platformpp::ClientResult().ToString(), "OK");
}

/// Every public type: copyable and movable both ways, with `operator bool` and a null `nullobj`.
template <typename... Types>
void expectShapes() {
  static_assert((std::is_copy_constructible_v<Types> && ...));
  static_assert((std::is_copy_assignable_v<Types> && ...));
  static_assert((std::is_nothrow_move_constructible_v<Types> && ...));
  static_assert((std::is_move_assignable_v<Types> && ...));
  static_assert((std::is_constructible_v<bool, Types const&> && ...));
  static_assert((!std::is_convertible_v<Types const&, bool> && ...), "operator bool is explicit");
  std::vector<std::pair<char const*, bool>> nulls{{typeid(Types).name(),
                                                   static_cast<bool>(Types::nullobj)}...};
  for (auto const& [name, holds] : nulls) EXPECT_FALSE(holds) << name << "::nullobj";
}

TEST(Shapes, EveryTypeHasTheSpecsShape) {
  namespace pp = platformpp;
  expectShapes<pp::ClientResult, pp::AuthorizationCodeChallenge, pp::AuthorizationCodeVerifier,
               pp::AuthorizationArgs, pp::DeviceAuthorizationArgs, pp::ClientCreateOptions,
               pp::GuildMinimal, pp::LinkedLobby, pp::GuildChannel, pp::LinkedChannel,
               pp::UserMessageSummary, pp::VoiceSettings, pp::AudioDevice, pp::ActivityAssets,
               pp::ActivityTimestamps, pp::ActivityParty, pp::ActivitySecrets, pp::ActivityButton,
               pp::Activity, pp::ActivityInvite, pp::UserApplicationProfileHandle, pp::UserHandle,
               pp::RelationshipHandle, pp::ChannelHandle, pp::MessageHandle,
               pp::LobbyMemberHandle, pp::LobbyHandle, pp::Call, Client>();
  // A value type made by its default constructor holds a valid object; its setters store.
  pp::ClientCreateOptions options;
  EXPECT_TRUE(options);
  options.SetApiBase("http://127.0.0.1:9/api/v10");
  options.SetCpuAffinityMask(3);
  pp::ClientCreateOptions copied = options;
  EXPECT_EQ(copied.ApiBase(), "http://127.0.0.1:9/api/v10");
  EXPECT_EQ(copied.CpuAffinityMask().value_or(0), 3U);
  pp::GuildChannel channel;
  pp::LinkedLobby linked;
  linked.SetLobbyId(7);
  channel.SetLinkedLobby(linked);
  channel.SetIsLinkable(true);
  pp::GuildChannel movedChannel = std::move(channel);
  EXPECT_TRUE(movedChannel.IsLinkable());
  EXPECT_EQ(movedChannel.LinkedLobby()->LobbyId(), 7U);
  pp::VoiceSettings voice;
  voice.SetSelfMute(true);
  EXPECT_TRUE(voice && voice.SelfMute());
  pp::UserApplicationProfileHandle profile;
  profile.SetUsername("ada");
  EXPECT_EQ(pp::UserApplicationProfileHandle(profile).Username(), "ada");
}

}  // namespace
