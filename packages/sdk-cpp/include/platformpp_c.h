/*
 * The Social SDK's C API: the same library as platformpp.h, for engines and languages that bind
 * C (Unity through P/Invoke, Godot through GDExtension, anything with a C FFI). docs/sdk-cpp.md
 * shows the bindings.
 *
 * - Opaque handles with explicit create and destroy: platformpp_client, platformpp_activity.
 *   A platformpp_result is borrowed: valid only during the callback it is given to.
 * - Every callback takes a user_data pointer (passed back untouched) and runs only inside
 *   platformpp_run_callbacks(), on the thread that calls it.
 * - Strings are UTF-8 and NUL-terminated. A string given to a callback lives until it returns.
 *   Getters copy into the caller's buffer like snprintf: they write at most `size` bytes (always
 *   NUL-terminated when size > 0) and return the full length, so a caller can ask again with a
 *   larger buffer.
 * - Ids are uint64_t; 0 means none. Enums are int32_t with the values of platformpp.h.
 * - No C++ type, exception or struct layout crosses this header.
 */
#ifndef PLATFORMPP_C_H
#define PLATFORMPP_C_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) && defined(PLATFORMPP_C_EXPORTS)
#define PLATFORMPP_C_API __declspec(dllexport)
#elif defined(_WIN32)
#define PLATFORMPP_C_API __declspec(dllimport)
#else
#define PLATFORMPP_C_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct platformpp_client platformpp_client;
typedef struct platformpp_result platformpp_result;
typedef struct platformpp_activity platformpp_activity;

/* Client::Status */
enum {
  PLATFORMPP_STATUS_DISCONNECTED = 0,
  PLATFORMPP_STATUS_CONNECTING = 1,
  PLATFORMPP_STATUS_CONNECTED = 2,
  PLATFORMPP_STATUS_READY = 3,
  PLATFORMPP_STATUS_RECONNECTING = 4,
  PLATFORMPP_STATUS_DISCONNECTING = 5,
  PLATFORMPP_STATUS_HTTP_WAIT = 6
};
/* ErrorType */
enum {
  PLATFORMPP_ERROR_NONE = 0,
  PLATFORMPP_ERROR_NETWORK = 1,
  PLATFORMPP_ERROR_HTTP = 2,
  PLATFORMPP_ERROR_CLIENT_NOT_READY = 3,
  PLATFORMPP_ERROR_DISABLED = 4,
  PLATFORMPP_ERROR_CLIENT_DESTROYED = 5,
  PLATFORMPP_ERROR_VALIDATION = 6,
  PLATFORMPP_ERROR_ABORTED = 7,
  PLATFORMPP_ERROR_AUTHORIZATION_FAILED = 8
};
/* AuthorizationTokenType, AuthenticationExternalAuthType (the two a public client uses most) */
enum { PLATFORMPP_TOKEN_USER = 0, PLATFORMPP_TOKEN_BEARER = 1 };
enum { PLATFORMPP_EXTERNAL_OIDC = 0, PLATFORMPP_EXTERNAL_BOT_ISSUED_ACCESS_TOKEN = 5 };
/* LoggingSeverity */
enum {
  PLATFORMPP_LOG_VERBOSE = 1,
  PLATFORMPP_LOG_INFO = 2,
  PLATFORMPP_LOG_WARNING = 3,
  PLATFORMPP_LOG_ERROR = 4
};
/* RelationshipType, RelationshipGroupType */
enum {
  PLATFORMPP_RELATIONSHIP_NONE = 0,
  PLATFORMPP_RELATIONSHIP_FRIEND = 1,
  PLATFORMPP_RELATIONSHIP_BLOCKED = 2,
  PLATFORMPP_RELATIONSHIP_PENDING_INCOMING = 3,
  PLATFORMPP_RELATIONSHIP_PENDING_OUTGOING = 4
};
enum {
  PLATFORMPP_GROUP_ONLINE_PLAYING_GAME = 0,
  PLATFORMPP_GROUP_ONLINE_ELSEWHERE = 1,
  PLATFORMPP_GROUP_OFFLINE = 2
};

typedef void (*platformpp_result_callback)(const platformpp_result* result, void* user_data);
typedef void (*platformpp_status_callback)(int32_t status, int32_t error, int32_t error_detail,
                                           void* user_data);
typedef void (*platformpp_log_callback)(const char* message, int32_t severity, void* user_data);
typedef void (*platformpp_token_callback)(const platformpp_result* result,
                                          const char* access_token, const char* refresh_token,
                                          int32_t expires_in, const char* scopes,
                                          void* user_data);
typedef void (*platformpp_id_result_callback)(const platformpp_result* result, uint64_t id,
                                              void* user_data);
typedef void (*platformpp_ids_result_callback)(const platformpp_result* result,
                                               const uint64_t* ids, size_t count,
                                               void* user_data);
