// A two-player console game on the native Social SDK (docs/sdk-cpp.md): friends, rich presence,
// DMs and lobby chat. Run it twice, one player per terminal, against `npm start`:
//   ./social-game --name Ada        # terminal 1
//   ./social-game --name Bob        # terminal 2
// It reads the API address and the app's bot token from data/demo.json (or --api, --bot-token).
#include <platformpp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include "game_backend.h"

namespace {

constexpr char kUsage[] = R"(Usage: social-game --name NAME [--api URL] [--bot-token TOKEN] [--demo FILE]

  --name NAME        the player (a provisional account is made for it)
  --api URL          the API base, e.g. http://127.0.0.1:8080/api/v10 (default: the demo file's)
  --bot-token TOKEN  the game's bot token (default: the demo file's)
  --demo FILE        what `npm start` wrote (default: data/demo.json)

Commands, one per line:
  /friend ID|USERNAME  send a game friend request (each player prints its id when ready)
  /accept              accept the friend requests you received
  /friends             your friends, by group
  /status TEXT         publish your rich presence
  /dm NAME TEXT        a direct message to a friend
  /history NAME        the last messages with a friend
  /lobby SECRET        join the lobby of SECRET (made if new)
  /say TEXT            talk in the lobby
  /leave               leave the lobby
  /quit
)";

using platformpp::Client;
using platformpp::ClientResult;
using platformpp::RelationshipType;

struct Options {
  std::string name;
  std::string api;
  std::string botToken;
  std::string demo = "data/demo.json";
};

bool parse(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      std::exit(0);
    }
    if (i + 1 >= argc) return false;
    std::string value = argv[++i];
    if (arg == "--name") options.name = value;
    else if (arg == "--api") options.api = value;
    else if (arg == "--bot-token") options.botToken = value;
    else if (arg == "--demo") options.demo = value;
    else return false;
  }
  if (options.api.empty() || options.botToken.empty()) {
    std::ifstream file(options.demo);
    std::stringstream text;
    text << file.rdbuf();
    if (options.api.empty()) options.api = jsonString(text.str(), "api_url");
    if (options.botToken.empty()) options.botToken = jsonString(text.str(), "bot_token");
  }
  return !options.name.empty() && !options.api.empty() && !options.botToken.empty();
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), ::tolower);
  return text;
}

class Game {
 public:
  explicit Game(Client& client) : client_(client) {}

  void listen() {
    client_.SetStatusChangedCallback([this](Client::Status status, Client::Error, int32_t detail) {
      if (status == Client::Status::Ready) {
        me_ = client_.GetCurrentUserV2()->Id();
        say("[ready] You are " + client_.GetCurrentUserV2()->DisplayName() + " (id " +
            std::to_string(me_) + ")");
      } else if (status == Client::Status::Disconnected && detail != 0) {
        say("[disconnected] closed with " + std::to_string(detail));
      }
    });
    client_.SetRelationshipCreatedCallback([this](uint64_t id, bool) { onRelationship(id); });
    client_.SetUserUpdatedCallback([this](uint64_t id) { onUser(id); });
    client_.SetMessageCreatedCallback([this](uint64_t id) { onMessage(id); });
    client_.SetLobbyMemberAddedCallback([this](uint64_t, uint64_t member) {
      if (member != me_) say("[lobby] " + nameOf(member) + " joined");
    });
    client_.SetLobbyMemberRemovedCallback([this](uint64_t, uint64_t member) {
      if (member != me_) say("[lobby] " + nameOf(member) + " left");
    });
  }

  /// One typed line; false for /quit.
  bool command(std::string const& line) {
    std::istringstream in(line);
    std::string verb;
    in >> verb;
    std::string rest;
    std::getline(in, rest);
    rest.erase(0, rest.find_first_not_of(' '));
    if (verb == "/quit") return false;
    if (verb == "/friend") friendRequest(rest);
    else if (verb == "/accept") acceptAll();
    else if (verb == "/friends") listFriends();
    else if (verb == "/status") status(rest);
    else if (verb == "/dm") directMessage(rest);
    else if (verb == "/history") history(rest);
    else if (verb == "/lobby") joinLobby(rest);
    else if (verb == "/say") lobbyMessage(rest);
    else if (verb == "/leave") leaveLobby();
    else if (!verb.empty()) say("Unknown command " + verb + ": see --help.");
    return true;
  }

 private:
  static void say(std::string const& line) { std::cout << line << std::endl; }

  static std::function<void(ClientResult)> report(std::string what) {
    return [what](ClientResult result) {
      if (!result.Successful()) say("[error] " + what + ": " + result.Error());
    };
  }

  std::string nameOf(uint64_t id) const {
    auto user = client_.GetUser(id);
    return user ? user->DisplayName() : std::to_string(id);
  }

  std::optional<uint64_t> friendNamed(std::string const& name) const {
    for (auto const& relationship : client_.GetRelationships()) {
      if (relationship.GameRelationshipType() == RelationshipType::Friend &&
          lower(nameOf(relationship.Id())) == lower(name)) {
        return relationship.Id();
      }
    }
    return std::nullopt;
  }

  void onRelationship(uint64_t id) {
    switch (client_.GetRelationshipHandle(id).GameRelationshipType()) {
      case RelationshipType::PendingIncoming:
        say("[friend request] from " + nameOf(id) + " (type /accept)");
        break;
      case RelationshipType::PendingOutgoing:
        say("[friend request] sent to " + nameOf(id));
        break;
      case RelationshipType::Friend:
        say("[friend] " + nameOf(id) + " is your friend");
        break;
      default:
        break;
    }
  }

