// RunCallbacks: the one place the game's callbacks run, on the thread that calls it.
#include <algorithm>
#include <mutex>
#include <vector>

#include "client_impl.h"

namespace platformpp {

namespace detail {

namespace {

/// Every client's core, for RunCallbacks (the reference SDK's pump is a free function).
struct Registry {
  std::mutex mutex;
  std::vector<std::weak_ptr<Core>> cores;
};

Registry& registry() {
  static Registry instance;
  return instance;
}

}  // namespace

void registerCore(std::shared_ptr<Core> const& core) {
  auto& reg = registry();
  std::lock_guard lock(reg.mutex);
  reg.cores.erase(std::remove_if(reg.cores.begin(), reg.cores.end(),
                                 [](auto const& weak) { return weak.expired(); }),
                  reg.cores.end());
  reg.cores.push_back(core);
}

}  // namespace detail

void RunCallbacks() {
  std::vector<std::shared_ptr<detail::Core>> live;
  {
    auto& reg = detail::registry();
    std::lock_guard lock(reg.mutex);
    for (auto const& weak : reg.cores) {
      if (auto core = weak.lock()) live.push_back(std::move(core));
    }
  }
  for (auto const& core : live) {
    if (!core->destroyed.load()) core->drain();
  }
}

}  // namespace platformpp
