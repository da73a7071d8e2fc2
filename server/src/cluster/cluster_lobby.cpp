#include "cluster/cluster_lobby.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <climits>

namespace carcassonne::server {

namespace {

// This instance's rooms are compared with what it published this often: a lobby change reaches
// the other instances within about this (plus their refresh on the channel's message).
constexpr auto publish_period = std::chrono::milliseconds(250);
// Every live instance's entries are read again every this many periods: entries of instances
// that died, and messages lost while the subscription was down, are caught up then.
constexpr int reload_every = 4;
constexpr auto resubscribe_after = std::chrono::milliseconds(500);

long long now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

bool matches(const nlohmann::json& summary, const protocol::room_filter& f) {
  if (!f.state.empty() && summary.value("state", "") != f.state) return false;
  const auto& have = summary.contains("expansions") ? summary["expansions"] : nlohmann::json();
  return std::all_of(f.expansions.begin(), f.expansions.end(), [&](const std::string& x) {
    return have.is_array() && std::find(have.begin(), have.end(), x) != have.end();
  });
}

}  // namespace

cluster_lobby::cluster_lobby(room_directory::options o, const lobby& local)
    : options_(std::move(o)), local_(local) {
  worker_ = std::thread([this] { work(); });
  subscriber_ = std::thread([this] { subscribe(); });
}

cluster_lobby::~cluster_lobby() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    if (subscription_) subscription_->stop_subscription();
  }
  wake_.notify_all();
  worker_.join();
  subscriber_.join();
  for (auto& [room, done] : locates_) done({});  // nobody waits for Redis any more
}

lobby::page cluster_lobby::list(const protocol::room_filter& filter) const {
  protocol::room_filter all = filter;
  all.offset = 0;
  all.limit = INT_MAX;
  auto mine = local_.list(all);
  std::vector<std::pair<std::pair<long long, std::string>, nlohmann::json>> rooms;
  {
    std::lock_guard lock(mutex_);
    std::set<std::string> here;
    const auto now = now_ms();
    for (auto& j : mine.rooms) {
      const auto id = j.value("id", "");
      const auto c = created_.find(id);
      j["url"] = options_.public_url;
      here.insert(id);
      rooms.push_back({{c == created_.end() ? now : c->second, id}, std::move(j)});
    }
    for (const auto& [id, e] : remote_) {
      if (here.count(id) || !matches(e.summary, filter)) continue;
      auto j = e.summary;
      j["url"] = e.url;
      rooms.push_back({{e.created, id}, std::move(j)});
    }
  }
  std::sort(rooms.begin(), rooms.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  lobby::page out;
  out.total = rooms.size();
  const auto from = std::min(rooms.size(), static_cast<std::size_t>(filter.offset));
  for (auto i = from; i < rooms.size() && out.rooms.size() < static_cast<std::size_t>(filter.limit);
       ++i)
    out.rooms.push_back(std::move(rooms[i].second));
  return out;
}

void cluster_lobby::locate(std::string room, std::function<void(location)> done) {
  {
    std::lock_guard lock(mutex_);
    if (!stopping_) {
      locates_.emplace_back(std::move(room), std::move(done));
      done = nullptr;
    }
  }
  if (done) return done({});
  wake_.notify_all();
}

std::optional<std::string> cluster_lobby::placement() const {
  std::lock_guard lock(mutex_);
  if (instances_.empty()) return std::nullopt;
  const auto& best =
      *std::min_element(instances_.begin(), instances_.end(), [](const auto& a, const auto& b) {
        return a.rooms != b.rooms ? a.rooms < b.rooms : a.id < b.id;
      });
  if (best.id == options_.instance_id || best.url == options_.public_url || best.url.empty())
    return std::nullopt;
  return best.url;
}

void cluster_lobby::work() {
  auto next = std::chrono::steady_clock::now();
  int ticks = 0;
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    wake_.wait_until(lock, next, [&] { return stopping_ || !locates_.empty() || !dirty_.empty(); });
    if (stopping_) break;
    lock.unlock();
    std::string error;
    if (!directory_) directory_ = room_directory::open(options_, error);
    answer_locates();
    std::set<std::string> dirty;
    {
      std::lock_guard l(mutex_);
      dirty.swap(dirty_);  // without Redis, the next reload catches up
    }
    if (directory_) {
      for (const auto& room : dirty) refresh(room);
      if (std::chrono::steady_clock::now() >= next) {
        publish_changes();
        if (ticks++ % reload_every == 0) reload();
      }
    }
    if (std::chrono::steady_clock::now() >= next) next += publish_period;
    if (next < std::chrono::steady_clock::now()) next = std::chrono::steady_clock::now();
    lock.lock();
  }
}

