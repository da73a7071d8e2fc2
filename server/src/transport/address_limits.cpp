#include "transport/address_limits.hpp"

#include <algorithm>
#include <sstream>

#include "room/room.hpp"

namespace carcassonne::server {

bool token_bucket::take(clock::time_point now) {
  const double elapsed = std::chrono::duration<double>(now - last_).count();
  if (elapsed > 0) {
    tokens_ = std::min(burst_, tokens_ + elapsed * rate_);
    last_ = now;
  }
  if (tokens_ < 1) return false;
  tokens_ -= 1;
  return true;
}

bool token_bucket::full(clock::time_point now) const {
  const double elapsed = std::chrono::duration<double>(now - last_).count();
  return tokens_ + std::max(0.0, elapsed) * rate_ >= burst_;
}

struct address_limits::usage {
  explicit usage(const config& c, clock::time_point now)
      : connection_rate(c.address_connection_rate, c.address_connection_burst, now),
        messages(c.address_message_rate, c.address_message_burst, now),
        rooms(c.address_room_rate, c.address_room_burst, now),
        refusals(c.address_connection_rate, c.address_connection_burst, now) {}
  std::mutex mutex;  // the buckets and the room list; `connections` is under the owner's mutex
  std::size_t connections = 0;
  token_bucket connection_rate, messages, rooms;
  std::vector<std::weak_ptr<const room>> public_rooms;
  // Refused connections, allowed as fast as admitted ones (a client retrying after Retry-After
  // stays well within); beyond, the address is shunned until shunned_until.
  token_bucket refusals;
  clock::time_point shunned_until{};
};

namespace {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

bool listed(const std::string& list, const std::string& address) {
  const auto items = split_list(list);
  return std::find(items.begin(), items.end(), address) != items.end();
}

}  // namespace

bool address_limits::exempt(const std::string& address) const {
  return listed(config_.exempt_addresses, address);
}

std::unique_ptr<address_limits::lease> address_limits::admit(const std::string& address,
                                                             refusal& why, clock::time_point now) {
  why = refusal::none;
  if (exempt(address)) return std::make_unique<lease>(this, nullptr, address);
  std::lock_guard lock(mutex_);
  prune_some(now);
  auto& u = usage_[address];
  if (!u) u = std::make_shared<usage>(config_, now);
  std::lock_guard bucket(u->mutex);
  if (u->connections >= config_.max_connections_per_address)
    why = refusal::connections;
  else if (!u->connection_rate.take(now))
    why = refusal::connection_rate;
  if (why != refusal::none) {
    if (!u->refusals.take(now)) u->shunned_until = now + shun_time;
    return nullptr;
  }
  ++u->connections;
  return std::make_unique<lease>(this, u, address);
}

bool address_limits::shunned(const std::string& address, clock::time_point now) {
  std::lock_guard lock(mutex_);
  const auto it = usage_.find(address);
  if (it == usage_.end()) return false;
  std::lock_guard bucket(it->second->mutex);
  auto& until = it->second->shunned_until;
  if (until <= now) return false;
  until = now + shun_time;
  return true;
}

void address_limits::release(const std::shared_ptr<usage>& u) {
  std::lock_guard lock(mutex_);
  if (u->connections > 0) --u->connections;
}

void address_limits::prune_some(clock::time_point now) {
  // A few addresses per admission: idle ones (no connection, buckets refilled) are forgotten,
  // so the map stays bounded by the addresses active lately, with no sweep of them all.
  auto it = usage_.lower_bound(prune_from_);
  for (int i = 0; i < 4 && !usage_.empty(); ++i) {
    if (it == usage_.end()) it = usage_.begin();
    const auto& u = it->second;
    bool idle = u->connections == 0;
    if (idle) {
      std::lock_guard bucket(u->mutex);
      std::erase_if(u->public_rooms, [](const std::weak_ptr<const room>& w) {
        const auto r = w.lock();
        return !r || r->listing().summary().state != room_state::waiting;
      });
      idle = u->connection_rate.full(now) && u->rooms.full(now) && u->public_rooms.empty() &&
             u->shunned_until <= now;
    }
    it = idle ? usage_.erase(it) : std::next(it);
  }
  prune_from_ = it == usage_.end() ? std::string() : it->first;
}

std::size_t address_limits::tracked() const {
  std::lock_guard lock(mutex_);
  return usage_.size();
}

address_limits::lease::~lease() {
  if (usage_) owner_->release(usage_);
}

bool address_limits::lease::take_message(clock::time_point now) {
  if (!usage_) return true;
  std::lock_guard lock(usage_->mutex);
  return usage_->messages.take(now);
}

bool address_limits::lease::take_room(clock::time_point now) {
  if (!usage_) return true;
  std::lock_guard lock(usage_->mutex);
  return usage_->rooms.take(now);
}

bool address_limits::lease::may_open_public_room() {
  if (!usage_) return true;
  std::lock_guard lock(usage_->mutex);
  auto& list = usage_->public_rooms;
  std::erase_if(list, [](const std::weak_ptr<const room>& w) {
    const auto r = w.lock();
    return !r || r->listing().summary().state != room_state::waiting;
  });
  return list.size() < owner_->config_.max_public_rooms_per_address;
}

void address_limits::lease::opened_public_room(std::weak_ptr<const room> r) {
  if (!usage_) return;
  std::lock_guard lock(usage_->mutex);
  usage_->public_rooms.push_back(std::move(r));
}

std::string client_address(const config& c, const std::string& peer, std::string_view forwarded) {
  if (!c.trust_forwarded_for || forwarded.empty() || !listed(c.exempt_addresses, peer)) return peer;
  // The proxy appends the address it saw last: earlier entries are the client's own claims.
  const auto comma = forwarded.rfind(',');
  std::string last(comma == std::string_view::npos ? forwarded : forwarded.substr(comma + 1));
  last.erase(0, last.find_first_not_of(" \t"));
  last.erase(last.find_last_not_of(" \t") + 1);
  return last.empty() || last.size() > 64 ? peer : last;
}

}  // namespace carcassonne::server
