// A room's spectators' connections: added at the end, found and removed in constant time, so
// that a crowd arriving or leaving costs each of its members the same whatever the crowd's size
// (with a scan per arrival or departure, 10,000 of them would cost 50 million steps on the room's
// strand, 5 billion at the 100,000 --max-spectators allows). A removal moves the last one into
// the gap: their order is no promise (every spectator gets the same frames). Room-strand only.
#pragma once
#include <cstddef>
#include <unordered_map>
#include <vector>

#include "room/client_link.hpp"

namespace carcassonne::server {

class spectator_list {
 public:
  // False (and nothing changes) when `c` is null or already here.
  bool add(client_ptr c);
  // False when `c` is not here.
  bool remove(const client_link* c);
  bool contains(const client_link* c) const { return index_.count(c) != 0; }
  std::size_t size() const { return list_.size(); }
  bool empty() const { return list_.empty(); }
  void clear();
  // Every one, for a frame to all of them (outbox::send_all).
  const std::vector<client_ptr>& all() const { return list_; }
  auto begin() const { return list_.begin(); }
  auto end() const { return list_.end(); }

 private:
  std::vector<client_ptr> list_;
  std::unordered_map<const client_link*, std::size_t> index_;  // position in list_
};

}  // namespace carcassonne::server
