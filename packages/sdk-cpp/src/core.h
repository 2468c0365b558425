// What every part of a client shares: its callback queue (drained by RunCallbacks on the game
// thread), log, state, the game's callbacks, the dispatch handlers, the token and the settings.
// Handles keep it alive; the SDK's threads (Net) are owned by the Client and reached through a
// weak pointer, so a handle or a late callback never touches a stopped thread.
#pragma once

#include <atomic>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "json.h"
#include "log.h"
#include "platformpp/client.h"
#include "state.h"

namespace platformpp::detail {

class Net;

using Task = std::function<void()>;
/// Callback invocations a dispatch handler queues; they run after the state lock is released.
using Events = std::vector<Task>;

/// The game's callbacks (set from any thread, called only inside RunCallbacks).
struct Callbacks {
  Client::OnStatusChanged statusChanged;
  Client::UserUpdatedCallback userUpdated;
  Client::RelationshipCreatedCallback relationshipCreated;
  Client::RelationshipDeletedCallback relationshipDeleted;
  Client::RelationshipGroupsUpdatedCallback relationshipGroupsUpdated;
  Client::MessageCreatedCallback messageCreated;
  Client::MessageUpdatedCallback messageUpdated;
  Client::MessageDeletedCallback messageDeleted;
  Client::LobbyCreatedCallback lobbyCreated;
  Client::LobbyDeletedCallback lobbyDeleted;
  Client::LobbyUpdatedCallback lobbyUpdated;
  Client::LobbyMemberAddedCallback lobbyMemberAdded;
  Client::LobbyMemberRemovedCallback lobbyMemberRemoved;
  Client::LobbyMemberUpdatedCallback lobbyMemberUpdated;
  Client::ActivityInviteCallback activityInviteCreated;
  Client::ActivityInviteCallback activityInviteUpdated;
  Client::ActivityJoinCallback activityJoin;
  Client::ActivityJoinWithApplicationCallback activityJoinWithApplication;
  Client::AuthorizeRequestCallback authorizeRequest;
  Client::OpenUrlCallback openUrl;
  Client::TokenExpirationCallback tokenExpiration;
  Client::VoiceSettingsUpdatedCallback voiceSettingsUpdated;
  Client::VoiceParticipantChangedCallback voiceParticipantChanged;
};

struct Settings {
  std::string apiBase;  // without a trailing slash
  std::string webBase;  // without a trailing slash
  std::string redirectUri;
  bool gatewayCompression = true;
  std::optional<uint64_t> cpuAffinityMask;
};

class Core : public std::enable_shared_from_this<Core> {
 public:
  using Handler = std::function<void(Json const& data, Events& events)>;

  explicit Core(Settings settings);

  Settings const settings;
  Logger logger;
  /// Guards state, areas, callbacks and status (recursive: handlers call helpers that lock).
  mutable std::recursive_mutex mutex;
  SocialState state;
  AreaState areas;
  Callbacks callbacks;
  /// The status the game sees (set in RunCallbacks, in order with the dispatches).
  Client::Status status = Client::Status::Disconnected;
  /// SetApplicationId's (0: none; READY's is state.applicationId).
  uint64_t applicationId = 0;
  std::atomic<int32_t> httpTimeoutMs{30000};
  std::weak_ptr<Net> net;
  std::atomic<bool> destroyed{false};

  /// Queues a task for the game thread (any thread).
  void post(Task task);
  /// Runs the queued tasks (RunCallbacks); a throwing task is logged, the others go on.
  void drain();
  /// Drops the queued tasks (the client was destroyed).
  void clearQueue();
  /// Runs a task, keeping its exceptions in the SDK (logged at Error).
  void guarded(Task const& task);

  void setToken(AuthorizationTokenType type, std::string value);
  bool hasToken() const;
  /// The token's type, none without a token.
  std::optional<AuthorizationTokenType> tokenType() const;
  /// The Authorization header value ("Bearer …", or the token itself), empty without a token.
  std::string authorization() const;

  /// Adds a handler for a gateway dispatch (READY, MESSAGE_CREATE…); handlers run in order.
  void on(std::string const& type, Handler handler);
  /// Applies a dispatch to the state, then fires the callbacks it queued (game thread).
  void dispatch(std::string const& type, Json const& data);
  /// Queues a call of one of the game's callbacks (read when it runs).
  template <class F, class... A>
  void fire(Events& events, F Callbacks::*member, A... args) {
    events.push_back([this, member, args...] {
      F callback;
      {
        std::lock_guard lock(mutex);
        callback = callbacks.*member;
      }
      if (callback) callback(args...);
    });
  }
  /// Sets a callback under the lock.
  template <class F>
  void setCallback(F Callbacks::*member, F callback) {
    std::lock_guard lock(mutex);
    callbacks.*member = std::move(callback);
  }
  /// Fires now (game thread, no lock held).
  template <class F, class... A>
  void fireNow(F Callbacks::*member, A... args) {
    Events events;
    fire(events, member, args...);
    for (auto& event : events) guarded(event);
  }

  bool ready() const;
  /// READY's application, else SetApplicationId's, else 0.
  uint64_t ownApplicationId() const;
  /// Shows a URL to the person (the game's opener, else the system browser), game thread.
  void openUrl(std::string const& url);

 private:
  std::mutex queueMutex_;
  std::deque<Task> queue_;
  mutable std::mutex tokenMutex_;
  std::optional<std::pair<AuthorizationTokenType, std::string>> token_;
  std::map<std::string, std::vector<Handler>> handlers_;
};

}  // namespace platformpp::detail
