#include "match/match_options.hpp"

#include <array>
#include <string>
#include <string_view>

namespace carcassonne::server {

namespace {

constexpr std::array<std::string_view, 4> clock_names{"none", "fischer", "per_decision",
                                                      "correspondence"};
constexpr std::array<std::string_view, 2> timeout_names{"bot", "forfeit"};
constexpr std::array<std::string_view, 3> undo_names{"off", "consent", "free"};

template <std::size_t N>
int find_name(const std::array<std::string_view, N>& names, const std::string& s) {
  for (std::size_t i = 0; i < N; ++i)
    if (names[i] == s) return static_cast<int>(i);
  return -1;
}

constexpr long long max_seconds = 60LL * 60 * 24 * 30;  // a month: beyond, it is a typo

}  // namespace

nlohmann::json match_options::to_json() const {
  using std::chrono::duration_cast;
  using std::chrono::seconds;
  nlohmann::json j{{"clock", clock_names[static_cast<int>(clock)]}};
  if (clock == time_control::fischer) {
    j["initial_s"] = duration_cast<seconds>(initial).count();
    j["increment_s"] = duration_cast<seconds>(increment).count();
  } else if (clock == time_control::per_decision) {
    j["decision_s"] = duration_cast<seconds>(per_move).count();
  } else if (clock == time_control::correspondence) {
    j["move_hours"] = duration_cast<std::chrono::hours>(per_move).count();
    j["vacation"] = vacation;
  }
  j["timeout"] = timeout_names[static_cast<int>(on_timeout)];
  j["undo"] = undo_names[static_cast<int>(undo)];
  j["away_limit_s"] = away_limit.count();
  j["answer_s"] = answer_time.count();
  return j;
}

protocol::parsed<match_options> match_options_from_json(const nlohmann::json& j) {
  match_options o;
  const auto bad = [](std::string what) {
    return protocol::parsed<match_options>{std::nullopt, {"bad_match_options", std::move(what)}};
  };
  if (j.is_null()) return {o, {}};
  if (!j.is_object()) return bad("'match' must be an object");
  const auto name = [&](const char* key, const auto& names, int& out) {
    auto it = j.find(key);
    if (it == j.end()) return true;
    if (!it->is_string()) return false;
    out = find_name(names, it->template get<std::string>());
    return out >= 0;
  };
  const auto read_int = [&](const char* key, long long lo, long long hi, long long& out) {
    auto it = j.find(key);
    if (it == j.end()) return true;
    if (!it->is_number_integer()) return false;
    out = it->template get<long long>();
    return out >= lo && out <= hi;
  };
  int clock = 0, timeout = 0, undo = 1;
  if (!name("clock", clock_names, clock))
    return bad("'clock' is none, fischer, per_decision or correspondence");
  if (!name("timeout", timeout_names, timeout)) return bad("'timeout' is bot or forfeit");
  if (!name("undo", undo_names, undo)) return bad("'undo' is off, consent or free");
  // Vacation holds correspondence clocks only (on unless refused); a real-time game has none.
  const auto vacation = j.find("vacation");
  if (vacation != j.end() && !vacation->is_boolean()) return bad("'vacation' is true or false");
  if (vacation != j.end() && *vacation &&
      static_cast<time_control>(clock) != time_control::correspondence)
    return bad("'vacation' is only for the correspondence clock");
  long long initial = 600, increment = 20, decision = 60, hours = 24, away = 0, answer = 60;
  if (!read_int("initial_s", 1, max_seconds, initial) ||
      !read_int("increment_s", 0, 3600, increment) || !read_int("decision_s", 1, 86400, decision) ||
      !read_int("move_hours", 1, 24 * 30, hours) ||
      !read_int("away_limit_s", 0, max_seconds, away) || !read_int("answer_s", 5, 86400, answer))
    return bad("a time of 'match' is not an integer in its range (docs/options.md)");
  for (const auto& [key, value] : j.items())
    if (key != "clock" && key != "timeout" && key != "undo" && key != "initial_s" &&
        key != "increment_s" && key != "decision_s" && key != "move_hours" &&
        key != "away_limit_s" && key != "answer_s" && key != "vacation")
      return bad("unknown match option '" + key + "'");
  using std::chrono::seconds;
  o.clock = static_cast<time_control>(clock);
  o.on_timeout = static_cast<timeout_action>(timeout);
  o.undo = static_cast<undo_mode>(undo);
  if (o.clock == time_control::fischer) {
    o.initial = seconds(initial);
    o.increment = seconds(increment);
  } else if (o.clock == time_control::per_decision) {
    o.per_move = seconds(decision);
  } else if (o.clock == time_control::correspondence) {
    o.per_move = std::chrono::hours(hours);
    o.vacation = vacation == j.end() || vacation->get<bool>();
  }
  o.away_limit = seconds(away);
  o.answer_time = seconds(answer);
  return {o, {}};
}

}  // namespace carcassonne::server
