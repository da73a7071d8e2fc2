// A room's bots: bot seats (at creation and in the waiting room), a bot's turn (a pause on the
// room's timer, the search on the bot runner, the move back through play_move like any move),
// and takeover of a seat whose owner is away on their own decision. Room-strand code.
#include <spdlog/spdlog.h>

#include <cctype>
#include <string>

#include "base/sha256.hpp"
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

}  // namespace

void room::attach_bots(bot_runner* runner, poster post, bot_limits limits) {
  bot_runner_ = runner;
  bot_post_ = std::move(post);
  bot_limits_ = limits;
  schedule_bots();  // a restored game may be waiting for a bot
}

void room::set_bot_settings(const protocol::room_bot_settings& b) {
  bot_settings_ = b;
  for (std::size_t i = 0; i < b.seats.size() && i < seats_.size(); ++i) {
    if (!b.seats[i]) continue;
    seats_[i].taken = true;
    seats_[i].bot = b.seats[i];
    seats_[i].name = bot_name(*b.seats[i], static_cast<int>(i));
  }
  bot_settings_.seats.clear();  // from now on the seats themselves say who is a bot
  reset_room_part();
  publish_summary();
}

std::optional<bot_level> room::controller(int seat) const {
  if (seat < 0 || seat >= static_cast<int>(seats_.size())) return std::nullopt;
  const auto& s = seats_[seat];
  return s.bot ? s.bot : s.played_by;
}

std::optional<protocol::proto_error> room::bot_seat_refusal(std::optional<long long> named) const {
  if (!named) return std::nullopt;
  const auto n = *named;
  if (n < 0 || n >= static_cast<long long>(seats_.size()) || !seats_[n].bot) return std::nullopt;
  return protocol::proto_error{"not_your_seat",
                               "seat " + std::to_string(n) + " is a bot's: only it moves there"};
}

void room::cancel_bot_turn() {
  if (bot_turn_.timer && timer_) timer_->cancel(bot_turn_.timer);
  bot_turn_ = {};  // a search already running is dropped when it comes back (ticket)
}

void room::start_bot_turn(int seat, bot_level level, bool forced, std::chrono::milliseconds pause) {
  cancel_bot_turn();
  bot_turn_ = {++last_ticket_, seat, played_.moves.size(), level, forced, 0};
  const auto ticket = bot_turn_.ticket;
  if (pause.count() == 0 && forced) return think(ticket);
  bot_turn_.timer = timer_->call_after(pause, [this, ticket] { think(ticket); });
}

void room::schedule_bots() {
  const bool live = game_ && !game_->finished && timer_ && bot_runner_;
  const int seat = live ? to_act(*game_) : -1;

  // Takeover: the seat to act has been disconnected for takeover_after seconds.
  const bool absent = live && bot_settings_.takeover_after > 0 && seats_[seat].taken &&
                      !seats_[seat].bot && !seats_[seat].played_by && !seats_[seat].client;
  if (!absent || absent_seat_ != seat) {
    if (takeover_timer_) timer_->cancel(takeover_timer_);
    takeover_timer_ = 0;
    absent_seat_ = -1;
    if (absent) {
      absent_seat_ = seat;
      takeover_timer_ =
          timer_->call_after(std::chrono::seconds(bot_settings_.takeover_after), [this, seat] {
            takeover_timer_ = 0;
            absent_seat_ = -1;
            seats_[seat].played_by = bot_settings_.takeover_level;
            if (metrics_) metrics_->bot_takeovers.fetch_add(1, std::memory_order_relaxed);
            spdlog::info("room {} seat {}: away, a {} bot plays for it", settings_.id, seat,
                         name_of(bot_settings_.takeover_level));
            broadcast({});  // the view says who plays for the seat; then its turn starts
          });
    }
  }

  // A bot's turn: kept while it is still for this position, else replaced or cancelled.
  const auto level = live ? controller(seat) : std::nullopt;
  if (bot_turn_.ticket) {
    const bool same_position =
        live && bot_turn_.seat == seat && bot_turn_.moves == played_.moves.size();
    if (same_position && (bot_turn_.forced || (level && *level == bot_turn_.level))) return;
    cancel_bot_turn();
  }
  if (level) start_bot_turn(seat, *level, false, std::chrono::milliseconds(bot_settings_.pause_ms));
}

void room::play_for_seat(int seat, bot_level level) {
  if (!game_ || game_->finished || !bot_runner_ || to_act(*game_) != seat) return;
  start_bot_turn(seat, level, true, std::chrono::milliseconds(0));
}

