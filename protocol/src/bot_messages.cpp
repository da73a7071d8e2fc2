#include "carcassonne/protocol/bot_messages.hpp"

#include <string>

namespace carcassonne::protocol {

namespace {

proto_error bad(std::string message) {
  return {"bad_message", std::move(message)};
}

std::string level_list() {
  std::string s;
  for (auto n : bot_level_names) {
    if (!s.empty()) s += ", ";
    s += n;
  }
  return s;
}

std::optional<proto_error> level_of(const json& v, const char* what, bot_level& out) {
  const auto l = v.is_string() ? bot_level_from_name(v.get<std::string>()) : std::nullopt;
  if (!l) return bad(std::string(what) + " must be one of " + level_list());
  out = *l;
  return std::nullopt;
}

std::optional<proto_error> integer(const json& j, const char* key, int lo, int hi, int& out) {
  auto it = j.find(key);
  if (it == j.end()) return std::nullopt;
  if (!it->is_number_integer() || it->get<long long>() < lo || it->get<long long>() > hi)
    return bad(std::string("'") + key + "' must be an integer from " + std::to_string(lo) + " to " +
               std::to_string(hi));
  out = static_cast<int>(it->get<long long>());
  return std::nullopt;
}

}  // namespace

std::optional<proto_error> parse_room_bot_settings(const json& j, int seats,
                                                   room_bot_settings& out) {
  if (auto it = j.find("bots"); it != j.end()) {
    if (!it->is_array() || static_cast<int>(it->size()) > seats)
      return bad("'bots' must be a list of at most 'seats' entries (null or a level)");
    for (const auto& entry : *it) {
      if (entry.is_null()) {
        out.seats.emplace_back();
        continue;
      }
      bot_level l{};
      if (auto e = level_of(entry, "each entry of 'bots'", l)) return e;
      out.seats.emplace_back(l);
    }
  }
  if (auto e = integer(j, "bot_pause_ms", 0, 10000, out.pause_ms)) return e;
  if (auto e = integer(j, "takeover_after", 0, 3600, out.takeover_after)) return e;
  if (auto it = j.find("takeover_level"); it != j.end())
    if (auto e = level_of(*it, "'takeover_level'", out.takeover_level)) return e;
  return std::nullopt;
}

std::optional<proto_error> parse_add_bot(const json& j, add_bot_msg& out) {
  auto it = j.find("level");
  if (it == j.end()) return bad("missing 'level'");
  if (auto e = level_of(*it, "'level'", out.level)) return e;
  if (j.contains("seat")) {
    int seat = 0;
    if (auto e = integer(j, "seat", 0, 5, seat)) return e;
    out.seat = seat;
  }
  return std::nullopt;
}

std::optional<proto_error> parse_remove_bot(const json& j, remove_bot_msg& out) {
  if (!j.contains("seat")) return bad("missing 'seat'");
  return integer(j, "seat", 0, 5, out.seat);
}

}  // namespace carcassonne::protocol
