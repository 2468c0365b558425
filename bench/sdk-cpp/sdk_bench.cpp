// The native SDK's measurements for bench/sdkCpp.js: Connect() until Client::Status Ready, one
// player after another, and a DM from Ada's SendUserMessage to Bob's message-created callback,
// one in flight. Reads the API base and the tokens from standard input (one per line: the API
// base, then `players` tokens, then Ada's and Bob's), prints {"ready":[ms…],"dm":[ms…]}.
#include <platformpp.h>

#include <chrono>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using platformpp::Client;

double since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// Pumps RunCallbacks until `done`; false after 20 s.
template <class F>
bool until(F done) {
  auto deadline = Clock::now() + std::chrono::seconds(20);
  while (!done()) {
    if (Clock::now() > deadline) return false;
    platformpp::RunCallbacks();
    // A game pumps once a frame; the bench pumps every 0.2 ms so the pump adds little.
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

bool ready(Client& client, std::string const& token, double& ms) {
  client.UpdateToken(platformpp::AuthorizationTokenType::Bearer, token, {});
  auto start = Clock::now();
  bool isReady = false;
  client.SetStatusChangedCallback([&](Client::Status status, Client::Error, int32_t) {
    if (status == Client::Status::Ready && !isReady) {
      isReady = true;
      ms = since(start);
    }
  });
  client.Connect();
  return until([&] { return isReady; });
}

void print(char const* name, std::vector<double> const& samples) {
  std::cout << "\"" << name << "\":[";
  for (size_t i = 0; i < samples.size(); ++i) std::cout << (i == 0 ? "" : ",") << samples[i];
  std::cout << "]";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "Usage: sdk-bench PLAYERS ROUNDS < (API base, PLAYERS tokens, Ada's, Bob's)\n";
    return 2;
  }
  int players = std::stoi(argv[1]);
  int rounds = std::stoi(argv[2]);
  std::string api;
  std::getline(std::cin, api);
  std::vector<std::string> tokens;
  for (std::string line; std::getline(std::cin, line);) tokens.push_back(line);
  if (static_cast<int>(tokens.size()) != players + 2) return 2;

  std::vector<double> readyMs;
  for (int i = 0; i < players; ++i) {
    Client client(api, "");
    double ms = 0;
    if (!ready(client, tokens[static_cast<size_t>(i)], ms)) return 1;
    readyMs.push_back(ms);
    client.Disconnect();
  }

  Client ada(api, "");
  Client bob(api, "");
  double ignored = 0;
  if (!ready(ada, tokens[static_cast<size_t>(players)], ignored) ||
      !ready(bob, tokens[static_cast<size_t>(players) + 1], ignored)) {
    return 1;
  }
  uint64_t adaId = ada.GetCurrentUserV2()->Id();
  uint64_t bobId = bob.GetCurrentUserV2()->Id();
  ada.SendGameFriendRequestById(bobId, {});
  if (!until([&] {
        return bob.GetRelationshipHandle(adaId).GameRelationshipType() ==
               platformpp::RelationshipType::PendingIncoming;
      })) {
    return 1;
  }
  bob.AcceptGameFriendRequest(adaId, {});
  if (!until([&] {
        return ada.GetRelationshipHandle(bobId).GameRelationshipType() ==
               platformpp::RelationshipType::Friend;
      })) {
    return 1;
  }
  std::string waiting;
  bool arrived = false;
  bob.SetMessageCreatedCallback([&](uint64_t id) {
    auto message = bob.GetMessageHandle(id);
    if (message && message->Content() == waiting) arrived = true;
  });
  std::vector<double> dmMs;
  for (int i = 0; i < rounds; ++i) {
    waiting = "round " + std::to_string(i);
    arrived = false;
    auto start = Clock::now();
    ada.SendUserMessage(bobId, waiting, {});
    if (!until([&] { return arrived; })) return 1;
    dmMs.push_back(since(start));
  }
  std::cout << "{";
  print("ready", readyMs);
  std::cout << ",";
  print("dm", dmMs);
  std::cout << "}" << std::endl;
  return 0;
}