typedef void (*platformpp_id_callback)(uint64_t id, void* user_data);
typedef void (*platformpp_relationship_callback)(uint64_t user_id, int is_discord_update,
                                                 void* user_data);
typedef void (*platformpp_lobby_member_callback)(uint64_t lobby_id, uint64_t member_id,
                                                 void* user_data);

/* ── The client ─────────────────────────────────────────────────────────────────────────── */
/* NULL api_base: http://127.0.0.1:8080/api/v10; NULL web_base: the API's origin. */
PLATFORMPP_C_API platformpp_client* platformpp_client_create(const char* api_base,
                                                             const char* web_base);
/* Ends the connection and frees the client; its pending callbacks never run. */
PLATFORMPP_C_API void platformpp_client_destroy(platformpp_client* client);
/* Runs the due callbacks of every client. Call it every frame. */
PLATFORMPP_C_API void platformpp_run_callbacks(void);

PLATFORMPP_C_API void platformpp_client_connect(platformpp_client* client);
PLATFORMPP_C_API void platformpp_client_disconnect(platformpp_client* client);
PLATFORMPP_C_API int32_t platformpp_client_get_status(const platformpp_client* client);
PLATFORMPP_C_API void platformpp_client_set_status_callback(platformpp_client* client,
                                                            platformpp_status_callback callback,
                                                            void* user_data);
PLATFORMPP_C_API void platformpp_client_add_log_callback(platformpp_client* client,
                                                         platformpp_log_callback callback,
                                                         int32_t min_severity, void* user_data);
PLATFORMPP_C_API void platformpp_client_set_http_request_timeout(platformpp_client* client,
                                                                 int32_t timeout_ms);
PLATFORMPP_C_API void platformpp_client_set_application_id(platformpp_client* client,
                                                           uint64_t application_id);
PLATFORMPP_C_API void platformpp_client_update_token(platformpp_client* client,
                                                     int32_t token_type, const char* token,
                                                     platformpp_result_callback callback,
                                                     void* user_data);

/* ── Results (borrowed, valid during the callback) ──────────────────────────────────────── */
PLATFORMPP_C_API int platformpp_result_successful(const platformpp_result* result);
PLATFORMPP_C_API int32_t platformpp_result_type(const platformpp_result* result);
PLATFORMPP_C_API int32_t platformpp_result_status(const platformpp_result* result);
PLATFORMPP_C_API int32_t platformpp_result_error_code(const platformpp_result* result);
PLATFORMPP_C_API const char* platformpp_result_error(const platformpp_result* result);

/* ── Tokens ─────────────────────────────────────────────────────────────────────────────── */
PLATFORMPP_C_API void platformpp_client_get_provisional_token(
    platformpp_client* client, uint64_t application_id, int32_t external_auth_type,
    const char* external_auth_token, platformpp_token_callback callback, void* user_data);
PLATFORMPP_C_API void platformpp_client_refresh_token(platformpp_client* client,
                                                      uint64_t application_id,
                                                      const char* refresh_token,
                                                      platformpp_token_callback callback,
                                                      void* user_data);
PLATFORMPP_C_API void platformpp_client_revoke_token(platformpp_client* client,
                                                     uint64_t application_id, const char* token,
                                                     platformpp_result_callback callback,
                                                     void* user_data);

/* ── Users and relationships ────────────────────────────────────────────────────────────── */
/* The player's id, 0 until Ready. */
PLATFORMPP_C_API uint64_t platformpp_client_current_user_id(const platformpp_client* client);
PLATFORMPP_C_API size_t platformpp_client_user_display_name(const platformpp_client* client,
                                                            uint64_t user_id, char* buffer,
                                                            size_t size);
PLATFORMPP_C_API int32_t platformpp_client_relationship_type(const platformpp_client* client,
                                                             uint64_t user_id, int game_scope);
/* Copies up to `capacity` ids of one friends-list group, sorted; returns how many there are. */
PLATFORMPP_C_API size_t platformpp_client_relationships_by_group(const platformpp_client* client,
                                                                 int32_t group, uint64_t* ids,
                                                                 size_t capacity);
PLATFORMPP_C_API void platformpp_client_send_game_friend_request(
    platformpp_client* client, const char* username, platformpp_result_callback callback,
    void* user_data);
PLATFORMPP_C_API void platformpp_client_send_game_friend_request_by_id(
    platformpp_client* client, uint64_t user_id, platformpp_result_callback callback,
    void* user_data);
PLATFORMPP_C_API void platformpp_client_accept_game_friend_request(
    platformpp_client* client, uint64_t user_id, platformpp_result_callback callback,
    void* user_data);
PLATFORMPP_C_API void platformpp_client_remove_game_friend(platformpp_client* client,
                                                           uint64_t user_id,
                                                           platformpp_result_callback callback,
                                                           void* user_data);
PLATFORMPP_C_API void platformpp_client_set_relationship_created_callback(
    platformpp_client* client, platformpp_relationship_callback callback, void* user_data);
