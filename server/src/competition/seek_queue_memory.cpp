// The queue of one instance (seek_queue.hpp): a map under a mutex.
#include <algorithm>
#include <map>
#include <mutex>

#include "competition/seek_queue.hpp"

namespace carcassonne::server::competition {

namespace {

class memory_seek_queue final : public seek_queue {
 public:
  added add(const seek& s, std::string&) override {
    std::lock_guard lock(mutex_);
    return seeks_.emplace(s.player, s).second ? added::yes : added::already_seeking;
  }
  bool remove(const std::string& player, std::string&) override {
    std::lock_guard lock(mutex_);
    return seeks_.erase(player) > 0;
  }
  bool lead(std::string&) override { return true; }
  std::optional<std::vector<seek>> all(std::string&) override {
    std::lock_guard lock(mutex_);
    std::vector<seek> out;
    for (const auto& [player, s] : seeks_) out.push_back(s);
    return out;
  }
  bool take(std::span<const std::string> players, std::string&) override {
    std::lock_guard lock(mutex_);
    if (!std::all_of(players.begin(), players.end(),
                     [&](const std::string& p) { return seeks_.contains(p); }))
      return false;
    for (const auto& p : players) seeks_.erase(p);
    return true;
  }
  void prune(std::span<const std::string> live, std::string&) override {
    std::lock_guard lock(mutex_);
    std::erase_if(seeks_, [&](const auto& entry) {
      return std::find(live.begin(), live.end(), entry.second.instance) == live.end();
    });
  }
  bool announce(const std::string& notice, std::string&) override {
    std::function<void(const std::string&)> listener;
    {
      std::lock_guard lock(mutex_);
      listener = listener_;
    }
    if (listener) listener(notice);  // outside the lock: the listener may use the queue
    return true;
  }
  void on_notice(std::function<void(const std::string& notice)> listener) override {
    std::lock_guard lock(mutex_);
    listener_ = std::move(listener);
  }

 private:
  std::mutex mutex_;
  std::map<std::string, seek> seeks_;
  std::function<void(const std::string&)> listener_;
};

}  // namespace

std::unique_ptr<seek_queue> make_memory_seek_queue() {
  return std::make_unique<memory_seek_queue>();
}

}  // namespace carcassonne::server::competition
