// A tournament's settings checked, and its JSON forms: the client's settings, and the stored and
// published tournament (read back exactly, or refused).
#include <algorithm>
#include <array>
#include <limits>
#include <string_view>

#include "competition/tournament.hpp"
#include "competition/tournament_parts.hpp"
#include "match/match_options.hpp"

namespace carcassonne::server::competition {

namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 3> format_names{"swiss", "knockout", "swiss_knockout"};
constexpr std::array<std::string_view, 4> phase_names{"registration", "running", "finished",
                                                      "cancelled"};
constexpr std::int64_t hour_ms = 3600 * 1000;
constexpr std::size_t max_name_bytes = 80;

template <std::size_t N>
int tournament_name_index(const std::array<std::string_view, N>& names, const std::string& s) {
  for (std::size_t i = 0; i < N; ++i)
    if (names[i] == s) return static_cast<int>(i);
  return -1;
}

maybe_error bad_tournament(std::string message) {
  return tournament_error{"bad_tournament", std::move(message)};
}

// The games' room: {"setup": {...}, "match": {...}}, the match timed.
maybe_error check_room(const json& room) {
  if (!room.is_object() || !room.contains("match"))
    return bad_tournament("'room' must be an object with the games' 'setup' and 'match'");
  for (const auto& [key, value] : room.items())
    if (key != "setup" && key != "match") return bad_tournament("unknown room key '" + key + "'");
  if (room.contains("setup") && !room["setup"].is_object())
    return bad_tournament("the room's 'setup' must be an object");
  const auto match = match_options_from_json(room["match"]);
  if (!match.ok()) return bad_tournament("the room's match: " + match.error.message);
  if (match.value->clock == time_control::none)
    return bad_tournament(
        "tournament games are timed: the room's match needs a clock (fischer, per_decision or "
        "correspondence)");
  return std::nullopt;
}

// Typed reads: false when the key is there with another type (absent keys keep the default).
bool tj_read(const json& j, const char* key, std::string& out) {
  const auto it = j.find(key);
  if (it == j.end()) return true;
  if (!it->is_string()) return false;
  out = it->get<std::string>();
  return true;
}
bool tj_read(const json& j, const char* key, bool& out) {
  const auto it = j.find(key);
  if (it == j.end()) return true;
  if (!it->is_boolean()) return false;
  out = it->get<bool>();
  return true;
}
bool tj_read(const json& j, const char* key, std::int64_t& out) {
  const auto it = j.find(key);
  if (it == j.end()) return true;
  if (!it->is_number_integer()) return false;
  out = it->get<std::int64_t>();
  return true;
}
bool tj_read(const json& j, const char* key, int& out) {
  std::int64_t v = out;
  if (!tj_read(j, key, v) || v < std::numeric_limits<int>::min() ||
      v > std::numeric_limits<int>::max())
    return false;
  out = static_cast<int>(v);
  return true;
}
bool tj_read(const json& j, const char* key, double& out) {
  const auto it = j.find(key);
  if (it == j.end()) return true;
  if (!it->is_number()) return false;
  out = it->get<double>();
  return true;
}
bool tj_read(const json& j, const char* key, std::vector<std::string>& out) {
  const auto it = j.find(key);
  if (it == j.end()) return true;
  if (!it->is_array()) return false;
  out.clear();
  for (const auto& v : *it) {
    if (!v.is_string()) return false;
    out.push_back(v.get<std::string>());
  }
  return true;
}

// Every key of the stored form is written by to_json: reading it back requires them all.
bool tj_has_keys(const json& j, std::initializer_list<const char*> keys) {
  if (!j.is_object()) return false;
  for (const char* k : keys)
    if (!j.contains(k)) return false;
  return true;
}

constexpr std::array<const char*, 18> setting_keys{
    "name",        "format",        "rounds", "top",       "table_size",  "best_of",
    "max_players", "min_players",   "room",   "starts_ms", "check_in_ms", "round_gap_ms",
    "retry_ms",    "void_after_ms", "rated",  "director",  "featured",    "featured_delay"};

// The settings' keys read and typed (ranges are check_ranges'): an error message, or empty.
std::string read_settings(const json& j, tournament_settings& s) {
  if (!j.is_object()) return "the tournament's settings must be an object";
  for (auto it = j.begin(); it != j.end(); ++it)  // (clang 14 lambdas take no bindings)
    if (std::find_if(setting_keys.begin(), setting_keys.end(),
                     [&](const char* k) { return it.key() == k; }) == setting_keys.end())
      return "unknown tournament setting '" + it.key() + "'";
  for (const char* required : {"name", "room", "starts_ms"})
    if (!j.contains(required)) return std::string("'") + required + "' is required";
  std::string format = "swiss";
  if (!tj_read(j, "name", s.name) || !tj_read(j, "format", format) ||
      !tj_read(j, "director", s.director) || !tj_read(j, "rated", s.rated))
    return "'name', 'format' and 'director' are strings, 'rated' true or false";
  const int f = tournament_name_index(format_names, format);
  if (f < 0) return "'format' is swiss, knockout or swiss_knockout";
  s.format = static_cast<tournament_format>(f);
  if (!tj_read(j, "rounds", s.rounds) || !tj_read(j, "top", s.top) ||
      !tj_read(j, "table_size", s.table_size) || !tj_read(j, "best_of", s.best_of) ||
      !tj_read(j, "max_players", s.max_players) || !tj_read(j, "min_players", s.min_players) ||
      !tj_read(j, "starts_ms", s.starts_ms) || !tj_read(j, "check_in_ms", s.check_in_ms) ||
      !tj_read(j, "round_gap_ms", s.round_gap_ms) || !tj_read(j, "retry_ms", s.retry_ms) ||
      !tj_read(j, "void_after_ms", s.void_after_ms) || !tj_read(j, "featured", s.featured) ||
      !tj_read(j, "featured_delay", s.featured_delay))
    return "the numbers of a tournament's settings are integers";
  s.room = j["room"];
  return {};
}

json settings_json(const tournament_settings& s) {
  return {{"name", s.name},
          {"format", format_names[static_cast<std::size_t>(s.format)]},
          {"rounds", s.rounds},
          {"top", s.top},
          {"table_size", s.table_size},
          {"best_of", s.best_of},
          {"max_players", s.max_players},
          {"min_players", s.min_players},
          {"room", s.room},
          {"starts_ms", s.starts_ms},
          {"check_in_ms", s.check_in_ms},
          {"round_gap_ms", s.round_gap_ms},
          {"retry_ms", s.retry_ms},
          {"void_after_ms", s.void_after_ms},
          {"rated", s.rated},
          {"director", s.director},
          {"featured", s.featured},
          {"featured_delay", s.featured_delay}};
}

json results_json(const std::optional<std::vector<std::vector<double>>>& r) {
  return r ? json(*r) : json(nullptr);
}

std::optional<participant> participant_from_json(const json& j) {
  participant p;
  if (!tj_has_keys(j, {"id", "name", "rating", "bot", "checked_in", "removed"}) ||
      !tj_read(j, "id", p.id) || !tj_read(j, "name", p.name) || !tj_read(j, "rating", p.rating) ||
      !tj_read(j, "bot", p.bot) || !tj_read(j, "checked_in", p.checked_in) ||
      !tj_read(j, "removed", p.removed))
    return std::nullopt;
  return p;
}

std::optional<tournament_table> table_from_json(const json& j) {
  tournament_table tb;
  if (!tj_has_keys(j, {"players", "rooms", "series", "results", "void", "next_try_ms"}) ||
      !tj_read(j, "players", tb.players) || !tj_read(j, "rooms", tb.rooms) ||
      !tj_read(j, "series", tb.series) || !tj_read(j, "void", tb.void_table) ||
      !tj_read(j, "next_try_ms", tb.next_try_ms))
    return std::nullopt;
  const auto& r = j["results"];
  if (r.is_null()) return tb;
  if (!r.is_array() || r.size() != tb.players.size()) return std::nullopt;
  std::vector<std::vector<double>> results;
  for (const auto& row : r) {
    if (!row.is_array() || row.size() != tb.players.size()) return std::nullopt;
    auto& out = results.emplace_back();
    for (const auto& v : row) {
      if (!v.is_number()) return std::nullopt;
      out.push_back(v.get<double>());
    }
  }
  tb.results = std::move(results);
  return tb;
}

std::optional<tournament_round> round_from_json(const json& j) {
  tournament_round r;
  if (!tj_has_keys(j,
                   {"number", "knockout", "started_ms", "tables", "byes", "bracket", "finished"}) ||
      !tj_read(j, "number", r.number) || !tj_read(j, "knockout", r.knockout) ||
      !tj_read(j, "started_ms", r.started_ms) || !tj_read(j, "byes", r.byes) ||
      !tj_read(j, "bracket", r.bracket) || !tj_read(j, "finished", r.finished) ||
      !j["tables"].is_array())
    return std::nullopt;
  for (const auto& t : j["tables"]) {
    auto tb = table_from_json(t);
    if (!tb) return std::nullopt;
    r.tables.push_back(std::move(*tb));
  }
  return r;
}

}  // namespace

