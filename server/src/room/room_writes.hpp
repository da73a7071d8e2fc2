// A room's durability: the writes it hands to the store and the frames that wait for them.
// Every write carries the lease generation the instance holds for the room (a cluster's fence);
// no frame leaves before the writes it may show are durable (the outbox); the seq numbers the
// store holds a claim to; and the room's stop, after which nothing is written again. What to
// write (the meta, a move) is the room's; how it becomes durable is this part's. Room-strand
// only, but for the lease generation.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "room/client_link.hpp"
#include "room/outbox.hpp"
#include "store/store.hpp"

namespace carcassonne::server {

// What a connection is told of a room that stopped here for another instance to serve it.
inline std::string moved_message(const std::string& room_id) {
  std::string m("another instance serves room ");  // in place: GCC 12's false -Wrestrict
  m += room_id;
  m += " now: reconnect and resume with your token";
  return m;
}

class room_writes {
 public:
  using poster = std::function<void(std::function<void()>)>;
  using submitter = std::function<void(store_write, store::done_fn)>;
  // What the room does when a write comes back, on its strand (through `post`): the store fenced
  // it off (another instance owns the room), or it failed. `connections` says how many may get
  // the frames a durable write lets go.
  struct outcomes {
    std::function<void()> fenced, failed;
    std::function<std::size_t()> connections;
  };

  // From now on every change is written through `submit`; its answers come back through `post`,
  // and so do the later steps of a hand-over to many connections (handover.hpp).
  void attach(submitter submit, poster post, outcomes on);
  void attach(store* s, poster post, outcomes on) {
    attach([s](store_write w, store::done_fn done) { s->submit(std::move(w), std::move(done)); },
           std::move(post), std::move(on));
  }
  // Whether changes are written (a store attached, the room not stopped).
  bool writing() const { return static_cast<bool>(submit_); }

  // Issues `w` stamped with the lease generation; a move's seq is claimed by it.
  void write(store_write w);
  // Frames leave through here: held while a write issued before them is not yet durable.
  void send(const client_ptr& c, frame_ptr frame) { outbox_.send(c, std::move(frame)); }
  void send_all(const std::vector<client_ptr>& cs, const frame_ptr& frame) {
    outbox_.send_all(cs, frame);
  }
  bool writes_pending() const { return outbox_.writes_pending(); }

  // The highest seq the store holds a claim to (a stored meta's seq, a journaled move's): a room
  // rebuilt from the store starts there, so seq never goes back across restarts and failovers.
  std::uint64_t claimed() const { return claimed_; }
  void claim(std::uint64_t seq) { claimed_ = std::max(claimed_, seq); }

  // Journal rows written (undo markers included): the next row's number, counted.
  std::int64_t rows() const { return rows_; }
  std::int64_t next_row() { return rows_++; }

  // The room stops here (its lease lost, or a write failed): the frames free to leave are handed
  // over, the frames held are handed to `each(client, frame)`, oldest first, and nothing is
  // written or held again.
  template <class F>
  void stop(F&& each) {
    stopped_ = true;
    submit_ = nullptr;
    outbox_.give_up(std::forward<F>(each));
  }
  bool stopped() const { return stopped_; }

  // Thread-safe: set right after the lease is taken.
  void set_generation(std::uint64_t g) { generation_.store(g); }
  std::uint64_t generation() const { return generation_.load(); }

 private:
  void come_back(std::uint64_t n, write_result r);

  submitter submit_;
  poster post_;
  outcomes on_;
  outbox outbox_;
  std::uint64_t claimed_ = 0;
  std::int64_t rows_ = 0;
  bool stopped_ = false;
  std::atomic<std::uint64_t> generation_{0};
};

}  // namespace carcassonne::server
