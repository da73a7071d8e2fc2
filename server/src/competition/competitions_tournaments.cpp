// Tournaments (docs/protocol.md §24 "Tournaments"): their rounds' tables made, the director's and
// the players' requests, and the reads of a tournament or a series.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "base/random_ids.hpp"
#include "competition/competitions.hpp"
#include "competition/time_controls.hpp"
#include "ratings/pools.hpp"

namespace carcassonne::server::competition {

using json = nlohmann::json;
using protocol::error_message;
using protocol::reply;

void competitions::run_tournament(const std::string& id, std::int64_t now) {
  auto it = tournaments_.find(id);
  if (it == tournaments_.end()) return;
  auto& t = it->second;
  const auto step = advance(t, now);
  for (const auto& ref : step.start) start_table(t, ref, now);
  if (step.changed || !step.start.empty()) save(t, round_notices(t, step.start));
}

// tournament_round for each player of a table that starts (server/src/notify), stored with the
// tournament: a table offered again after a failure has the same keys, which are kept once.
std::vector<notice> competitions::round_notices(const tournament& t,
                                                const std::vector<table_ref>& started) const {
  std::vector<notice> out;
  for (const auto& ref : started)
    for (const auto& round : t.rounds) {
      if (round.number != ref.round || ref.table >= static_cast<int>(round.tables.size())) continue;
      const auto& table = round.tables[static_cast<std::size_t>(ref.table)];
      const std::string room = table.rooms.empty() ? std::string() : table.rooms.back();
      if (room.empty()) continue;  // not made: told when it is
      for (const auto& p : table.players) {
        const auto who = std::find_if(t.participants.begin(), t.participants.end(),
                                      [&](const participant& x) { return x.id == p; });
        if (who == t.participants.end() || !who->bot.empty()) continue;
        out.push_back({p, "tournament_round",
                       t.id + ":" + std::to_string(ref.round) + ":tournament_round:" + p, room,
                       json{{"name", t.settings.name},
                            {"round", ref.round},
                            {"tournament", t.id},
                            {"clock", "correspondence"}}
                           .dump()});
      }
    }
  return out;
}

// Finished and cancelled tournaments leave memory (the store has them), after the tick.
void competitions::forget_ended() {
  for (auto it = tournaments_.begin(); it != tournaments_.end();) {
    const auto phase = it->second.phase;
    if (phase != tournament_phase::finished && phase != tournament_phase::cancelled) {
      ++it;
      continue;
    }
    spdlog::info("tournament {} {}", it->first,
                 phase == tournament_phase::finished ? "finished" : "cancelled");
    versions_.erase(it->first);
    it = tournaments_.erase(it);
  }
}

void competitions::start_table(tournament& t, const table_ref& ref, std::int64_t now) {
  tournament_table* table = nullptr;
  for (auto& round : t.rounds)
    if (round.number == ref.round && ref.table < static_cast<int>(round.tables.size()))
      table = &round.tables[static_cast<std::size_t>(ref.table)];
  if (!table) return;
  std::vector<seat_of> seats;
  for (const auto& p : table->players) {
    const auto who = std::find_if(t.participants.begin(), t.participants.end(),
                                  [&](const participant& x) { return x.id == p; });
    if (who == t.participants.end()) return table_failed(t, ref, now);
    seats.push_back({who->bot.empty() ? who->id : std::string(), who->name, who->bot, ""});
  }
  json room = competition_room(t.settings.room);
  if (ref.table < t.settings.featured && t.settings.featured_delay > 0)
    room["spectator_delay"] = t.settings.featured_delay;
  if (t.settings.table_size == 2 && t.settings.best_of > 1 && seats.size() == 2) {
    series s;
    s.id = random_hex(10);
    s.best_of = t.settings.best_of;
    for (int i = 0; i < 2; ++i) {
      s.players[i] = table->players[i];
      s.names[i] = seats[i].name;
      s.bots[i] = seats[i].bot;
    }
    s.room = room;
    s.rated = t.settings.rated;
    s.tournament = t.id;
    if (auto made = make_series(std::move(s))) return table_started(t, ref, *made, true);
    return table_failed(t, ref, now);
  }
  protocol::proto_error refused;
  const auto made = arrange(room, seats, t.settings.rated, refused);
  if (made.empty()) {
    spdlog::warn("tournament {} round {} table {}: no room: {}", t.id, ref.round, ref.table + 1,
                 refused.message);
    return table_failed(t, ref, now);
  }
  table_started(t, ref, made, false);
  rooms_of_[made] = {"tournament", t.id, ref};
  json players = json::array(), names = json::array();
  for (const auto& seat : seats) {
    players.push_back(seat.player);
    names.push_back(seat.name);
  }
  json notice{{"room", made},       {"players", players}, {"names", names},
              {"tournament", t.id}, {"round", ref.round}, {"rated", t.settings.rated}};
  std::string error;
  queue_->announce(notice.dump(), error);
}

std::vector<std::string> competitions::rooms_in_play(const tournament& t,
                                                     const std::string& player) const {
  std::vector<std::string> rooms;
  if (t.rounds.empty()) return rooms;
  for (const auto& table : t.rounds.back().tables) {
    if (table.results || table.void_table ||
        std::find(table.players.begin(), table.players.end(), player) == table.players.end())
      continue;
    if (!table.series.empty()) {
      const auto s = series_.find(table.series);
      if (s != series_.end() && !s->second.games.empty() && !s->second.games.back().scores)
        rooms.push_back(s->second.games.back().room);
    } else if (!table.rooms.empty()) {
      rooms.push_back(table.rooms.back());
    }
  }
  return rooms;
}

json competitions::create_tournament(const player_account& who, const json& body, const json& id) {
  tournament_error error;
  auto settings = settings_from_json(body.value("tournament", json()), error);
  if (!settings) return error_message({error.code, error.message}, id);
  settings->director = who.id;
  settings->room = competition_room(settings->room);
  if (auto bad = check_settings(*settings, hooks_.now_ms()))
    return error_message({bad->code, bad->message}, id);
  if (auto refused = rooms_.check_template(settings->room, settings->table_size))
    return error_message({"bad_tournament", refused->message}, id);
  tournament t;
  t.id = random_hex(10);
  t.settings = std::move(*settings);
  if (hooks_.claim && !hooks_.claim("competition:" + t.id))
    return error_message({"directory_unavailable", "the cluster's directory cannot be reached"},
                         id);
  const std::string tid = t.id;
  tournaments_.emplace(tid, std::move(t));
  if (!save(tournaments_.at(tid)))
    return error_message({"storage_failed", "the tournament could not be stored: try again"}, id);
  spdlog::info("tournament {} created by {}", tid, who.id);
  return reply("tournament_created", id, {{"tournament", to_json(tournaments_.at(tid))}});
}

json competitions::tournament_action(const player_account& who, const json& body, const json& id) {
  const auto bad = [&](const std::string& code, const std::string& message) {
    return error_message({code, message}, id);
  };
  if (!body.contains("tournament") || !body["tournament"].is_string())
    return bad("bad_message", "missing 'tournament'");
  if (!body.contains("action") || !body["action"].is_string())
    return bad("bad_message", "missing 'action'");
  // The optional members, each of its type when present: read below with defaults.
  for (const char* key : {"player", "level"})
    if (body.contains(key) && !body[key].is_string())
      return bad("bad_message", std::string("'") + key + "' is a string");
  if (body.contains("count") && !body["count"].is_number_integer())
    return bad("bad_message", "'count' is an integer");
  const auto tid = body["tournament"].get<std::string>();
  const auto action = body["action"].get<std::string>();
  const std::string target = body.value("player", std::string());
  // The tournament as it is: here when this instance runs it, else from the database (the
  // version fence makes the runner reload it).
  std::optional<tournament> loaded;
  tournament* t = nullptr;
  if (auto it = tournaments_.find(tid); it != tournaments_.end()) {
    t = &it->second;
  } else {
    std::string error;
    auto doc = db_->load(tid, error);
    if (!doc && !error.empty()) return bad("storage_failed", "the tournament cannot be read now");
    if (!doc || doc->kind != "tournament")
      return bad("no_such_tournament", "no tournament '" + tid + "'");
    loaded = tournament_from_json(json::parse(doc->state, nullptr, false));
    if (!loaded) return bad("storage_failed", "the stored tournament does not read");
    versions_[tid] = doc->version;
    t = &*loaded;
  }
  const auto now = hooks_.now_ms();
  maybe_error refused;
  if (action == "register") {
    participant p;
    p.id = who.id;
    p.name = who.name;
    p.rating = rating_of(
        who.id, t->settings.table_size,
        t->settings.room.value("setup", json::object()).value("expansions", json::array()).size() >
            0);
    refused = register_player(*t, p);
  } else if (action == "withdraw") {
    refused = withdraw(*t, who.id, now);
  } else if (action == "check_in") {
    refused = check_in(*t, who.id, now);
  } else if (action == "pause") {
    refused = pause(*t, who.id);
  } else if (action == "resume") {
    refused = resume(*t, who.id, now);
  } else if (action == "remove") {
    refused = remove_player(*t, who.id, target);
    // The game under way is the removed player's to lose: it resigns there (a room of this
    // instance; on another the player's clock settles it).
    if (!refused)
      for (const auto& room : rooms_in_play(*t, target)) rooms_.resign_player(room, target);
  } else if (action == "bye") {
    refused = award_bye(*t, who.id, target);
  } else if (action == "start") {
    if (who.id != t->settings.director)
      refused = tournament_error{"not_director", "only the tournament's director may do that"};
    else if (t->phase != tournament_phase::registration)
      refused = tournament_error{"registration_closed", "the tournament has started"};
    else
      t->settings.starts_ms = now;
  } else if (action == "add_bots") {
    const int count = body.value("count", 0);
    const std::string level = body.value("level", std::string("greedy"));
    if (who.id != t->settings.director)
      refused = tournament_error{"not_director", "only the tournament's director may do that"};
    else if (count < 1 || count > 64 || !bot_level_from_name(level))
      refused = tournament_error{
          "bad_message",
          "'count' is 1 to 64 and 'level' a bot level (random, greedy, strong, ismcts, or a "
          "ladder level: beginner, casual, intermediate, advanced, expert)"};
    else {
      int next = 0;
      for (const auto& p : t->participants) next += !p.bot.empty();
      double rating = ratings::rating{}.r;
      for (const auto& b : settings_.bots)
        if (b.level == level) rating = b.rating;
      for (int i = 0; i < count && !refused; ++i) {
        participant p;
        p.id = "bot-" + level + "#" + std::to_string(next + i + 1);
        p.name = std::string(1, static_cast<char>(std::toupper(level[0]))) + level.substr(1) +
                 " bot " + std::to_string(next + i + 1);
        p.rating = rating;
        p.bot = level;
        p.checked_in = true;
        refused = register_player(*t, p);
      }
    }
  } else {
    return bad("bad_message", "unknown tournament action '" + action + "'");
  }
  if (refused) {
    if (loaded) versions_.erase(tid);
    return bad(refused->code, refused->message);
  }
  if (!save(*t)) {
    // Lost to the runner's own save (or the database failed): nothing changed; try again.
    return bad("storage_failed", "the tournament changed meanwhile or cannot be stored: try again");
  }
  if (loaded) {
    versions_.erase(tid);  // not run here: the runner reloads it (fenced)
    return reply("tournament_updated", id, {{"tournament", to_json(*t)}});
  }
  run_tournament(tid, now);
  const auto it = tournaments_.find(tid);  // gone when the store refused it
  if (it == tournaments_.end())
    return bad("storage_failed", "the tournament changed meanwhile or cannot be stored: try again");
  return reply("tournament_updated", id, {{"tournament", to_json(it->second)}});
}

json competitions::read_request(const std::string& kind, const json& body, const json& id) {
  const std::string key = kind == "series" ? "series" : "tournament";
  if (!body.contains(key) || !body[key].is_string())
    return error_message({"bad_message", "missing '" + key + "'"}, id);
  std::string error;
  auto doc = document(kind, body[key].get<std::string>(), error);
  if (!doc && !error.empty())
    return error_message({"storage_failed", "cannot be read now: try again"}, id);
  if (!doc)
    return error_message(
        {"no_such_" + key, "no " + key + " '" + body[key].get<std::string>() + "'"}, id);
  return reply(key, id, {{key, std::move(*doc)}});
}

}  // namespace carcassonne::server::competition
