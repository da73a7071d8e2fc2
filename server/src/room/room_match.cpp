// The room's match rules (docs/protocol.md "Match"): clocks and what a timeout does, resign and
// forfeits, seats away for too long. The rules of a forfeit are the engine's (forfeit.hpp); this
// file only decides when one happens and journals it.
#include <spdlog/spdlog.h>

#include <bit>

#include "carcassonne/engine/bot.hpp"
#include "carcassonne/engine/forfeit.hpp"
#include "carcassonne/protocol/json_codec.hpp"
#include "fairness/fairness.hpp"
#include "room/presence.hpp"
#include "room/room.hpp"
#include "room/room_events.hpp"

namespace carcassonne::server {

namespace {

// A bot's seed for a timeout move: fixed by the room's seed and the move's place in the journal.
std::uint64_t timeout_seed(const std::string& room_seed, std::size_t moves) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (const char ch : room_seed) h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ULL;
  return h ^ (moves * 0x9E3779B97F4A7C15ULL);
}

}  // namespace

void room::attach_timer(room_timer_ptr t) {
  timer_ = std::move(t);
  bots_.set_timer(timer_);
  clocks_.set_timer(timer_);
  votes_.set_timer(timer_);
  audience_.set_timer(timer_);
  if (!table_.game || table_.game->finished) return;
  clocks_.resume();  // a restored room: the clock goes on with the time it had
  note_presence();
  reset_room_part();
  clocks_.look_up();
}

seat_clocks::hooks room::clock_hooks() {
  seat_clocks::hooks h;
  h.to_act = [this]() -> std::optional<int> {
    if (!table_.game || table_.game->finished) return std::nullopt;
    return to_act(*table_.game);
  };
  h.stopped = [this] { return writes_.stopped(); };
  h.player = [this](int seat) {
    const auto& s = members_.seats[static_cast<std::size_t>(seat)];
    return s.bot ? std::string() : s.player;
  };
  h.forfeited = [this](int seat) { return has_forfeited(*table_.game, static_cast<seat_t>(seat)); };
  h.moves = [this] { return table_.journal.moves.size(); };
  h.time_out = [this](int seat) { time_out(seat); };
  h.save = [this] { saves_.clock(saving()); };
  h.away = [this] {  // every seat still in play is away: they all forfeit, the game ends
    if (!table_.game || table_.game->finished) return;
    if (const auto away = all_away(*table_.game, members_.seats))
      forfeit_seats(with_bots_if_no_person_left(*table_.game, members_.seats, away), "away", false);
    if (table_.game->finished)
      spdlog::info("room {}: every seat is gone, the game ends", settings_.id);
  };
  h.held = [this](int seat, bool on) {
    room_event(room_events::seat_event(on ? "vacation_started" : "vacation_ended", seat));
  };
  h.holds_changed = [this] {
    if (writes_.writing()) saves_.clock(saving());
    broadcast({});
  };
  return h;
}

void room::after_move(const carcassonne::move& m, const event_log& events) {
  if (settings_.match.undo != undo_mode::off && !reveals_or_scores(events))
    table_.journal.undo_steps.push_back({m, events});
  else
    table_.journal.undo_steps.clear();  // nothing before a draw or a score can be taken back
  votes_.end_undo("moved");             // the question was about another position
  clocks_.changed(true);
  if (clocks_.enabled() && !table_.game->finished)
    saves_.clock(saving());  // the clocks, with the move
}

void room::save_clock() {
  if (writes_.writing() && clocks_.enabled() && table_.game && !table_.game->finished)
    saves_.clock(saving());
}

void room::journal_entry(const json& entry, const json& id, const event_log& events) {
  table_.journal.moves.push_back(entry.dump());
  // One list of outcomes per journal entry (fairness.md).
  table_.outcomes.push_back(fairness::outcomes_text(*table_.game, events));
  saves_.write(saving(), move_write{settings_.id, writes_.next_row(), table_.journal.moves.back(),
                                    id.dump(), seq_ + 1});
}

void room::time_out(int seat) {
  spdlog::info("room {} seat {}: time is up ({})", settings_.id, seat,
               settings_.match.on_timeout == timeout_action::bot ? "a bot plays" : "forfeit");
  if (settings_.match.on_timeout == timeout_action::forfeit)
    return forfeit_seats(static_cast<std::uint8_t>(1u << seat), "timeout", true);
  // The bots' greedy level (random until the bots work lands); on the strand: it is cheap.
  const auto choice =
      choose_move(information_set_of(*table_.game, static_cast<seat_t>(seat)), bot_level::greedy,
                  timeout_seed(settings_.seed, table_.journal.moves.size()));
  json entry = protocol::move_to_json(choice.chosen, *table_.game);
  entry["timeout"] = true;
  event_log events;
  if (auto st = apply_in_place(*table_.game, choice.chosen, &events); !st) {
    spdlog::error("room {}: the timeout move was refused: {}", settings_.id, st.err().message);
    return forfeit_seats(static_cast<std::uint8_t>(1u << seat), "timeout", true);
  }
  for (const auto& e : room_events::of_entry(entry)) room_event(e);  // timed_out
  journal_entry(entry, nullptr, events);
  after_move(choice.chosen, events);
  table_.journal.undo_steps.clear();  // a move made on timeout is nobody's to take back
  if (table_.game->finished) {
    saves_.meta(saving());
    if (metrics_) metrics_->games_finished.fetch_add(1, std::memory_order_relaxed);
  }
  broadcast(events);
}

