// advance(): the tournament's clock. Registration closes at the start, rounds are drawn when due,
// tables are offered until their rooms are made (or they are void), rounds finish with their last
// result, and the tournament finishes when its last stage has a winner.
#include <algorithm>
#include <limits>

#include "competition/tournament.hpp"
#include "competition/tournament_parts.hpp"

namespace carcassonne::server::competition {

namespace {

namespace tp = tournament_parts;

std::vector<entrant> active_entrants(const tournament& t) {
  std::vector<entrant> out;
  for (const auto& p : t.participants)
    if (!p.removed) out.push_back({p.id, p.rating});
  return out;
}

// At the start: who did not check in (bots need not) is out; too few left cancels the tournament.
void close_registration(tournament& t) {
  if (t.settings.check_in_ms > 0)
    for (auto& p : t.participants)
      if (!p.checked_in && p.bot.empty()) p.removed = true;
  std::erase_if(t.requested_byes, [&](const auto& id) { return !tp::is_active(t, id); });
  if (static_cast<int>(active_entrants(t).size()) < t.settings.min_players) {
    t.phase = tournament_phase::cancelled;
    t.requested_byes.clear();
  } else {
    t.phase = tournament_phase::running;
  }
}

void finish_tournament(tournament& t, std::string champion) {
  t.phase = tournament_phase::finished;
  t.champion = std::move(champion);
  t.next_round_ms = 0;
  t.paused = false;
  t.requested_byes.clear();
}

std::string swiss_winner(const tournament& t) {
  for (const auto& s : standings_of(t))
    if (tp::is_active(t, s.id)) return s.id;
  return {};
}

// The next Swiss round, or nothing when no valid one can be made: no table, or two players who
// met already would meet again (Swiss never repeats a pairing: the stage is over).
std::optional<round_pairing> next_swiss_pairing(const tournament& t) {
  const auto active = active_entrants(t);
  const auto history = history_of(t);
  std::vector<std::string> requested;
  for (const auto& id : t.requested_byes)
    if (tp::is_active(t, id)) requested.push_back(id);
  auto p = pair_swiss_round(active, history, t.settings.table_size, requested);
  if (p.tables.empty()) return std::nullopt;
  for (const auto& table : p.tables)
    for (std::size_t a = 0; a < table.size(); ++a)
      for (std::size_t b = a + 1; b < table.size(); ++b)
        if (times_met(history, table[a], table[b]) > 0) return std::nullopt;
  return p;
}

// The knockout's seeds: the Swiss stage's top N still in, or everyone by rating then id.
std::vector<std::string> knockout_seeds(const tournament& t) {
  std::vector<std::string> out;
  if (t.settings.format == tournament_format::swiss_knockout) {
    for (const auto& s : standings_of(t))
      if (static_cast<int>(out.size()) < t.settings.top && tp::is_active(t, s.id))
        out.push_back(s.id);
    return out;
  }
  auto active = active_entrants(t);
  std::sort(active.begin(), active.end(), [](const auto& a, const auto& b) {
    return a.rating != b.rating ? a.rating > b.rating : a.id < b.id;
  });
  for (const auto& e : active) out.push_back(e.id);
  return out;
}

tournament_round& open_round(tournament& t, bool knockout, std::int64_t now_ms) {
  auto& r = t.rounds.emplace_back();
  r.number = static_cast<int>(t.rounds.size());
  r.knockout = knockout;
  r.started_ms = now_ms;
  t.next_round_ms = 0;
  t.requested_byes.clear();
  return r;
}

// Draws the next round (its tables due at once), or finishes the tournament when there is none.
void start_next_round(tournament& t, std::int64_t now_ms) {
  if (t.settings.format != tournament_format::knockout && !tp::knockout_started(t) &&
      tp::swiss_rounds_played(t) < t.settings.rounds) {
    if (auto p = next_swiss_pairing(t)) {
      auto& r = open_round(t, false, now_ms);
      for (auto& players : p->tables) r.tables.push_back({.players = std::move(players)});
      r.byes = std::move(p->byes);
      for (auto& tb : r.tables) tb.next_try_ms = now_ms;
      return;
    }
  }
  if (t.settings.format == tournament_format::swiss) return finish_tournament(t, swiss_winner(t));
  const bool first = !tp::knockout_started(t);
  auto entrants = first ? knockout_seeds(t) : tp::knockout_through(t, t.rounds.back());
  if (entrants.size() <= 1) return finish_tournament(t, entrants.empty() ? "" : entrants.front());
  const auto drawn = first ? first_knockout_round(entrants, t.settings.table_size)
                           : next_knockout_round(entrants, t.settings.table_size);
  auto& r = open_round(t, true, now_ms);
  r.bracket = std::move(entrants);
  for (const auto& slot : drawn.slots) {
    if (slot.size() == 1)
      r.byes.push_back(slot.front());
    else
      r.tables.push_back({.players = slot, .next_try_ms = now_ms});
  }
}

// Over without another round: the Swiss rounds all played, or one player left in the knockout.
bool over_without_round(const tournament& t) {
  if (t.rounds.empty()) return false;
  if (t.settings.format == tournament_format::swiss)
    return tp::swiss_rounds_played(t) >= t.settings.rounds;
  return t.rounds.back().knockout && tp::knockout_through(t, t.rounds.back()).size() <= 1;
}

void wake_no_later(step& s, std::int64_t when) {
  if (when > 0 && (s.wake_ms == 0 || when < s.wake_ms)) s.wake_ms = when;
}

// The round under way: tables due are offered (and leased for retry_ms), tables that could not
// start by void_after_ms are void (0.5 against each mate: the best seed goes through a
// knockout), and the round finishes with its last result.
void run_current_round(tournament& t, std::int64_t now_ms, step& s) {
  auto& r = t.rounds.back();
  const auto void_at = r.started_ms + t.settings.void_after_ms;
  for (std::size_t i = 0; i < r.tables.size(); ++i) {
    auto& tb = r.tables[i];
    if (!tp::table_pending(tb)) continue;
    if (now_ms >= void_at) {
      const auto n = tb.players.size();
      tb.results = std::vector<std::vector<double>>(n, std::vector<double>(n, 0.5));
      for (std::size_t k = 0; k < n; ++k) (*tb.results)[k][k] = 0;
      tb.void_table = true;
      tb.next_try_ms = 0;
      s.changed = true;
      continue;
    }
    if (now_ms >= tb.next_try_ms) {
      s.start.push_back({r.number, static_cast<int>(i)});
      tb.next_try_ms = now_ms + t.settings.retry_ms;
      s.changed = true;
    }
    wake_no_later(s, std::min(tb.next_try_ms, void_at));
  }
  if (std::all_of(r.tables.begin(), r.tables.end(), [](const auto& x) { return x.results; })) {
    r.finished = true;
    t.next_round_ms = now_ms + t.settings.round_gap_ms;
    s.changed = true;
  }
}

}  // namespace

step advance(tournament& t, std::int64_t now_ms) {
  step s;
  if (t.phase == tournament_phase::registration) {
    if (now_ms < t.settings.starts_ms) {
      s.wake_ms = t.settings.starts_ms;
      return s;
    }
    close_registration(t);
    s.changed = true;
  }
  // Each pass starts at most one round: a tournament has finitely many.
  while (t.phase == tournament_phase::running) {
    if (!t.rounds.empty() && !t.rounds.back().finished) {
      run_current_round(t, now_ms, s);
      if (!t.rounds.back().finished) return s;
    }
    if (over_without_round(t)) {
      if (t.rounds.back().knockout) {
        const auto through = tp::knockout_through(t, t.rounds.back());
        finish_tournament(t, through.empty() ? "" : through.front());
      } else {
        finish_tournament(t, swiss_winner(t));
      }
      s.changed = true;
      break;
    }
    if (t.paused) break;
    if (!t.rounds.empty() && now_ms < t.next_round_ms) {
      wake_no_later(s, t.next_round_ms);
      break;
    }
    start_next_round(t, now_ms);
    s.changed = true;
  }
  s.wake_ms = t.phase == tournament_phase::running ? s.wake_ms : 0;
  return s;
}

}  // namespace carcassonne::server::competition
