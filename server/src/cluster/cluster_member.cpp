#include "cluster/cluster_member.hpp"

#include <spdlog/spdlog.h>

namespace carcassonne::server {

cluster_member::cluster_member(room_directory::options o, std::function<std::int64_t()> load)
    : cluster_member(std::move(o), std::move(load), failover_hooks{}) {}

cluster_member::cluster_member(room_directory::options o, std::function<std::int64_t()> load,
                               failover_hooks hooks)
    : options_(std::move(o)), load_(std::move(load)), hooks_(std::move(hooks)) {
  beat();  // registered before the first client arrives, or the log says why not
  thread_ = std::thread([this] { loop(); });
}

cluster_member::~cluster_member() {
  stop();
}

void cluster_member::stop() {
  {
    std::lock_guard lock(wait_mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void cluster_member::release(const std::string& room) {
  std::lock_guard lock(release_mutex_);
  to_release_.push_back(room);
}

void cluster_member::leave() {
  stop();
  std::lock_guard lock(mutex_);
  std::string error;
  if (!directory_ || !reachable_) return;
  if (directory_->release_owned(error))
    spdlog::info("cluster: every lease of instance {} given up", options_.instance_id);
  else
    spdlog::warn("cluster: leases not given up ({}): they lapse after the TTL", error);
}

void cluster_member::loop() {
  // Three beats per TTL: one lost beat never lets a lease lapse.
  const auto period = options_.ttl / 3;
  std::unique_lock lock(wait_mutex_);
  while (!wake_.wait_for(lock, period, [&] { return stopping_; })) {
    lock.unlock();
    beat();
    lock.lock();
  }
}

void cluster_member::beat() {
  std::unique_lock lock(mutex_);
  std::string error;
  if (!directory_) directory_ = room_directory::open(options_, error);
  bool ok = directory_ != nullptr;
  if (ok && hooks_.lost && !released_) released_ = ok = directory_->release_owned(error);
  std::vector<std::string> lost;
  if (ok) {
    std::vector<std::string> gone;
    {
      std::lock_guard release_lock(release_mutex_);
      gone.swap(to_release_);
    }
    for (const auto& room : gone) directory_->release(room);
    lost = directory_->heartbeat(load_(), error);
    for (const auto& room : lost)
      spdlog::error("cluster: the lease of room {} was taken by another instance", room);
    ok = error.empty();
  }
  const bool was = reachable_.exchange(ok);
  if (ok && (!was || first_beat_))
    spdlog::info("cluster: instance {} registered in Redis as {}", options_.instance_id,
                 options_.public_url);
  else if (!ok && (was || first_beat_))
    spdlog::error("cluster: Redis unreachable ({}): serving the rooms here, refusing new ones",
                  error);
  first_beat_ = false;
  // Outside the lock: claim() (a client's create_room) never waits for an adoption. directory_
  // is only ever set by beat(), on this thread, and stays once set.
  auto* directory = ok ? directory_.get() : nullptr;
  lock.unlock();
  if (hooks_.lost)
    for (const auto& room : lost) hooks_.lost(room);
  if (directory && hooks_.after_beat) hooks_.after_beat(*directory);
}

bool cluster_member::claim(const std::string& room) {
  std::lock_guard lock(mutex_);
  if (!directory_ || !reachable_) return false;
  std::string error;
  room_lease holder;
  if (const auto generation = directory_->acquire(room, holder, error)) {
    if (hooks_.claimed) hooks_.claimed(room, *generation);
    return true;
  }
  if (!error.empty()) {
    reachable_ = false;
    spdlog::error("cluster: Redis unreachable ({}): refusing new rooms", error);
  }
  return false;
}

std::vector<std::string> cluster_member::live_instances() {
  std::lock_guard lock(mutex_);
  std::vector<std::string> ids;
  if (!directory_ || !reachable_) return ids;
  std::string error;
  for (const auto& i : directory_->instances(error)) ids.push_back(i.id);
  return ids;
}

}  // namespace carcassonne::server
