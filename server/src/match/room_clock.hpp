// The seats' clocks of one room (match_options' time control): how much time each seat has and
// whose clock runs. Pure bookkeeping on time points the room passes in (its room_timer's now), so
// that tests drive it with a fake timer. Room strand only.
#pragma once
#include <nlohmann/json.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "match/match_options.hpp"
#include "match/room_timer.hpp"

namespace carcassonne::server {

class room_clock {
 public:
  using time_point = room_timer::clock::time_point;
  using ms = std::chrono::milliseconds;

  room_clock() = default;
  room_clock(const match_options& o, int seats);

  bool enabled() const { return options_.clock != time_control::none; }
  std::optional<int> running() const { return running_; }
  // The running seat's time left at `now`, or a stopped seat's.
  ms remaining(int seat, time_point now) const;
  // Whether the running seat's time goes down now: one runs and it is not held.
  bool counting() const { return running_ && !held_[*running_]; }
  // When the running seat's time is up (only while counting()).
  time_point deadline() const { return since_ + remaining_[*running_]; }

  // Holds a seat's clock (its player is on vacation) or lets it go: a held seat keeps the time it
  // had at `now` while it is held, whether it runs or not, and switch_to still charges it only
  // for the time it counted.
  void hold(int seat, bool on, time_point now);
  bool held(int seat) const { return held_.at(static_cast<std::size_t>(seat)); }

  // The decision is now `seat`'s (none: the game is over or waits for nobody). The seat that ran
  // is charged; `moved` says it decided (Fischer's increment when its clock stops, a new
  // decision's time with per_decision and correspondence).
  void switch_to(std::optional<int> seat, time_point now);
  // Stops the running clock without a switch (the server stops) / starts it again at `now`,
  // with the time it had: downtime is not charged.
  void pause(time_point now);
  void resume(time_point now);

  // The view's clock: each seat's time left at `now`, whose clock runs, and the seats held
  // ("vacation", only while one is).
  nlohmann::json view(time_point now) const;
  // What the store keeps (the time each seat had at `now`), and back.
  nlohmann::json saved(time_point now) const;
  // The same as JSON text, byte for byte their dump(): a clocked game writes both with every
  // move (its room part and its stored meta), and building the trees cost more than the rest.
  void append_view(std::string& out, time_point now) const;
  void append_saved(std::string& out, time_point now) const;
  void restore_saved(const nlohmann::json& j);

 private:
  ms fresh() const { return options_.per_move; }
  void append_clock(std::string& out, time_point now, std::optional<int> running,
                    bool with_held) const;

  match_options options_;
  std::vector<ms> remaining_;
  std::optional<int> running_;
  time_point since_{};
  bool paused_ = false;
  std::optional<int> paused_seat_;
  std::vector<bool> held_;  // per seat: on vacation
};

}  // namespace carcassonne::server