  void onUser(uint64_t id) {
    auto user = client_.GetUser(id);
    if (!user || id == me_) return;
    auto activity = user->GameActivity();
    std::string state = activity ? activity->State().value_or("") : "";
    if (state.empty() || presence_[id] == state) return;
    presence_[id] = state;
    say("[presence] " + user->DisplayName() + ": " + state);
  }

  void onMessage(uint64_t id) {
    auto message = client_.GetMessageHandle(id);
    if (!message || message->AuthorId() == me_) return;
    std::string kind = message->Lobby() ? "[lobby] " : "[dm] ";
    say(kind + nameOf(message->AuthorId()) + ": " + message->Content());
  }

  void friendRequest(std::string const& who) {
    bool id = !who.empty() && who.find_first_not_of("0123456789") == std::string::npos;
    if (id) {
      client_.SendGameFriendRequestById(std::stoull(who), report("/friend"));
    } else {
      client_.SendGameFriendRequest(who, report("/friend"));
    }
  }

  void acceptAll() {
    for (auto const& relationship : client_.GetRelationships()) {
      if (relationship.GameRelationshipType() == RelationshipType::PendingIncoming) {
        client_.AcceptGameFriendRequest(relationship.Id(), report("/accept"));
      }
    }
  }

  void listFriends() {
    using Group = platformpp::RelationshipGroupType;
    for (auto [group, title] : {std::pair{Group::OnlinePlayingGame, "Playing"},
                                std::pair{Group::OnlineElsewhere, "Online"},
                                std::pair{Group::Offline, "Offline"}}) {
      for (auto const& relationship : client_.GetRelationshipsByGroup(group)) {
        say(std::string("  ") + title + ": " + nameOf(relationship.Id()));
      }
    }
  }

  void status(std::string const& text) {
    platformpp::Activity activity;
    activity.SetState(text);
    activity.SetDetails("The console demo");
    client_.UpdateRichPresence(activity, report("/status"));
  }

  void directMessage(std::string const& rest) {
    auto space = rest.find(' ');
    auto to = friendNamed(rest.substr(0, space));
    if (!to || space == std::string::npos) return say("[error] /dm NAME TEXT, to a friend");
    client_.SendUserMessage(*to, rest.substr(space + 1), [](ClientResult result, uint64_t) {
      if (!result.Successful()) say("[error] /dm: " + result.Error());
    });
  }

  void history(std::string const& name) {
    auto with = friendNamed(name);
    if (!with) return say("[error] /history NAME, of a friend");
    client_.GetUserMessagesWithLimit(
        *with, 10, [this](ClientResult result, std::vector<platformpp::MessageHandle> messages) {
          if (!result.Successful()) return say("[error] /history: " + result.Error());
          for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
            say("  " + nameOf(it->AuthorId()) + ": " + it->Content());
          }
        });
  }

  void joinLobby(std::string const& secret) {
    client_.CreateOrJoinLobby(secret, [this](ClientResult result, uint64_t id) {
      if (!result.Successful()) return say("[error] /lobby: " + result.Error());
      lobby_ = id;
      auto handle = client_.GetLobbyHandle(id);
      say("[lobby] joined (" + std::to_string(handle ? handle->LobbyMemberIds().size() : 1) +
          " players)");
    });
  }

  void lobbyMessage(std::string const& text) {
    if (lobby_ == 0) return say("[error] join a lobby first: /lobby SECRET");
    client_.SendLobbyMessage(lobby_, text, [](ClientResult result, uint64_t) {
      if (!result.Successful()) say("[error] /say: " + result.Error());
    });
  }

  void leaveLobby() {
    if (lobby_ == 0) return;
    client_.LeaveLobby(lobby_, report("/leave"));
    lobby_ = 0;
  }

  Client& client_;
  uint64_t me_ = 0;
  uint64_t lobby_ = 0;
  std::map<uint64_t, std::string> presence_;
};

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse(argc, argv, options)) {
    std::cerr << "Give --name, and --api and --bot-token unless " << options.demo
              << " exists (start the platform with `npm start`).\n\n"
              << kUsage;
    return 2;
  }
  std::string error;
  std::string token = mintPlayerToken(options.api, options.botToken, options.name, error);
  if (token.empty()) {
    std::cerr << error << "\n";
    return 1;
  }
  Client client(options.api, "");
  client.AddLogCallback(
      [](std::string line, platformpp::LoggingSeverity) { std::cerr << "[sdk] " << line << "\n"; },
      platformpp::LoggingSeverity::Warning);
  Game game(client);
  game.listen();
  client.UpdateToken(platformpp::AuthorizationTokenType::Bearer, token, [](ClientResult) {});
  client.Connect();

  std::mutex mutex;
  std::deque<std::string> lines;
  std::atomic<bool> closed{false};
  std::thread reader([&] {
    std::string line;
    while (std::getline(std::cin, line)) {
      std::lock_guard lock(mutex);
      lines.push_back(line);
    }
    closed = true;
  });
  reader.detach();
  for (;;) {
    platformpp::RunCallbacks();
    bool ended = closed;
    std::deque<std::string> typed;
    {
      std::lock_guard lock(mutex);
      typed.swap(lines);
    }
    for (auto const& line : typed) {
      if (!game.command(line)) {
        client.Disconnect();
        return 0;
      }
    }
    if (ended && typed.empty()) {
      client.Disconnect();
      return 0;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(16));
  }
}
