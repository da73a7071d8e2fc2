// Registration, check-in, the director's actions, tables' outcomes, and who goes through a
// knockout round. advance() is in tournament_advance.cpp, the JSON forms in tournament_json.cpp.
#include "competition/tournament.hpp"

#include <algorithm>

#include "competition/tournament_parts.hpp"

namespace carcassonne::server::competition {

namespace tournament_parts {

participant* find_participant(tournament& t, const std::string& id) {
  for (auto& p : t.participants)
    if (p.id == id) return &p;
  return nullptr;
}

const participant* find_participant(const tournament& t, const std::string& id) {
  for (const auto& p : t.participants)
    if (p.id == id) return &p;
  return nullptr;
}

bool is_active(const tournament& t, const std::string& id) {
  const auto* p = find_participant(t, id);
  return p && !p->removed;
}

tournament_table* table_at(tournament& t, const table_ref& ref) {
  if (ref.round < 1 || ref.round > static_cast<int>(t.rounds.size())) return nullptr;
  auto& r = t.rounds[static_cast<std::size_t>(ref.round - 1)];
  if (ref.table < 0 || ref.table >= static_cast<int>(r.tables.size())) return nullptr;
  return &r.tables[static_cast<std::size_t>(ref.table)];
}

bool table_pending(const tournament_table& tb) {
  return tb.rooms.empty() && tb.series.empty() && !tb.results;
}

bool knockout_started(const tournament& t) {
  return std::any_of(t.rounds.begin(), t.rounds.end(), [](const auto& r) { return r.knockout; });
}

int swiss_rounds_played(const tournament& t) {
  return static_cast<int>(
      std::count_if(t.rounds.begin(), t.rounds.end(), [](const auto& r) { return !r.knockout; }));
}

bool next_round_is_knockout(const tournament& t) {
  switch (t.settings.format) {
    case tournament_format::swiss:
      return false;
    case tournament_format::knockout:
      return true;
    case tournament_format::swiss_knockout:
      return knockout_started(t) || swiss_rounds_played(t) >= t.settings.rounds;
  }
  return false;
}

namespace {

// A knockout table's winner: the most points (the sum of its row of results), ties to the better
// seed (earlier in the first knockout round's bracket); a removed player never goes through, the
// best of the others does. Nobody when every player was removed.
std::string table_winner(const tournament& t, const tournament_table& tb,
                         const std::vector<std::string>& seeds) {
  const auto seed = [&](const std::string& id) {
    return std::find(seeds.begin(), seeds.end(), id) - seeds.begin();
  };
  std::string best;
  double best_points = 0;
  for (std::size_t i = 0; i < tb.players.size(); ++i) {
    if (!is_active(t, tb.players[i])) continue;
    double points = 0;
    for (std::size_t j = 0; j < tb.players.size(); ++j)
      if (j != i) points += (*tb.results)[i][j];
    if (best.empty() || points > best_points ||
        (points == best_points && seed(tb.players[i]) < seed(best))) {
      best = tb.players[i];
      best_points = points;
    }
  }
  return best;
}

}  // namespace

std::vector<std::string> knockout_through(const tournament& t, const tournament_round& r) {
  const auto first =
      std::find_if(t.rounds.begin(), t.rounds.end(), [](const auto& x) { return x.knockout; });
  if (first == t.rounds.end()) return {};
  const auto& seeds = first->bracket;
  // The slots in bracket order, drawn again from the round's entrants (the draw is pure).
  const auto drawn = r.number == first->number
                         ? first_knockout_round(r.bracket, t.settings.table_size)
                         : next_knockout_round(r.bracket, t.settings.table_size);
  std::vector<std::string> out;
  for (const auto& slot : drawn.slots) {
    if (slot.size() == 1) {
      if (is_active(t, slot.front())) out.push_back(slot.front());
      continue;
    }
    const auto tb = std::find_if(r.tables.begin(), r.tables.end(),
                                 [&](const auto& x) { return x.players == slot; });
    if (tb == r.tables.end() || !tb->results) continue;
    if (auto w = table_winner(t, *tb, seeds); !w.empty()) out.push_back(std::move(w));
  }
  return out;
}

}  // namespace tournament_parts

namespace {

namespace tp = tournament_parts;

maybe_error tournament_refusal(std::string code, std::string message) {
  return tournament_error{std::move(code), std::move(message)};
}

maybe_error director_refusal(const tournament& t, const std::string& by) {
  if (by != t.settings.director)
    return tournament_refusal("not_director", "only the tournament's director may do this");
  if (t.phase == tournament_phase::finished || t.phase == tournament_phase::cancelled)
    return tournament_refusal("not_running", "the tournament is over");
  return std::nullopt;
}

// Out of the tournament: before the start the entry is gone (the seat is free again); once
// it runs the player is paired no more and their finished results stand.
void take_out(tournament& t, const std::string& player) {
  if (t.phase == tournament_phase::registration) {
    std::erase_if(t.participants, [&](const auto& p) { return p.id == player; });
  } else {
    tp::find_participant(t, player)->removed = true;
  }
  std::erase(t.requested_byes, player);
}

}  // namespace

maybe_error register_player(tournament& t, const participant& p) {
  if (t.phase != tournament_phase::registration)
    return tournament_refusal("registration_closed", "registration is closed");
  if (tp::find_participant(t, p.id))
    return tournament_refusal("already_registered", "already registered");
  if (static_cast<int>(t.participants.size()) >= t.settings.max_players)
    return tournament_refusal("tournament_full", "the tournament is full");
  t.participants.push_back(p);
  t.participants.back().removed = false;
  return std::nullopt;
}

maybe_error withdraw(tournament& t, const std::string& player, std::int64_t) {
  if (!tp::is_active(t, player))
    return tournament_refusal("not_registered", "not registered in this tournament");
  if (t.phase == tournament_phase::finished || t.phase == tournament_phase::cancelled)
    return tournament_refusal("not_running", "the tournament is over");
  take_out(t, player);
  return std::nullopt;
}

maybe_error check_in(tournament& t, const std::string& player, std::int64_t now_ms) {
  auto* p = tp::find_participant(t, player);
  if (!p || p->removed)
    return tournament_refusal("not_registered", "not registered in this tournament");
  if (t.phase != tournament_phase::registration || now_ms >= t.settings.starts_ms)
    return tournament_refusal("check_in_closed", "check-in closed when the tournament started");
  if (t.settings.check_in_ms > 0 && now_ms < t.settings.starts_ms - t.settings.check_in_ms)
    return tournament_refusal("check_in_closed", "check-in is not open yet");
  p->checked_in = true;
  return std::nullopt;
}

maybe_error pause(tournament& t, const std::string& by) {
  if (auto e = director_refusal(t, by)) return e;
  if (t.phase != tournament_phase::running)
    return tournament_refusal("not_running", "the tournament has not started");
  if (t.paused) return tournament_refusal("already_paused", "the tournament is paused already");
  t.paused = true;
  return std::nullopt;
}

maybe_error resume(tournament& t, const std::string& by, std::int64_t now_ms) {
  if (auto e = director_refusal(t, by)) return e;
  if (t.phase != tournament_phase::running)
    return tournament_refusal("not_running", "the tournament has not started");
  if (!t.paused) return tournament_refusal("not_paused", "the tournament is not paused");
  t.paused = false;
  // Between rounds, the players get the usual gap from the resumption to come back.
  if (!t.rounds.empty() && t.rounds.back().finished)
    t.next_round_ms = std::max(t.next_round_ms, now_ms + t.settings.round_gap_ms);
  return std::nullopt;
}

maybe_error remove_player(tournament& t, const std::string& by, const std::string& player) {
  if (auto e = director_refusal(t, by)) return e;
  if (!tp::is_active(t, player))
    return tournament_refusal("no_such_player", "no such player in this tournament");
  take_out(t, player);
  return std::nullopt;
}

maybe_error award_bye(tournament& t, const std::string& by, const std::string& player) {
  if (auto e = director_refusal(t, by)) return e;
  if (!tp::is_active(t, player))
    return tournament_refusal("no_such_player", "no such player in this tournament");
  if (tp::next_round_is_knockout(t))
    return tournament_refusal("knockout_has_no_byes", "the next round is a knockout round");
  if (std::find(t.requested_byes.begin(), t.requested_byes.end(), player) == t.requested_byes.end())
    t.requested_byes.push_back(player);
  return std::nullopt;
}

void table_started(tournament& t, const table_ref& ref, const std::string& room_or_series,
                   bool is_series) {
  auto* tb = tp::table_at(t, ref);
  if (!tb) return;
  if (is_series)
    tb->series = room_or_series;
  else
    tb->rooms.push_back(room_or_series);
  tb->next_try_ms = 0;
}

void table_failed(tournament& t, const table_ref& ref, std::int64_t now_ms) {
  auto* tb = tp::table_at(t, ref);
  if (tb && tp::table_pending(*tb) && !tb->void_table)
    tb->next_try_ms = now_ms + t.settings.retry_ms;
}

void table_finished(tournament& t, const table_ref& ref, std::vector<std::vector<double>> results) {
  auto* tb = tp::table_at(t, ref);
  // The first outcome stands (a void table's too); a matrix of the wrong shape is no outcome.
  if (!tb || tb->results || results.size() != tb->players.size()) return;
  for (const auto& row : results)
    if (row.size() != tb->players.size()) return;
  tb->results = std::move(results);
}

swiss_history history_of(const tournament& t) {
  swiss_history h;
  for (const auto& r : t.rounds) {
    if (r.knockout) continue;
    for (const auto& tb : r.tables)
      if (tb.results) h.games.push_back({r.number, tb.players, *tb.results});
    for (const auto& b : r.byes) h.byes.push_back({r.number, b, 1.0});
  }
  return h;
}

std::vector<standing> standings_of(const tournament& t) {
  const auto h = history_of(t);
  const auto played = [&](const std::string& id) {
    for (const auto& g : h.games)
      if (std::find(g.players.begin(), g.players.end(), id) != g.players.end()) return true;
    return std::any_of(h.byes.begin(), h.byes.end(), [&](const auto& b) { return b.player == id; });
  };
  // Everyone still in, and those removed who played (their results stand).
  std::vector<entrant> entrants;
  for (const auto& p : t.participants)
    if (!p.removed || played(p.id)) entrants.push_back({p.id, p.rating});
  return swiss_standings(entrants, h);
}

}  // namespace carcassonne::server::competition
