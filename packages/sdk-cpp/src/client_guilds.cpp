// The user's guilds and a guild's channels, for linking a lobby to a channel
// (GetUserGuilds, GetGuildChannels; the channel order is a shared rule: docs/sdk-cpp.md).
#include "client_impl.h"
#include "rules.h"
#include "wire.h"

namespace platformpp {

using detail::Json;

namespace {

detail::HttpRequest get(std::string path) {
  detail::HttpRequest request;
  request.method = "GET";
  request.path = std::move(path);
  return request;
}

}  // namespace

void Client::GetUserGuilds(GetUserGuildsCallback callback) {
  if (!impl_) return;
  if (!impl_->core->ready()) {
    return impl_->later(callback, detail::notReadyError("GetUserGuilds"),
                        std::vector<GuildMinimal>{});
  }
  impl_->request(get("/users/@me/guilds"), [callback](detail::HttpOutcome out) {
    std::vector<GuildMinimal> guilds;
    for (auto const& guild : out.body.is_array() ? out.body : Json::array()) {
      GuildMinimal minimal;
      minimal.SetId(detail::idAt(guild, "id"));
      minimal.SetName(detail::strAt(guild, "name"));
      guilds.push_back(minimal);
    }
    if (callback) callback(out.result, guilds);
  });
}

void Client::GetGuildChannels(uint64_t guildId, GetGuildChannelsCallback callback) {
  if (!impl_) return;
  std::string op = "GetGuildChannels";
  if (auto refused = detail::checkId(op, "guildId", guildId)) {
    return impl_->later(callback, detail::validationError(*refused), std::vector<GuildChannel>{});
  }
  if (!impl_->core->ready()) {
    return impl_->later(callback, detail::notReadyError(op), std::vector<GuildChannel>{});
  }
  auto path = "/users/@me/guilds/" + std::to_string(guildId) + "/channels";
  impl_->request(get(path), [callback](detail::HttpOutcome out) {
    auto const& wire = out.body.is_array() ? out.body : Json::array();
    std::vector<detail::ChannelOrderEntry> entries;
    for (auto const& channel : wire) {
      uint64_t parent = detail::idAt(channel, "parent_id");
      entries.push_back({detail::idAt(channel, "id"), static_cast<int>(detail::intAt(channel, "type")),
                         static_cast<int>(detail::intAt(channel, "position")),
                         parent == 0 ? std::nullopt : std::optional<uint64_t>(parent)});
    }
    std::vector<GuildChannel> channels;
    for (size_t index : detail::guildChannelOrder(entries)) {
      auto const& c = wire[index];
      GuildChannel channel;
      channel.SetId(entries[index].id);
      channel.SetName(detail::strAt(c, "name"));
      channel.SetType(static_cast<ChannelType>(entries[index].type));
      channel.SetPosition(entries[index].position);
      channel.SetParentCategoryId(entries[index].parentId);
      channel.SetIsLinkable(detail::boolAt(c, "linkable"));
      channel.SetIsViewableAndWriteableByAllMembers(
          detail::boolAt(c, "viewable_and_writeable_by_all_members"));
      auto const& linked = detail::objectAt(c, "linked_lobby");
      if (!linked.empty()) {
        LinkedLobby lobby;
        lobby.SetApplicationId(detail::idAt(linked, "application_id"));
        lobby.SetLobbyId(detail::idAt(linked, "lobby_id"));
        channel.SetLinkedLobby(lobby);
      }
      channels.push_back(channel);
    }
    if (callback) callback(out.result, channels);
  });
}

}  // namespace platformpp
