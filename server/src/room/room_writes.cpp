#include "room/room_writes.hpp"

#include <variant>

namespace carcassonne::server {

void room_writes::attach(submitter submit, poster post, outcomes on) {
  if (stopped_) return;
  submit_ = std::move(submit);
  post_ = std::move(post);
  on_ = std::move(on);
  outbox_.pace(post_);
}

void room_writes::write(store_write w) {
  if (!submit_) return;
  if (const auto* m = std::get_if<move_write>(&w)) claim(m->seq);
  std::visit([g = generation_.load()](auto& op) { op.generation = g; }, w);
  const auto n = outbox_.issue();
  submit_(std::move(w),
          [this, n, post = post_](write_result r) { post([this, n, r] { come_back(n, r); }); });
}

void room_writes::come_back(std::uint64_t n, write_result r) {
  if (stopped_) return;                 // held frames were given up when the room stopped
  if (r.fenced) return on_.fenced();    // another instance owns the room: nothing of it may show
  if (!r.durable) return on_.failed();  // nothing of the failed write, or after it, is shown
  outbox_.durable(n, on_.connections ? on_.connections() : 0);
}

}  // namespace carcassonne::server