namespace tournament_parts {

maybe_error check_ranges(const tournament_settings& s) {
  if (s.name.empty() || s.name.size() > max_name_bytes)
    return bad_tournament("'name' is 1 to 80 bytes");
  if (s.rounds < 1 || s.rounds > 20) return bad_tournament("'rounds' is 1 to 20");
  if (s.top < 2 || s.top > 64) return bad_tournament("'top' is 2 to 64");
  if (s.table_size < 2 || s.table_size > 6) return bad_tournament("'table_size' is 2 to 6");
  if (s.best_of != 1 && s.best_of != 3 && s.best_of != 5 && s.best_of != 7)
    return bad_tournament("'best_of' is 1, 3, 5 or 7");
  if (s.best_of != 1 && s.table_size != 2)
    return bad_tournament("series ('best_of' above 1) are for tables of 2");
  if (s.max_players < 2 || s.max_players > 256) return bad_tournament("'max_players' is 2 to 256");
  if (s.min_players < 2 || s.min_players > s.max_players)
    return bad_tournament("'min_players' is 2 to 'max_players'");
  if (s.check_in_ms < 0 || s.check_in_ms > 24 * hour_ms)
    return bad_tournament("'check_in_ms' is 0 to 24 hours");
  if (s.round_gap_ms < 0 || s.round_gap_ms > hour_ms)
    return bad_tournament("'round_gap_ms' is 0 to 1 hour");
  if (s.retry_ms < 100 || s.retry_ms > 60000)
    return bad_tournament("'retry_ms' is 100 ms to 1 minute");
  if (s.void_after_ms < 0 || s.void_after_ms > hour_ms)
    return bad_tournament("'void_after_ms' is 0 to 1 hour");
  if (s.featured < 0 || s.featured > 64) return bad_tournament("'featured' is 0 to 64 tables");
  if (s.featured_delay < 0 || s.featured_delay > 20)
    return bad_tournament("'featured_delay' is 0 to 20 moves");
  return check_room(s.room);
}

}  // namespace tournament_parts

