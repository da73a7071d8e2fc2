// Stands in for a room's strand in store-backed room tests: durability callbacks are queued, and
// run on the test's thread when it pumps.
#pragma once
#include <functional>
#include <mutex>
#include <vector>

#include "room/room.hpp"
#include "store/store.hpp"

namespace carcassonne::server::test {

struct strand_queue {
  std::mutex mutex;
  std::vector<std::function<void()>> queued;
  room::poster poster() {
    return [this](std::function<void()> f) {
      std::lock_guard lock(mutex);
      queued.push_back(std::move(f));
    };
  }
  // Waits for every queued write's commit, then runs the callbacks on this thread.
  void pump(store& s) {
    s.flush();
    std::vector<std::function<void()>> now;
    {
      std::lock_guard lock(mutex);
      now.swap(queued);
    }
    for (auto& f : now) f();
  }
};

}  // namespace carcassonne::server::test
