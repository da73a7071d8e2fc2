// Quick play (docs/protocol.md §24 "Quick play"): seeks, the matchmaker's turn, and the match
// notices every instance hears.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <set>

#include "base/random_ids.hpp"
#include "competition/competitions.hpp"
#include "competition/time_controls.hpp"

namespace carcassonne::server::competition {

using json = nlohmann::json;
using protocol::error_message;
using protocol::reply;

namespace {

json prefs_json(const seek_prefs& p) {
  json j = json::object();
  if (p.seats) j["seats"] = *p.seats;
  if (p.expansions) j["expansions"] = *p.expansions;
  if (p.time_control) j["time_control"] = *p.time_control;
  if (p.rated) j["rated"] = *p.rated;
  if (p.best_of) j["best_of"] = *p.best_of;
  if (p.bot_after_ms) j["bots_after_s"] = p.bot_after_ms / 1000;
  return j;
}

// The room of a settled seek: its expansions and its time control's match options.
json room_of_prefs(const seek_prefs& p) {
  return {{"setup", {{"expansions", p.expansions.value_or(std::vector<std::string>{})}}},
          {"match", match_of(p.time_control.value_or("rapid")).value_or(json())}};
}

}  // namespace

json competitions::seek(const player_account& who, std::uint64_t connection, const json& body,
                        const json& id) {
  const auto bad = [&](const std::string& message) {
    return error_message({"bad_seek", message}, id);
  };
  // Outside bots play in rooms, never from the queue: a person who seeks meets a person
  // (docs/protocol.md "Outside bots").
  if (who.bot)
    return error_message(
        {"bot_account", "bot accounts do not use quick play: create or join a room instead"}, id);
  static const std::set<std::string> keys{"seats",   "expansions",   "time_control", "rated",
                                          "best_of", "bots_after_s", "nonce"};
  for (const auto& [key, value] : body.items())
    if (!keys.count(key)) return bad("unknown key '" + key + "'");
  seek_prefs p;
  if (body.contains("seats")) {
    const auto& v = body["seats"];
    if (!v.is_number_integer() || v.get<int>() < 2 || v.get<int>() > 6)
      return bad("'seats' is 2 to 6");
    p.seats = v.get<int>();
  }
  if (body.contains("expansions")) {
    const auto& v = body["expansions"];
    if (!v.is_array() || v.size() > 16) return bad("'expansions' is a list of expansion ids");
    std::vector<std::string> list;
    for (const auto& e : v) {
      if (!e.is_string() || e.get_ref<const std::string&>().size() > 32)
        return bad("'expansions' is a list of expansion ids");
      list.push_back(e.get<std::string>());
    }
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    p.expansions = std::move(list);
  }
  if (body.contains("time_control")) {
    const auto& v = body["time_control"];
    const auto& names = time_control_names();
    if (!v.is_string() ||
        std::find(names.begin(), names.end(), v.get<std::string>()) == names.end())
      return bad("'time_control' is one of blitz, rapid, daily");
    p.time_control = v.get<std::string>();
  }
  if (body.contains("rated")) {
    if (!body["rated"].is_boolean()) return bad("'rated' is true or false");
    p.rated = body["rated"].get<bool>();
  }
  if (body.contains("best_of")) {
    const auto& v = body["best_of"];
    if (!v.is_number_integer() || !valid_best_of(v.get<int>()))
      return bad("'best_of' is 1, 3, 5 or 7");
    if (p.seats.value_or(2) != 2) return bad("a series ('best_of') is played by two seats");
    p.best_of = v.get<int>();
    if (*p.best_of > 1) p.seats = 2;
  }
  if (body.contains("bots_after_s")) {
    const auto& v = body["bots_after_s"];
    if (!v.is_number_integer() || v.get<int>() < 0 || v.get<int>() > 600)
      return bad("'bots_after_s' is 0 (never) to 600 seconds");
    p.bot_after_ms = v.get<std::int64_t>() * 1000;
  }
  std::string nonce;
  if (body.contains("nonce")) {
    const auto& v = body["nonce"];
    if (!v.is_string() || v.get_ref<const std::string&>().empty() ||
        v.get_ref<const std::string&>().size() > 64)
      return bad("'nonce' is 1 to 64 characters");
    nonce = v.get<std::string>();
  }
  // A table nobody could ever sit at (an unknown expansion, a combination the engine refuses)
  // is refused now rather than waited for.
  if (p.expansions)
    if (auto refused = rooms_.check_template(room_of_prefs(p), p.seats.value_or(2)))
      return error_message({"bad_seek", refused->message}, id);
  competition::seek s;
  s.player = who.id;
  s.name = who.name;
  s.rating = rating_of(who.id, p.seats.value_or(2), p.expansions && !p.expansions->empty());
  // Arrival order, strict on this instance: two seeks within one millisecond keep theirs.
  s.since_ms = last_seek_ms_ = std::max(hooks_.now_ms(), last_seek_ms_ + 1);
  s.prefs = p;
  s.instance = hooks_.instance;
  s.nonce = nonce;
  std::string error;
  switch (queue_->add(s, error)) {
    case seek_queue::added::already_seeking:
      return error_message({"already_seeking", "you are seeking a game already: cancel_seek first"},
                           id);
    case seek_queue::added::failed:
      spdlog::warn("quick play: seek of {} not queued: {}", who.id, error);
      return error_message({"queue_unavailable", "the queue cannot be reached: try again shortly"},
                           id);
    case seek_queue::added::yes:
      break;
  }
  seek_connection_[who.id] = connection;
  return reply("seeking", id, {{"prefs", prefs_json(p)}, {"rating", s.rating}});
}

json competitions::cancel_seek(const player_account& who, const json& id) {
  std::string error;
  seek_connection_.erase(who.id);
  if (!queue_->remove(who.id, error))
    return error_message(error.empty() ? protocol::proto_error{"no_seek", "you are not seeking"}
                                       : protocol::proto_error{"queue_unavailable", error},
                         id);
  return reply("seek_cancelled", id);
}

void competitions::connection_closed(const std::string& player, std::uint64_t connection) {
  post([this, player, connection] {
    auto it = seek_connection_.find(player);
    if (it == seek_connection_.end() || it->second != connection) return;
    seek_connection_.erase(it);
    std::string error;
    queue_->remove(player, error);
  });
}

void competitions::matchmake(std::int64_t now) {
  std::string error;
  if (!queue_->lead(error)) return;
  if (hooks_.live_instances) {
    const auto live = hooks_.live_instances();
    if (!live.empty()) queue_->prune(live, error);
  }
  auto queued = queue_->all(error);
  if (!queued || queued->empty()) return;
  std::map<std::string, competition::seek> by_player;
  for (const auto& s : *queued) by_player[s.player] = s;
  for (const auto& m : find_matches(*queued, now, settings_.window, settings_.bots)) {
    if (!queue_->take(m.players, error)) continue;  // one of them left, or went elsewhere
    const int best_of = m.settled.best_of.value_or(1);
    const bool rated = m.settled.rated.value_or(true) && m.bots.empty();
    const json room_template = room_of_prefs(m.settled);
    if (best_of > 1 && m.players.size() == 2 && m.bots.empty()) {
      series s;
      s.id = random_hex(10);
      s.best_of = best_of;
      for (int i = 0; i < 2; ++i) {
        s.players[i] = m.players[i];
        s.names[i] = by_player[m.players[i]].name;
      }
      s.room = room_template;
      s.rated = rated;
      if (make_series(std::move(s))) continue;
    } else {
      std::vector<seat_of> seats;
      for (const auto& p : m.players)
        seats.push_back({p, by_player[p].name, "", by_player[p].nonce});
      for (std::size_t i = 0; i < m.bots.size(); ++i) {
        std::string level = m.bots[i];
        std::string name = level;
        if (!name.empty()) name[0] = static_cast<char>(std::toupper(name[0]));
        seats.push_back({"", name + " bot", level, ""});
      }
      protocol::proto_error refused;
      const auto room = arrange(room_template, seats, rated, refused);
      if (!room.empty()) {
        json players = json::array(), names = json::array();
        for (const auto& s : seats) {
          players.push_back(s.player);
          names.push_back(s.name);
        }
        json notice{{"room", room},
                    {"players", players},
                    {"names", names},
                    {"time_control", m.settled.time_control.value_or("rapid")},
                    {"rated", rated}};
        if (!queue_->announce(notice.dump(), error))
          spdlog::warn("quick play: the match in room {} was not announced: {}", room, error);
        continue;
      }
      spdlog::warn("quick play: no room for a match: {}", refused.message);
    }
    // No room now (the server full, the store failing): the seekers wait on, as they were.
    for (const auto& p : m.players) queue_->add(by_player[p], error);
  }
}

bool competitions::announce_vacation(const std::string& player, std::int64_t until_ms) {
  const json notice{{"vacation", {{"player", player}, {"until_ms", until_ms}}}};
  std::string error;
  if (queue_->announce(notice.dump(), error)) return true;
  spdlog::warn("vacation of {}: not announced to the cluster: {}", player, error);
  return false;
}

// A match (a quick play table, a series' game, a tournament's table) told to the seats connected
// here: `match_found` with the seat each one has.
void competitions::on_notice(const std::string& text) {
  const json notice = json::parse(text, nullptr, false);
  if (notice.is_object() && notice.contains("vacation")) {  // announce_vacation's
    const auto& v = notice["vacation"];
    if (v.is_object() && v.value("player", json()).is_string() &&
        v.value("until_ms", json()).is_number_integer())
      rooms_.vacation_changed(v["player"].get<std::string>(), v["until_ms"].get<std::int64_t>());
    return;
  }
  if (!notice.is_object() || !notice.contains("players")) return;
  const auto& players = notice["players"];
  for (std::size_t seat = 0; seat < players.size(); ++seat) {
    if (!players[seat].is_string() || players[seat].get_ref<const std::string&>().empty()) continue;
    const auto player = players[seat].get<std::string>();
    seek_connection_.erase(player);
    json message = notice;
    message["type"] = "match_found";
    message["seat"] = seat;
    message.erase("players");
    message["players"] = notice.value("names", json::array());
    message.erase("names");
    if (hooks_.tell) hooks_.tell(player, message.dump());
  }
}

}  // namespace carcassonne::server::competition