maybe_error check_settings(const tournament_settings& s, std::int64_t now_ms) {
  if (auto e = tournament_parts::check_ranges(s)) return e;
  if (s.starts_ms <= now_ms) return bad_tournament("'starts_ms' must be in the future");
  return std::nullopt;
}

std::optional<tournament_settings> settings_from_json(const json& j, tournament_error& error) {
  tournament_settings s;
  if (auto why = read_settings(j, s); !why.empty()) {
    error = *bad_tournament(std::move(why));
    return std::nullopt;
  }
  if (auto e = tournament_parts::check_ranges(s)) {
    error = std::move(*e);
    return std::nullopt;
  }
  return s;
}

json to_json(const tournament& t) {
  json participants = json::array();
  for (const auto& p : t.participants)
    participants.push_back({{"id", p.id},
                            {"name", p.name},
                            {"rating", p.rating},
                            {"bot", p.bot},
                            {"checked_in", p.checked_in},
                            {"removed", p.removed}});
  json rounds = json::array();
  for (const auto& r : t.rounds) {
    json tables = json::array();
    for (const auto& tb : r.tables)
      tables.push_back({{"players", tb.players},
                        {"rooms", tb.rooms},
                        {"series", tb.series},
                        {"results", results_json(tb.results)},
                        {"void", tb.void_table},
                        {"next_try_ms", tb.next_try_ms}});
    rounds.push_back({{"number", r.number},
                      {"knockout", r.knockout},
                      {"started_ms", r.started_ms},
                      {"tables", std::move(tables)},
                      {"byes", r.byes},
                      {"bracket", r.bracket},
                      {"finished", r.finished}});
  }
  json standings = json::array();
  for (const auto& s : standings_of(t))
    standings.push_back({{"rank", s.rank},
                         {"id", s.id},
                         {"points", s.points},
                         {"buchholz", s.buchholz},
                         {"sonneborn_berger", s.sonneborn_berger},
                         {"games", s.games},
                         {"byes", s.byes}});
  return {{"id", t.id},
          {"settings", settings_json(t.settings)},
          {"phase", phase_names[static_cast<std::size_t>(t.phase)]},
          {"paused", t.paused},
          {"participants", std::move(participants)},
          {"rounds", std::move(rounds)},
          {"requested_byes", t.requested_byes},
          {"next_round_ms", t.next_round_ms},
          {"champion", t.champion},
          {"standings", std::move(standings)}};
}

std::optional<tournament> tournament_from_json(const json& j) {
  tournament t;
  std::string phase;
  if (!tj_has_keys(j, {"id", "settings", "phase", "paused", "participants", "rounds",
                       "requested_byes", "next_round_ms", "champion"}) ||
      !tj_read(j, "id", t.id) || !tj_read(j, "phase", phase) || !tj_read(j, "paused", t.paused) ||
      !tj_read(j, "requested_byes", t.requested_byes) ||
      !tj_read(j, "next_round_ms", t.next_round_ms) || !tj_read(j, "champion", t.champion) ||
      !j["participants"].is_array() || !j["rounds"].is_array())
    return std::nullopt;
  const int p = tournament_name_index(phase_names, phase);
  if (p < 0 || !read_settings(j["settings"], t.settings).empty() ||
      tournament_parts::check_ranges(t.settings))
    return std::nullopt;
  t.phase = static_cast<tournament_phase>(p);
  for (const auto& pj : j["participants"]) {
    auto part = participant_from_json(pj);
    if (!part) return std::nullopt;
    t.participants.push_back(std::move(*part));
  }
  for (const auto& rj : j["rounds"]) {
    auto r = round_from_json(rj);
    if (!r || r->number != static_cast<int>(t.rounds.size()) + 1) return std::nullopt;
    t.rounds.push_back(std::move(*r));
  }
  return t;
}

}  // namespace carcassonne::server::competition
