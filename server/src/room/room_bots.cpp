// A room's bots: bot seats (at creation and in the waiting room), a bot's turn (a pause on the
// room's timer, the search on the bot runner, the move back through play_move like any move),
// and takeover of a seat whose owner is away on their own decision. Room-strand code.
#include <spdlog/spdlog.h>

#include <cctype>
#include <optional>
#include <string>

#include "carcassonne/protocol/view_doc.hpp"
#include "room/room.hpp"
#include "room/seat_choice.hpp"

namespace carcassonne::server {

namespace {

std::string bot_name(bot_level level, int seat) {
  std::string n(name_of(level));
  n[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(n[0])));
  return n + " bot " + std::to_string(seat + 1);
}

// Why connection `c` may not add or remove a bot now, if it may not.
std::optional<protocol::proto_error> bots_refusal(const room_members& members,
                                                  const game_table& table, const client_link* c) {
  const int seat = members.seat_of(c);
  if (!members.is_creator(c) && (seat < 0 || seat != members.creator_seat))
    return protocol::proto_error{"not_creator", "only the room's creator adds or removes bots"};
  if (table.game)
    return protocol::proto_error{"already_started", "bots are added or removed before the start"};
  return std::nullopt;
}

}  // namespace

void room::attach_bots(bot_runner* runner, poster post, bot_limits limits) {
  bots_.attach(runner, std::move(post), limits);
  schedule_bots();  // a restored game may be waiting for a bot
}

void room::set_bot_settings(const protocol::room_bot_settings& b) {
  bots_.set_settings(b.pause_ms, b.takeover_after, b.takeover_level);
  for (std::size_t i = 0; i < b.seats.size() && i < members_.seats.size(); ++i) {
    if (!b.seats[i]) continue;
    members_.seats[i].taken = true;
    members_.seats[i].bot = b.seats[i];
    members_.seats[i].name = bot_name(*b.seats[i], static_cast<int>(i));
  }
  reset_room_part();
  publish_summary();
}

bot_turns::hooks room::bot_hooks() {
  bot_turns::hooks h;
  h.view = [this](int seat) { return information_set_of(*table_.game, static_cast<seat_t>(seat)); };
  h.moves = [this]() -> std::optional<std::size_t> {
    if (!table_.game) return std::nullopt;
    return table_.journal.moves.size();
  };
  h.play = [this](int seat, const carcassonne::move& mv) {
    if (writes_.stopped()) return;  // the room takes no more moves, a bot's neither
    if (auto e = play_move(seat, mv, nullptr, nullptr)) {
      // A bot only picks among legal moves: this is a bug, said loudly; the seat stays to act.
      spdlog::error("room {} seat {}: the bot's move was refused: {} {}", settings_.id, seat,
                    e->code, e->message);
    }
  };
  h.take_over = [this](int seat, bot_level level) {  // its owner is away: a bot plays for it
    members_.seats[seat].played_by = level;
    if (metrics_) metrics_->bot_takeovers.fetch_add(1, std::memory_order_relaxed);
    spdlog::info("room {} seat {}: away, a {} bot plays for it", settings_.id, seat,
                 name_of(level));
    broadcast({});  // the view says who plays for the seat; then its turn starts
  };
  return h;
}

void room::schedule_bots() {
  bot_turns::position p;
  if (!table_.game || table_.game->finished || !bots_.ready()) return bots_.schedule(p);
  p.seat = to_act(*table_.game);
  p.moves = table_.journal.moves.size();
  const auto& s = members_.seats[p.seat];
  p.absent = s.taken && !s.bot && !s.played_by && !s.client;
  p.controller = controller_at(members_.seats, p.seat);
  bots_.schedule(p);
}

void room::play_for_seat(int seat, bot_level level) {
  if (!table_.game || table_.game->finished || to_act(*table_.game) != seat) return;
  bots_.play_now(seat, level, table_.journal.moves.size());
}

void room::add_bot(const client_ptr& c, const protocol::add_bot_msg& m, const json& id) {
  if (auto refused = bots_refusal(members_, table_, c.get()))
    return fail(c, id, std::move(refused->code), std::move(refused->message));
  auto chosen = choose_seat(members_.seats, settings_.seats, m.seat);
  if (auto* refused = std::get_if<protocol::proto_error>(&chosen))
    return fail(c, id, std::move(refused->code), std::move(refused->message));
  const int seat = std::get<int>(chosen);
  auto& s = members_.seats[seat];
  s.taken = true;
  s.bot = m.level;
  s.name = bot_name(m.level, seat);
  spdlog::info("room {} seat {}: a {} bot sits", settings_.id, seat, name_of(m.level));
  saves_.meta(saving());
  send(
      c,
      protocol::reply(
          "bot_added", id,
          {{"room", settings_.id}, {"seat", seat}, {"name", s.name}, {"level", name_of(m.level)}}));
  broadcast({});
}

void room::remove_bot(const client_ptr& c, const protocol::remove_bot_msg& m, const json& id) {
  if (auto refused = bots_refusal(members_, table_, c.get()))
    return fail(c, id, std::move(refused->code), std::move(refused->message));
  if (m.seat >= settings_.seats) return fail(c, id, "no_such_seat", "the room has no such seat");
  if (!members_.seats[m.seat].bot) return fail(c, id, "not_a_bot", "no bot sits on that seat");
  members_.seats[m.seat] = seat_slot{};
  spdlog::info("room {} seat {}: the bot leaves", settings_.id, m.seat);
  saves_.meta(saving());
  send(c, protocol::reply("bot_removed", id, {{"room", settings_.id}, {"seat", m.seat}}));
  broadcast({});
}

}  // namespace carcassonne::server
