// The C API (platformpp_c.h): the client, results, tokens, presence. Each function forwards to
// the C++ Client; no exception leaves.
#include "c_api.h"
#include "client_impl.h"

using platformpp::Client;
using platformpp::ClientResult;
using namespace platformpp::c_api;

extern "C" {

platformpp_client* platformpp_client_create(const char* api_base, const char* web_base) {
  PLATFORMPP_C_GUARD(nullptr, {
    platformpp::ClientCreateOptions options;
    if (api_base != nullptr) options.SetApiBase(api_base);
    if (web_base != nullptr) options.SetWebBase(web_base);
    return new platformpp_client{Client(options)};
  })
}

void platformpp_client_destroy(platformpp_client* client) { delete client; }

void platformpp_run_callbacks(void) { PLATFORMPP_C_GUARD(, { platformpp::RunCallbacks(); }) }

void platformpp_client_connect(platformpp_client* client) {
  if (client != nullptr) client->client.Connect();
}

void platformpp_client_disconnect(platformpp_client* client) {
  if (client != nullptr) client->client.Disconnect();
}

int32_t platformpp_client_get_status(const platformpp_client* client) {
  return client == nullptr ? 0 : static_cast<int32_t>(client->client.GetStatus());
}

void platformpp_client_set_status_callback(platformpp_client* client,
                                           platformpp_status_callback callback, void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    if (callback == nullptr) return client->client.SetStatusChangedCallback({});
    client->client.SetStatusChangedCallback(
        [callback, user_data](Client::Status status, Client::Error error, int32_t detail) {
          callback(static_cast<int32_t>(status), static_cast<int32_t>(error), detail, user_data);
        });
  })
}

void platformpp_client_add_log_callback(platformpp_client* client,
                                        platformpp_log_callback callback, int32_t min_severity,
                                        void* user_data) {
  if (client == nullptr || callback == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    client->client.AddLogCallback(
        [callback, user_data](std::string message, platformpp::LoggingSeverity severity) {
          callback(message.c_str(), static_cast<int32_t>(severity), user_data);
        },
        static_cast<platformpp::LoggingSeverity>(min_severity));
  })
}

void platformpp_client_set_http_request_timeout(platformpp_client* client, int32_t timeout_ms) {
  if (client != nullptr) client->client.SetHttpRequestTimeout(timeout_ms);
}

void platformpp_client_set_application_id(platformpp_client* client, uint64_t application_id) {
  if (client != nullptr) client->client.SetApplicationId(application_id);
}

void platformpp_client_update_token(platformpp_client* client, int32_t token_type,
                                    const char* token, platformpp_result_callback callback,
                                    void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    client->client.UpdateToken(static_cast<platformpp::AuthorizationTokenType>(token_type),
                               text(token), resultCallback(callback, user_data));
  })
}

int platformpp_result_successful(const platformpp_result* result) {
  return result != nullptr && result->result->Successful() ? 1 : 0;
}

int32_t platformpp_result_type(const platformpp_result* result) {
  return result == nullptr ? 0 : static_cast<int32_t>(result->result->Type());
}

int32_t platformpp_result_status(const platformpp_result* result) {
  return result == nullptr ? 0 : result->result->Status();
}

int32_t platformpp_result_error_code(const platformpp_result* result) {
  return result == nullptr ? 0 : result->result->ErrorCode();
}

const char* platformpp_result_error(const platformpp_result* result) {
  return result == nullptr ? "" : result->result->Error().c_str();
}

namespace {

Client::TokenExchangeCallback tokenCallback(platformpp_token_callback callback, void* user) {
  return [callback, user](ClientResult result, std::string access, std::string refresh,
                          platformpp::AuthorizationTokenType, int32_t expiresIn,
                          std::string scopes) {
    if (callback == nullptr) return;
    platformpp_result borrowed{&result};
    callback(&borrowed, access.c_str(), refresh.c_str(), expiresIn, scopes.c_str(), user);
  };
}

}  // namespace

void platformpp_client_get_provisional_token(platformpp_client* client, uint64_t application_id,
                                             int32_t external_auth_type,
                                             const char* external_auth_token,
                                             platformpp_token_callback callback,
                                             void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    client->client.GetProvisionalToken(
        application_id, static_cast<platformpp::AuthenticationExternalAuthType>(external_auth_type),
        text(external_auth_token), tokenCallback(callback, user_data));
  })
}

void platformpp_client_refresh_token(platformpp_client* client, uint64_t application_id,
                                     const char* refresh_token, platformpp_token_callback callback,
                                     void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    client->client.RefreshToken(application_id, text(refresh_token),
                                tokenCallback(callback, user_data));
  })
}

void platformpp_client_revoke_token(platformpp_client* client, uint64_t application_id,
                                    const char* token, platformpp_result_callback callback,
                                    void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    client->client.RevokeToken(application_id, text(token), resultCallback(callback, user_data));
  })
}

platformpp_activity* platformpp_activity_create(void) {
  PLATFORMPP_C_GUARD(nullptr, { return new platformpp_activity{}; })
}

void platformpp_activity_destroy(platformpp_activity* activity) { delete activity; }

void platformpp_activity_set_name(platformpp_activity* activity, const char* name) {
  if (activity != nullptr) PLATFORMPP_C_GUARD(, { activity->activity.SetName(text(name)); })
}

void platformpp_activity_set_type(platformpp_activity* activity, int32_t type) {
  if (activity != nullptr) activity->activity.SetType(static_cast<platformpp::ActivityTypes>(type));
}

void platformpp_activity_set_state(platformpp_activity* activity, const char* state) {
  if (activity == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    activity->activity.SetState(state == nullptr ? std::nullopt
                                                 : std::optional<std::string>(state));
  })
}

void platformpp_activity_set_details(platformpp_activity* activity, const char* details) {
  if (activity == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    activity->activity.SetDetails(details == nullptr ? std::nullopt
                                                     : std::optional<std::string>(details));
  })
}

void platformpp_activity_set_party(platformpp_activity* activity, const char* party_id,
                                   int32_t current_size, int32_t max_size, int32_t privacy) {
  if (activity == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    if (party_id == nullptr) return activity->activity.SetParty(std::nullopt);
    platformpp::ActivityParty party;
    party.SetId(party_id);
    party.SetCurrentSize(current_size);
    party.SetMaxSize(max_size);
    party.SetPrivacy(static_cast<platformpp::ActivityPartyPrivacy>(privacy));
    activity->activity.SetParty(party);
  })
}

void platformpp_client_update_rich_presence(platformpp_client* client,
                                            const platformpp_activity* activity,
                                            platformpp_result_callback callback,
                                            void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    client->client.UpdateRichPresence(
        activity == nullptr ? platformpp::Activity::nullobj : activity->activity,
        resultCallback(callback, user_data));
  })
}

void platformpp_client_clear_rich_presence(platformpp_client* client) {
  if (client != nullptr) PLATFORMPP_C_GUARD(, { client->client.ClearRichPresence(); })
}

void platformpp_client_start_call(platformpp_client* client, uint64_t lobby_id,
                                  platformpp_result_callback callback, void* user_data) {
  if (client == nullptr) return;
  PLATFORMPP_C_GUARD(, {
    client->client.StartCall(lobby_id);
    // The C form says it in the callback too: voice is not in the native SDK.
    if (auto const& impl = client->client.Impl()) {
      impl->later(resultCallback(callback, user_data),
                  platformpp::detail::voiceUnavailable("StartCall"));
    }
  })
}

}  // extern "C"