void room::think(std::uint64_t ticket) {
  if (ticket != bot_turn_.ticket) return;
  bot_turn_.timer = 0;
  bot_job job;
  job.info = information_set_of(*game_, static_cast<seat_t>(bot_turn_.seat));  // never the state
  job.level = bot_turn_.level;
  // A seed of the room's own: reproducible per room and move, unrelated to the game's generator.
  const auto digest = sha256_hex(settings_.seed + "/bot/" + std::to_string(played_.moves.size()));
  job.seed = std::stoull(digest.substr(0, 16), nullptr, 16);
  job.playouts = bot_limits_.playouts;
  job.think_limit = bot_limits_.think_limit;
  bot_runner_->submit(std::move(job), [this, ticket, post = bot_post_](bot_result r) {
    post([this, ticket, r] { on_bot_result(ticket, r); });
  });
}

void room::on_bot_result(std::uint64_t ticket, const bot_result& r) {
  if (ticket != bot_turn_.ticket || !game_ || played_.moves.size() != bot_turn_.moves) {
    if (metrics_) metrics_->bot_results_dropped.fetch_add(1, std::memory_order_relaxed);
    spdlog::debug("room {}: a bot's move for an older position dropped", settings_.id);
    return;
  }
  const int seat = bot_turn_.seat;
  bot_turn_ = {};
  if (storage_failed_) return;  // the room takes no more moves, a bot's neither
  if (auto e = play_move(seat, r.choice.chosen, nullptr, nullptr)) {
    // A bot only picks among legal moves: this is a bug, said loudly; the seat stays to act.
    spdlog::error("room {} seat {}: the bot's move was refused: {} {}", settings_.id, seat, e->code,
                  e->message);
    return;
  }
}

void room::release_takeover(int seat) {
  if (!seats_[seat].played_by) return;
  seats_[seat].played_by.reset();
  spdlog::info("room {} seat {}: back, the bot stops playing for it", settings_.id, seat);
}

bool room::can_manage_bots(const client_ptr& c, const json& id) {
  const int seat = seat_of(c.get());
  if (!is_creator(c.get()) && (seat < 0 || seat != creator_seat_)) {
    fail(c, id, "not_creator", "only the room's creator adds or removes bots");
    return false;
  }
  if (game_) {
    fail(c, id, "already_started", "bots are added or removed before the start");
    return false;
  }
  return true;
}

void room::add_bot(const client_ptr& c, const protocol::add_bot_msg& m, const json& id) {
  if (!can_manage_bots(c, id)) return;
  auto chosen = choose_seat(seats_, settings_.seats, m.seat);
  if (auto* refused = std::get_if<protocol::proto_error>(&chosen))
    return fail(c, id, std::move(refused->code), std::move(refused->message));
  const int seat = std::get<int>(chosen);
  auto& s = seats_[seat];
  s.taken = true;
  s.bot = m.level;
  s.name = bot_name(m.level, seat);
  spdlog::info("room {} seat {}: a {} bot sits", settings_.id, seat, name_of(m.level));
  persist_meta();
  send(
      c,
      protocol::reply(
          "bot_added", id,
          {{"room", settings_.id}, {"seat", seat}, {"name", s.name}, {"level", name_of(m.level)}}));
  broadcast({});
}

void room::remove_bot(const client_ptr& c, const protocol::remove_bot_msg& m, const json& id) {
  if (!can_manage_bots(c, id)) return;
  if (m.seat >= settings_.seats) return fail(c, id, "no_such_seat", "the room has no such seat");
  if (!seats_[m.seat].bot) return fail(c, id, "not_a_bot", "no bot sits on that seat");
  seats_[m.seat] = seat_slot{};
  spdlog::info("room {} seat {}: the bot leaves", settings_.id, m.seat);
  persist_meta();
  send(c, protocol::reply("bot_removed", id, {{"room", settings_.id}, {"seat", m.seat}}));
  broadcast({});
}

void room::append_bot_meta(std::string& out) const {
  out += R"({"seats":[)";
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    if (i) out += ',';
    if (seats_[i].bot)
      protocol::append_quoted(out, name_of(*seats_[i].bot));
    else
      out += "null";
  }
  out += R"(],"pause_ms":)";
  protocol::append_number(out, bot_settings_.pause_ms);
  out += R"(,"takeover_after":)";
  protocol::append_number(out, bot_settings_.takeover_after);
  out += R"(,"takeover_level":)";
  protocol::append_quoted(out, name_of(bot_settings_.takeover_level));
  out += '}';
}

void room::restore_bot_meta(const json& meta) {
  const auto it = meta.find("bots");
  if (it == meta.end()) return;  // stored before bots existed
  const json& b = *it;
  bot_settings_.pause_ms = b.at("pause_ms").get<int>();
  bot_settings_.takeover_after = b.at("takeover_after").get<int>();
  bot_settings_.takeover_level =
      bot_level_from_name(b.at("takeover_level").get<std::string>()).value_or(bot_level::greedy);
  const json& seats = b.at("seats");
  for (std::size_t i = 0; i < seats.size() && i < seats_.size(); ++i)
    if (seats[i].is_string()) seats_[i].bot = bot_level_from_name(seats[i].get<std::string>());
}

}  // namespace carcassonne::server
