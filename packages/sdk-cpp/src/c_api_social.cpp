// The C API (platformpp_c.h): users, relationships, messages and lobbies.
#include "c_api.h"

using platformpp::Client;
using platformpp::ClientResult;
using namespace platformpp::c_api;

extern "C" {

uint64_t platformpp_client_current_user_id(const platformpp_client* client) {
  if (client == nullptr) return 0;
  PLATFORMPP_C_GUARD(0, {
    auto me = client->client.GetCurrentUserV2();
    return me ? me->Id() : 0;
  })
}

size_t platformpp_client_user_display_name(const platformpp_client* client, uint64_t user_id,
                                           char* buffer, size_t size) {
  if (client == nullptr) return copyOut("", buffer, size);
  PLATFORMPP_C_GUARD(0, {
    auto user = client->client.GetUser(user_id);
    return copyOut(user ? user->DisplayName() : "", buffer, size);
  })
}

int32_t platformpp_client_relationship_type(const platformpp_client* client, uint64_t user_id,
                                            int game_scope) {
  if (client == nullptr) return 0;
  auto handle = client->client.GetRelationshipHandle(user_id);
  return static_cast<int32_t>(game_scope != 0 ? handle.GameRelationshipType()
                                              : handle.DiscordRelationshipType());
}

size_t platformpp_client_relationships_by_group(const platformpp_client* client, int32_t group,
                                                uint64_t* ids, size_t capacity) {
  if (client == nullptr) return 0;
  PLATFORMPP_C_GUARD(0, {
    auto list = client->client.GetRelationshipsByGroup(
        static_cast<platformpp::RelationshipGroupType>(group));
    for (size_t i = 0; ids != nullptr && i < list.size() && i < capacity; ++i) ids[i] = list[i].Id();
    return list.size();
  })
}

void platformpp_client_send_game_friend_request(platformpp_client* client, const char* username,
                                                platformpp_result_callback callback,
                                                void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    client->client.SendGameFriendRequest(text(username), resultCallback(callback, user_data));
  })
}

void platformpp_client_send_game_friend_request_by_id(platformpp_client* client, uint64_t user_id,
                                                      platformpp_result_callback callback,
                                                      void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    client->client.SendGameFriendRequestById(user_id, resultCallback(callback, user_data));
  })
}

void platformpp_client_accept_game_friend_request(platformpp_client* client, uint64_t user_id,
                                                  platformpp_result_callback callback,
                                                  void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    client->client.AcceptGameFriendRequest(user_id, resultCallback(callback, user_data));
  })
}

void platformpp_client_remove_game_friend(platformpp_client* client, uint64_t user_id,
                                          platformpp_result_callback callback, void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    client->client.RemoveGameFriend(user_id, resultCallback(callback, user_data));
  })
}

void platformpp_client_set_relationship_created_callback(platformpp_client* client,
                                                         platformpp_relationship_callback callback,
                                                         void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    if (callback == nullptr) return client->client.SetRelationshipCreatedCallback({});
    client->client.SetRelationshipCreatedCallback(
        [callback, user_data](uint64_t id, bool discord) { callback(id, discord ? 1 : 0, user_data); });
  })
}

void platformpp_client_set_relationship_deleted_callback(platformpp_client* client,
                                                         platformpp_relationship_callback callback,
                                                         void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    if (callback == nullptr) return client->client.SetRelationshipDeletedCallback({});
    client->client.SetRelationshipDeletedCallback(
        [callback, user_data](uint64_t id, bool discord) { callback(id, discord ? 1 : 0, user_data); });
  })
}

void platformpp_client_set_relationship_groups_updated_callback(platformpp_client* client,
                                                                platformpp_id_callback callback,
                                                                void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    if (callback == nullptr) return client->client.SetRelationshipGroupsUpdatedCallback({});
    client->client.SetRelationshipGroupsUpdatedCallback(
        [callback, user_data](uint64_t id) { callback(id, user_data); });
  })
}

void platformpp_client_set_user_updated_callback(platformpp_client* client,
                                                 platformpp_id_callback callback, void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    if (callback == nullptr) return client->client.SetUserUpdatedCallback({});
    client->client.SetUserUpdatedCallback(
        [callback, user_data](uint64_t id) { callback(id, user_data); });
  })
}

int64_t platformpp_client_user_activity_state(const platformpp_client* client, uint64_t user_id,
                                              char* buffer, size_t size) {
  if (client == nullptr) return -1;
  PLATFORMPP_C_GUARD(-1, {
    auto user = client->client.GetUser(user_id);
    auto activity = user ? user->GameActivity() : std::nullopt;
    if (!activity) return -1;
    return static_cast<int64_t>(copyOut(activity->State().value_or(""), buffer, size));
  })
}