void cluster_lobby::answer_locates() {
  decltype(locates_) asked;
  {
    std::lock_guard lock(mutex_);
    asked.swap(locates_);
  }
  for (auto& [room, done] : asked) {
    location where;
    std::string error;
    // Redis unreachable or the room unknown to it: this instance answers as it would alone.
    const auto lease = directory_ ? directory_->lease_of(room, error) : std::nullopt;
    if (lease && lease->owner != options_.instance_id) {
      const auto all = directory_->instances(error);
      const auto owner =
          std::find_if(all.begin(), all.end(), [&](const auto& i) { return i.id == lease->owner; });
      if (owner == all.end()) {
        if (error.empty()) where.what = location::kind::unavailable;  // a dead owner's lease
      } else if (owner->url != options_.public_url) {
        where = {location::kind::elsewhere, owner->url};
      }
    }
    done(where);
  }
}

void cluster_lobby::publish_changes() {
  protocol::room_filter all;
  all.limit = INT_MAX;
  auto mine = local_.list(all);
  std::set<std::string> seen;
  std::string error;
  for (const auto& j : mine.rooms) {
    const auto id = j.value("id", "");
    seen.insert(id);
    auto& p = published_[id];
    if (p.created == 0) {
      p.created = now_ms();
      std::lock_guard lock(mutex_);
      created_[id] = p.created;
    }
    auto text = j.dump();
    if (text == p.text) continue;
    const auto entry = nlohmann::json{{"created", p.created}, {"summary", j}}.dump();
    if (!directory_->publish_room(id, entry, error)) return;  // again at the next period
    p.text = std::move(text);
  }
  for (auto it = published_.begin(); it != published_.end();) {
    if (seen.count(it->first)) {
      ++it;
      continue;
    }
    if (!directory_->unpublish_room(it->first, error)) return;
    {
      std::lock_guard lock(mutex_);
      created_.erase(it->first);
    }
    it = published_.erase(it);
  }
}

void cluster_lobby::reload() {
  std::string error;
  auto instances = directory_->instances(error);
  auto entries = directory_->lobby_entries(error);
  if (!error.empty()) return;  // Redis unreachable: the last copy stays
  std::map<std::string, remote_entry> remote;
  std::set<std::string> mine;
  for (const auto& e : entries) {
    if (e.instance == options_.instance_id) {
      mine.insert(e.room);
      continue;
    }
    const auto j = nlohmann::json::parse(e.summary, nullptr, false);
    if (!j.is_object() || !j.contains("summary")) continue;
    remote[e.room] = {e.instance, e.url, j.value("created", 0LL), j["summary"]};
  }
  // Entries Redis lost (it restarted empty) are published again; entries this instance no
  // longer has (left by an earlier run under the same id) are removed.
  for (auto& [id, p] : published_)
    if (!mine.count(id)) p.text.clear();
  for (const auto& id : mine)
    if (!published_.count(id)) directory_->unpublish_room(id, error);
  std::lock_guard lock(mutex_);
  remote_ = std::move(remote);
  instances_ = std::move(instances);
}

void cluster_lobby::refresh(const std::string& room) {
  if (published_.count(room)) return;  // this instance's own change
  std::string error;
  const auto lease = directory_->lease_of(room, error);
  if (!error.empty()) return;  // the next reload catches up
  std::optional<std::string> text;
  std::string url;
  if (lease && lease->owner != options_.instance_id) {
    text = directory_->lobby_entry_of(lease->owner, room, error);
    if (!error.empty()) return;
    std::lock_guard lock(mutex_);
    for (const auto& i : instances_)
      if (i.id == lease->owner) url = i.url;
  }
  const auto j = text ? nlohmann::json::parse(*text, nullptr, false) : nlohmann::json();
  std::lock_guard lock(mutex_);
  if (!j.is_object() || !j.contains("summary") || url.empty()) {
    remote_.erase(room);  // unpublished, or its owner is not known live yet (the next reload)
    return;
  }
  remote_[room] = {lease->owner, url, j.value("created", 0LL), j["summary"]};
}

void cluster_lobby::subscribe() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    std::string error;
    if (!subscription_) {
      lock.unlock();
      auto d = room_directory::open(options_, error);
      lock.lock();
      subscription_ = std::move(d);
    }
    if (subscription_ && !stopping_) {
      auto* d = subscription_.get();
      lock.unlock();
      d->subscribe_lobby(
          [this](const std::string& room) {
            {
              std::lock_guard l(mutex_);
              dirty_.insert(room);
            }
            wake_.notify_all();
          },
          error);
      lock.lock();
      // Messages missed until the next subscription are caught up by the next reload.
      if (!stopping_) spdlog::debug("cluster: lobby subscription ended: {}", error);
    }
    wake_.wait_for(lock, resubscribe_after, [&] { return stopping_; });
  }
}

}  // namespace carcassonne::server
