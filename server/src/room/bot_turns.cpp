// A room's bots at play (bot_turns.hpp): a bot's turn is a pause on the room's timer, then a
// search on the runner, then the move handed back to the room on its strand; a ticket tells a
// result for the turn still pending from one for a turn since cancelled.
#include "room/bot_turns.hpp"

#include <spdlog/spdlog.h>

#include "base/sha256.hpp"

namespace carcassonne::server {

bot_turns::bot_turns(std::string seed, std::string room_id, metrics* m, hooks h)
    : seed_(std::move(seed)), room_id_(std::move(room_id)), metrics_(m), hooks_(std::move(h)) {}

bot_turns::~bot_turns() {
  if (!timer_) return;
  for (const auto h : {turn_.timer, takeover_timer_})
    if (h) timer_->cancel(h);
}

void bot_turns::attach(bot_runner* runner, poster post, bot_limits limits) {
  runner_ = runner;
  post_ = std::move(post);
  limits_ = limits;
}

void bot_turns::set_settings(int pause_ms, int takeover_after, bot_level takeover_level) {
  settings_.pause_ms = pause_ms;
  settings_.takeover_after = takeover_after;
  settings_.takeover_level = takeover_level;
}

void bot_turns::cancel_turn() {
  if (turn_.timer && timer_) timer_->cancel(turn_.timer);
  turn_ = {};
}

void bot_turns::start(int seat, bot_level level, bool forced, std::size_t moves,
                      std::chrono::milliseconds pause) {
  cancel_turn();
  turn_ = {++last_ticket_, seat, moves, level, forced, 0};
  const auto ticket = turn_.ticket;
  if (pause.count() == 0 && forced) return think(ticket);
  turn_.timer = timer_->call_after(pause, [this, ticket] { think(ticket); });
}

void bot_turns::schedule(const position& p) {
  const bool live = p.seat >= 0 && ready();
  const int seat = live ? p.seat : -1;

  // Takeover: the seat to act has been disconnected for takeover_after seconds.
  const bool absent = live && settings_.takeover_after > 0 && p.absent;
  if (!absent || absent_seat_ != seat) {
    if (takeover_timer_) timer_->cancel(takeover_timer_);
    takeover_timer_ = 0;
    absent_seat_ = -1;
    if (absent) {
      absent_seat_ = seat;
      takeover_timer_ =
          timer_->call_after(std::chrono::seconds(settings_.takeover_after), [this, seat] {
            takeover_timer_ = 0;
            absent_seat_ = -1;
            hooks_.take_over(seat, settings_.takeover_level);
          });
    }
  }

  // A bot's turn: kept while it is still for this position, else replaced or cancelled.
  const auto level = live ? p.controller : std::nullopt;
  if (turn_.ticket) {
    const bool same_position = live && turn_.seat == seat && turn_.moves == p.moves;
    if (same_position && (turn_.forced || (level && *level == turn_.level))) return;
    cancel_turn();
  }
  if (level) start(seat, *level, false, p.moves, std::chrono::milliseconds(settings_.pause_ms));
}

void bot_turns::play_now(int seat, bot_level level, std::size_t moves) {
  if (!runner_) return;
  start(seat, level, true, moves, std::chrono::milliseconds(0));
}

void bot_turns::think(std::uint64_t ticket) {
  if (ticket != turn_.ticket) return;
  turn_.timer = 0;
  bot_job job;
  job.room = room_id_;  // the pool keeps one search of a room waiting
  job.info = hooks_.view(turn_.seat);
  job.level = turn_.level;
  // A seed of the room's own: reproducible per room and move, unrelated to the game's generator.
  const auto moves = hooks_.moves().value_or(turn_.moves);
  const auto digest = sha256_hex(seed_ + "/bot/" + std::to_string(moves));
  job.seed = std::stoull(digest.substr(0, 16), nullptr, 16);
  job.playouts = limits_.playouts;
  job.think_limit = limits_.think_limit;
  runner_->submit(std::move(job), [this, ticket, post = post_](bot_result r) {
    post([this, ticket, r] { on_result(ticket, r); });
  });
}

void bot_turns::on_result(std::uint64_t ticket, const bot_result& r) {
  if (ticket != turn_.ticket || hooks_.moves() != turn_.moves) {
    if (metrics_) metrics_->bot_results_dropped.fetch_add(1, std::memory_order_relaxed);
    spdlog::debug("room {}: a bot's move for an older position dropped", room_id_);
    return;
  }
  const int seat = turn_.seat;
  turn_ = {};
  hooks_.play(seat, r.choice.chosen);
}

}  // namespace carcassonne::server