void platformpp_client_send_user_message(platformpp_client* client, uint64_t recipient_id,
                                         const char* content,
                                         platformpp_id_result_callback callback,
                                         void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    client->client.SendUserMessage(recipient_id, text(content), idCallback(callback, user_data));
  })
}

void platformpp_client_get_user_messages_with_limit(platformpp_client* client,
                                                    uint64_t recipient_id, int32_t limit,
                                                    platformpp_ids_result_callback callback,
                                                    void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    client->client.GetUserMessagesWithLimit(
        recipient_id, limit,
        [callback, user_data](ClientResult result, std::vector<platformpp::MessageHandle> list) {
          if (callback == nullptr) return;
          std::vector<uint64_t> ids;
          for (auto const& message : list) ids.push_back(message.Id());
          platformpp_result borrowed{&result};
          callback(&borrowed, ids.data(), ids.size(), user_data);
        });
  })
}

void platformpp_client_set_message_created_callback(platformpp_client* client,
                                                    platformpp_id_callback callback,
                                                    void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    if (callback == nullptr) return client->client.SetMessageCreatedCallback({});
    client->client.SetMessageCreatedCallback(
        [callback, user_data](uint64_t id) { callback(id, user_data); });
  })
}

size_t platformpp_client_message_content(const platformpp_client* client, uint64_t message_id,
                                         char* buffer, size_t size) {
  if (client == nullptr) return copyOut("", buffer, size);
  PLATFORMPP_C_GUARD(0, {
    auto message = client->client.GetMessageHandle(message_id);
    return copyOut(message ? message->Content() : "", buffer, size);
  })
}

uint64_t platformpp_client_message_author_id(const platformpp_client* client,
                                             uint64_t message_id) {
  if (client == nullptr) return 0;
  auto message = client->client.GetMessageHandle(message_id);
  return message ? message->AuthorId() : 0;
}

uint64_t platformpp_client_message_lobby_id(const platformpp_client* client, uint64_t message_id) {
  if (client == nullptr) return 0;
  auto message = client->client.GetMessageHandle(message_id);
  if (!message) return 0;
  auto lobby = message->Lobby();
  return lobby ? lobby->Id() : 0;
}

void platformpp_client_create_or_join_lobby(platformpp_client* client, const char* secret,
                                            platformpp_id_result_callback callback,
                                            void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    client->client.CreateOrJoinLobby(text(secret), idCallback(callback, user_data));
  })
}

void platformpp_client_leave_lobby(platformpp_client* client, uint64_t lobby_id,
                                   platformpp_result_callback callback, void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, { client->client.LeaveLobby(lobby_id, resultCallback(callback, user_data)); })
}

void platformpp_client_send_lobby_message(platformpp_client* client, uint64_t lobby_id,
                                          const char* content,
                                          platformpp_id_result_callback callback,
                                          void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    client->client.SendLobbyMessage(lobby_id, text(content), idCallback(callback, user_data));
  })
}

size_t platformpp_client_lobby_member_ids(const platformpp_client* client, uint64_t lobby_id,
                                          uint64_t* ids, size_t capacity) {
  if (client == nullptr) return 0;
  PLATFORMPP_C_GUARD(0, {
    auto lobby = client->client.GetLobbyHandle(lobby_id);
    auto members = lobby ? lobby->LobbyMemberIds() : std::vector<uint64_t>{};
    for (size_t i = 0; ids != nullptr && i < members.size() && i < capacity; ++i) ids[i] = members[i];
    return members.size();
  })
}

void platformpp_client_set_lobby_member_added_callback(platformpp_client* client,
                                                       platformpp_lobby_member_callback callback,
                                                       void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    if (callback == nullptr) return client->client.SetLobbyMemberAddedCallback({});
    client->client.SetLobbyMemberAddedCallback(
        [callback, user_data](uint64_t lobby, uint64_t member) { callback(lobby, member, user_data); });
  })
}

void platformpp_client_set_lobby_member_removed_callback(platformpp_client* client,
                                                         platformpp_lobby_member_callback callback,
                                                         void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    if (callback == nullptr) return client->client.SetLobbyMemberRemovedCallback({});
    client->client.SetLobbyMemberRemovedCallback(
        [callback, user_data](uint64_t lobby, uint64_t member) { callback(lobby, member, user_data); });
  })
}

}  // extern "C"
