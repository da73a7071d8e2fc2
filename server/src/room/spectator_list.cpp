#include "room/spectator_list.hpp"

#include <utility>

namespace carcassonne::server {

bool spectator_list::add(client_ptr c) {
  if (!c || !index_.emplace(c.get(), list_.size()).second) return false;
  list_.push_back(std::move(c));
  return true;
}

bool spectator_list::remove(const client_link* c) {
  const auto it = index_.find(c);
  if (it == index_.end()) return false;
  const std::size_t at = it->second;
  index_.erase(it);
  if (at + 1 != list_.size()) {
    list_[at] = std::move(list_.back());
    index_[list_[at].get()] = at;
  }
  list_.pop_back();
  return true;
}

void spectator_list::clear() {
  list_.clear();
  index_.clear();
}

}  // namespace carcassonne::server