void room::forfeit_seats(std::uint8_t seats, const char* reason, bool on_timeout) {
  event_log events;
  if (auto st = forfeit(*table_.game, seats, &events); !st) return;
  const int first = std::countr_zero(static_cast<unsigned>(seats));
  json entry{{"seat", first}, {"type", "forfeit"}, {"reason", reason}};
  if (std::popcount(static_cast<unsigned>(seats)) > 1) {  // together: one engine call
    entry["seats"] = json::array();
    for (int i = 0; i < max_seats; ++i)
      if (seats >> i & 1) entry["seats"].push_back(i);
  }
  if (on_timeout) entry["timeout"] = true;
  spdlog::info("room {}: {} forfeits ({})", settings_.id, entry.value("seats", json(first)).dump(),
               reason);
  for (const auto& e : room_events::of_entry(entry)) room_event(e);
  journal_entry(entry, nullptr, events);
  table_.journal.undo_steps.clear();
  votes_.end_undo("forfeit");
  clocks_.changed(true);
  saves_.meta(saving());
  if (table_.game->finished && metrics_)
    metrics_->games_finished.fetch_add(1, std::memory_order_relaxed);
  broadcast(events);
}

void room::note_presence() {
  if (!timer_ || !table_.game || table_.game->finished) return;
  carcassonne::server::note_presence(members_.seats, timer_->now());
  // The check falls due when the last seat to leave has been away for the limit.
  clocks_.away_at(all_away_at(*table_.game, members_.seats, settings_.match.away_limit));
}

bool room::resign_player(const std::string& player) {
  if (player.empty() || !table_.game || table_.game->finished || writes_.stopped()) return false;
  for (std::size_t i = 0; i < members_.seats.size(); ++i) {
    if (members_.seats[i].player != player || members_.seats[i].bot) continue;
    if (has_forfeited(*table_.game, static_cast<seat_t>(i))) return false;
    forfeit_seats(with_bots_if_no_person_left(*table_.game, members_.seats,
                                              static_cast<std::uint8_t>(1u << i)),
                  "resign", false);
    return true;
  }
  return false;
}

void room::match_action(const client_ptr& c, const protocol::match_msg& m, const json& id) {
  using kind = protocol::match_msg::kind;
  const int seat = members_.seat_of(c.get());
  if (seat < 0) return fail(c, id, "not_seated", "only a seated player does that");
  if (!table_.game) return fail(c, id, "not_started", "the game has not started");
  const auto refused = [&](const seat_votes::refusal& r) {
    if (r) return fail(c, id, r->code, r->message);
    broadcast({});
  };
  if (m.what == kind::rematch) {
    if (!table_.game->finished)
      return fail(c, id, "game_not_over", "a rematch is offered once the game is over");
    return refused(votes_.answer_rematch(seat, m.accept, m.nonce, [&] {
      send(c,
           protocol::reply("rematch_answered", id, {{"room", settings_.id}, {"accept", m.accept}}));
    }));
  }
  if (table_.game->finished) return fail(c, id, "game_over", "the game is over");
  if (writes_.stopped())
    return fail(c, id, "storage_failed",
                "the server could not store this room's last change: it takes no more moves");
  if (m.what == kind::undo)
    return refused(votes_.ask_undo(seat, undo_ask_of(table_, members_.seats, seat, writes_.rows()),
                                   [&](const char* type) {
                                     send(c, protocol::reply(type, id, {{"room", settings_.id}}));
                                   }));
  if (m.what == kind::undo_answer)
    return refused(votes_.answer_undo(seat, m.accept, [&] {
      send(c, protocol::reply("undo_answered", id, {{"room", settings_.id}, {"accept", m.accept}}));
    }));
  if (has_forfeited(*table_.game, static_cast<seat_t>(seat)))
    return fail(c, id, "already_forfeited", "you have already left this game");
  // journaled first: the answer waits for the write
  forfeit_seats(with_bots_if_no_person_left(*table_.game, members_.seats,
                                            static_cast<std::uint8_t>(1u << seat)),
                "resign", false);
  send(c, protocol::reply("resigned", id, {{"room", settings_.id}, {"seat", seat}}));
}

}  // namespace carcassonne::server