PLATFORMPP_C_API void platformpp_client_set_relationship_deleted_callback(
    platformpp_client* client, platformpp_relationship_callback callback, void* user_data);
PLATFORMPP_C_API void platformpp_client_set_relationship_groups_updated_callback(
    platformpp_client* client, platformpp_id_callback callback, void* user_data);
PLATFORMPP_C_API void platformpp_client_set_user_updated_callback(
    platformpp_client* client, platformpp_id_callback callback, void* user_data);

/* ── Rich presence ──────────────────────────────────────────────────────────────────────── */
PLATFORMPP_C_API platformpp_activity* platformpp_activity_create(void);
PLATFORMPP_C_API void platformpp_activity_destroy(platformpp_activity* activity);
PLATFORMPP_C_API void platformpp_activity_set_name(platformpp_activity* activity,
                                                   const char* name);
PLATFORMPP_C_API void platformpp_activity_set_type(platformpp_activity* activity, int32_t type);
PLATFORMPP_C_API void platformpp_activity_set_state(platformpp_activity* activity,
                                                    const char* state);
PLATFORMPP_C_API void platformpp_activity_set_details(platformpp_activity* activity,
                                                      const char* details);
PLATFORMPP_C_API void platformpp_activity_set_party(platformpp_activity* activity,
                                                    const char* party_id, int32_t current_size,
                                                    int32_t max_size, int32_t privacy);
PLATFORMPP_C_API void platformpp_client_update_rich_presence(platformpp_client* client,
                                                             const platformpp_activity* activity,
                                                             platformpp_result_callback callback,
                                                             void* user_data);
PLATFORMPP_C_API void platformpp_client_clear_rich_presence(platformpp_client* client);
/* The state text of the user's activity in this game; -1 when they show none. */
PLATFORMPP_C_API int64_t platformpp_client_user_activity_state(const platformpp_client* client,
                                                               uint64_t user_id, char* buffer,
                                                               size_t size);

/* ── Messages ───────────────────────────────────────────────────────────────────────────── */
PLATFORMPP_C_API void platformpp_client_send_user_message(platformpp_client* client,
                                                          uint64_t recipient_id,
                                                          const char* content,
                                                          platformpp_id_result_callback callback,
                                                          void* user_data);
/* The newest `limit` messages of the DM, newest first (the cache rule of docs/sdk-cpp.md). */
PLATFORMPP_C_API void platformpp_client_get_user_messages_with_limit(
    platformpp_client* client, uint64_t recipient_id, int32_t limit,
    platformpp_ids_result_callback callback, void* user_data);
PLATFORMPP_C_API void platformpp_client_set_message_created_callback(
    platformpp_client* client, platformpp_id_callback callback, void* user_data);
PLATFORMPP_C_API size_t platformpp_client_message_content(const platformpp_client* client,
                                                          uint64_t message_id, char* buffer,
                                                          size_t size);
PLATFORMPP_C_API uint64_t platformpp_client_message_author_id(const platformpp_client* client,
                                                              uint64_t message_id);
/* The lobby of a lobby message, 0 for a DM. */
PLATFORMPP_C_API uint64_t platformpp_client_message_lobby_id(const platformpp_client* client,
                                                             uint64_t message_id);

/* ── Lobbies ────────────────────────────────────────────────────────────────────────────── */
PLATFORMPP_C_API void platformpp_client_create_or_join_lobby(
    platformpp_client* client, const char* secret, platformpp_id_result_callback callback,
    void* user_data);
PLATFORMPP_C_API void platformpp_client_leave_lobby(platformpp_client* client, uint64_t lobby_id,
                                                    platformpp_result_callback callback,
                                                    void* user_data);
PLATFORMPP_C_API void platformpp_client_send_lobby_message(platformpp_client* client,
                                                           uint64_t lobby_id, const char* content,
                                                           platformpp_id_result_callback callback,
                                                           void* user_data);
PLATFORMPP_C_API size_t platformpp_client_lobby_member_ids(const platformpp_client* client,
                                                           uint64_t lobby_id, uint64_t* ids,
                                                           size_t capacity);
PLATFORMPP_C_API void platformpp_client_set_lobby_member_added_callback(
    platformpp_client* client, platformpp_lobby_member_callback callback, void* user_data);
PLATFORMPP_C_API void platformpp_client_set_lobby_member_removed_callback(
    platformpp_client* client, platformpp_lobby_member_callback callback, void* user_data);

/* ── Voice: not available in the native SDK; the callback gets PLATFORMPP_ERROR_DISABLED ──── */
PLATFORMPP_C_API void platformpp_client_start_call(platformpp_client* client, uint64_t lobby_id,
                                                   platformpp_result_callback callback,
                                                   void* user_data);

#ifdef __cplusplus
}
#endif

#endif /* PLATFORMPP_C_H */
