#include "match/room_clock.hpp"

#include <algorithm>

#include "carcassonne/protocol/view_doc.hpp"

namespace carcassonne::server {

room_clock::room_clock(const match_options& o, int seats) : options_(o) {
  const ms start = o.clock == time_control::fischer ? o.initial : o.per_move;
  remaining_.assign(static_cast<std::size_t>(seats), start);
  held_.assign(static_cast<std::size_t>(seats), false);
}

room_clock::ms room_clock::remaining(int seat, time_point now) const {
  ms left = remaining_.at(static_cast<std::size_t>(seat));
  if (running_ && *running_ == seat && !held_[static_cast<std::size_t>(seat)])
    left -= std::chrono::duration_cast<ms>(now - since_);
  return std::max(left, ms(0));
}

void room_clock::switch_to(std::optional<int> seat, time_point now) {
  if (!enabled()) return;
  if (paused_) resume(now);
  if (running_) {
    const int was = *running_;
    remaining_[was] = remaining(was, now);
    // The old decision is over: per_decision gives the next decision its full time; the others
    // only when the clock leaves the seat (Fischer's increment, correspondence's time per turn).
    const bool leaves = !seat || *seat != was;
    if (options_.clock == time_control::fischer && leaves) remaining_[was] += options_.increment;
    if (options_.clock == time_control::correspondence && leaves) remaining_[was] = fresh();
    if (options_.clock == time_control::per_decision) remaining_[was] = fresh();
  }
  running_ = seat;
  since_ = now;
}

void room_clock::hold(int seat, bool on, time_point now) {
  const auto i = static_cast<std::size_t>(seat);
  if (i >= held_.size() || held_[i] == on) return;
  if (running_ && *running_ == seat) {
    remaining_[i] = remaining(seat, now);  // what it counted so far is charged
    since_ = now;                          // and it counts again from here when let go
  }
  held_[i] = on;
}

void room_clock::pause(time_point now) {
  if (!running_ || paused_) return;
  remaining_[*running_] = remaining(*running_, now);
  paused_seat_ = running_;
  running_.reset();
  paused_ = true;
}

void room_clock::resume(time_point now) {
  if (!paused_) return;
  paused_ = false;
  running_ = paused_seat_;
  paused_seat_.reset();
  since_ = now;
}

nlohmann::json room_clock::view(time_point now) const {
  nlohmann::json left = nlohmann::json::array();
  for (std::size_t i = 0; i < remaining_.size(); ++i)
    left.push_back(remaining(static_cast<int>(i), now).count());
  nlohmann::json j{{"remaining_ms", left},
                   {"running", running_ ? nlohmann::json(*running_) : nullptr}};
  for (std::size_t i = 0; i < held_.size(); ++i)
    if (held_[i]) j["vacation"].push_back(i);
  return j;
}

nlohmann::json room_clock::saved(time_point now) const {
  auto j = view(now);
  j.erase("vacation");  // asked of the players' store again when the room is rebuilt
  if (paused_seat_) j["running"] = *paused_seat_;
  return j;
}

// {"remaining_ms":[...],"running":seat or null[,"vacation":[seats]]}: the keys in nlohmann's
// (sorted) order.
void room_clock::append_clock(std::string& out, time_point now, std::optional<int> running,
                              bool with_held) const {
  out += R"({"remaining_ms":[)";
  for (std::size_t i = 0; i < remaining_.size(); ++i) {
    if (i > 0) out.push_back(',');
    protocol::append_number(out, remaining(static_cast<int>(i), now).count());
  }
  out += R"(],"running":)";
  if (running)
    protocol::append_number(out, *running);
  else
    out += "null";
  bool first = true;
  for (std::size_t i = 0; with_held && i < held_.size(); ++i) {
    if (!held_[i]) continue;
    out += first ? R"(,"vacation":[)" : ",";
    first = false;
    protocol::append_number(out, static_cast<long long>(i));
  }
  if (!first) out.push_back(']');
  out.push_back('}');
}

void room_clock::append_view(std::string& out, time_point now) const {
  append_clock(out, now, running_, true);
}

void room_clock::append_saved(std::string& out, time_point now) const {
  append_clock(out, now, paused_seat_ ? paused_seat_ : running_, false);
}

void room_clock::restore_saved(const nlohmann::json& j) {
  const auto& left = j.at("remaining_ms");
  for (std::size_t i = 0; i < remaining_.size() && i < left.size(); ++i)
    remaining_[i] = ms(left[i].get<long long>());
  // Stopped: it runs again from the time the room gets its timer (resume).
  running_.reset();
  paused_ = !j.at("running").is_null();
  if (paused_) paused_seat_ = j.at("running").get<int>();
}

}  // namespace carcassonne::server
