#include "match/seat_clocks.hpp"

#include <set>
#include <utility>

namespace carcassonne::server {

namespace {

// How often a running clock is written to the store: at most this much thinking time is given
// back after a crash (a graceful stop and every move save it exactly).
constexpr auto clock_checkpoint = std::chrono::seconds(60);

}  // namespace

seat_clocks::seat_clocks(match_options options, hooks h)
    : options_(std::move(options)),
      hooks_(std::move(h)),
      alarms_({[this] { on_timeout(); }, [this] { checkpoint(); }, [this] { hooks_.away(); }}) {}

seat_clocks::~seat_clocks() {
  if (!timer_) return;
  for (const auto h : vacation_end_)
    if (h) timer_->cancel(h);
}

void seat_clocks::set_timer(room_timer_ptr t) {
  timer_ = std::move(t);
  alarms_.set_timer(timer_);
}

void seat_clocks::start(int seats) {
  clock_ = room_clock(options_, seats);
  vacation_end_.assign(static_cast<std::size_t>(seats), 0);
}

int seat_clocks::seats() const {
  return static_cast<int>(vacation_end_.size());
}

void seat_clocks::resume() {
  clock_.resume(timer_->now());
  changed(!clock_.running());
}

void seat_clocks::changed(bool decided) {
  if (!clock_.enabled() || !timer_) return;
  if (decided) clock_.switch_to(hooks_.to_act(), timer_->now());
  if (!clock_.counting()) return alarms_.timeout_at(std::nullopt);  // none runs, or it is held
  alarms_.timeout_at(clock_.deadline());
  alarms_.checkpoint_after(clock_checkpoint);
}

void seat_clocks::checkpoint() {
  if (!playing() || !clock_.running()) return;
  hooks_.save();
  changed(false);  // schedules the next checkpoint
}

void seat_clocks::on_timeout() {
  const auto seat = hooks_.to_act();
  if (!seat || hooks_.stopped()) return;
  const auto player = hooks_.player(*seat);
  if (!options_.vacation_applies() || !lookup_ || player.empty()) return hooks_.time_out(*seat);
  // A player on vacation never loses on time: the store says (their vacation may have started
  // on another instance, or before this room was rebuilt).
  if (timeout_check_pending_) return;
  timeout_check_pending_ = true;
  const auto moves = hooks_.moves();
  lookup_(player, [this, acting = *seat, moves, player](std::optional<ms> left, bool ok) {
    timeout_check_pending_ = false;
    if (hooks_.stopped() || hooks_.to_act() != acting || hooks_.moves() != moves)
      return;  // the game went on (or ended): its clock was reset
    if (!ok) return alarms_.timeout_after(std::chrono::seconds(30));  // ask again, forfeit nobody
    if (left && left->count() > 0) return vacation_changed(player, left);
    if (clock_.counting() && clock_.remaining(acting, timer_->now()).count() == 0)
      hooks_.time_out(acting);
  });
}

void seat_clocks::attach_lookup(vacation_lookup f) {
  lookup_ = std::move(f);
  look_up();
}

void seat_clocks::look_up() {
  if (!lookup_ || !options_.vacation_applies() || !playing() || !timer_) return;
  std::set<std::string> asked;
  for (int i = 0; i < seats(); ++i) {
    auto player = hooks_.player(i);
    if (player.empty() || !asked.insert(player).second) continue;
    lookup_(player, [this, player](std::optional<ms> left, bool ok) {
      if (ok && left) vacation_changed(player, left);
    });
  }
}

void seat_clocks::vacation_changed(const std::string& player, std::optional<ms> left) {
  if (!options_.vacation_applies() || !playing() || !timer_ || player.empty()) return;
  if (hooks_.stopped()) return;
  bool changed = false;
  for (int i = 0; i < seats(); ++i)
    if (hooks_.player(i) == player) changed = hold_seat(i, left) || changed;
  if (changed) holds_changed();
}

bool seat_clocks::hold_seat(int seat, std::optional<ms> left) {
  auto& end = vacation_end_[static_cast<std::size_t>(seat)];
  if (end) timer_->cancel(std::exchange(end, 0));
  const bool on = left && left->count() > 0 && !hooks_.forfeited(seat);
  if (on) {
    // The end as the store said it: a vacation ended or extended early is told anew.
    end = timer_->call_after(*left, [this, seat] {
      vacation_end_[static_cast<std::size_t>(seat)] = 0;
      if (playing() && hold_seat(seat, std::nullopt)) holds_changed();
    });
  }
  if (clock_.held(seat) == on) return false;
  clock_.hold(seat, on, timer_->now());
  hooks_.held(seat, on);
  return true;
}

void seat_clocks::holds_changed() {
  changed(false);  // the running seat's deadline: gone while held, anew when let go
  hooks_.holds_changed();
}

}  // namespace carcassonne::server
