// A room's seat: who sits there (a person with a token, a player's account, or a bot), the
// connection holding it, and what that connection was last sent. The room owns its seats; these
// are the plain reads over one seat that several room files share.
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/fifo.hpp"
#include "carcassonne/engine/bot.hpp"
#include "carcassonne/protocol/view_doc.hpp"
#include "match/room_timer.hpp"
#include "room/client_link.hpp"
#include "room/resume_window.hpp"

namespace carcassonne::server {

struct seat_slot {
  bool taken = false;
  std::string name;
  std::string player;      // the seat's player id (docs/protocol.md "Accounts"); "" none
  std::string token_hash;  // sha256 of the seat token: the token itself is never stored
  // The token as given at join or shown at resume, in memory only: a rematch opens the seat's
  // place there with the same token, and tells it to the connection holding the seat.
  std::string token;
  std::string nonce;  // docs/fairness.md; "" until the seat sends one
  client_ptr client;
  fifo<std::pair<nlohmann::json, frame_ptr>> answered;  // client id -> answer (duplicates)
  protocol::view_doc private_view;                      // last private part sent
  std::optional<bot_level> bot;                         // a bot's seat (no token, no client)
  std::optional<bot_level> played_by;  // takeover: a bot plays for the absent owner
  std::optional<room_timer::clock::time_point> away_since;  // no connection since
  // The seat's last patches, sent or made while it was away (a game's first patch is not
  // kept): a phone that drops for a few moves gets them again, anything more a snapshot.
  resume_window recent;
  std::size_t missed = 0;  // patches made while away: past resume_window::patches, none kept
};

// A seat of a room the server makes (a rematch's, a tournament's), in seat order.
struct seat_init {
  std::string name, token_hash, nonce, player;
  std::optional<bot_level> bot;  // a bot's seat (no token): it plays at this level
};

// The bot that moves for the seat: its own, or one playing for its absent owner.
inline std::optional<bot_level> controller_of(const seat_slot& s) {
  return s.bot ? s.bot : s.played_by;
}

// The bot that moves for seat `seat` of `seats`, if any (none for a seat out of range).
inline std::optional<bot_level> controller_at(const std::vector<seat_slot>& seats, int seat) {
  if (seat < 0 || seat >= static_cast<int>(seats.size())) return std::nullopt;
  return controller_of(seats[static_cast<std::size_t>(seat)]);
}

// Keeps the seat's answer to request `id`: a duplicate of the request gets it again, of the
// last answers_kept ones.
inline constexpr std::size_t answers_kept = 32;
inline void remember_answer(seat_slot& s, const nlohmann::json& id, frame_ptr answer) {
  s.answered.emplace_back(id, std::move(answer));
  if (s.answered.size() > answers_kept) s.answered.pop_front();
}

// The seat's account to tell of its events: a person's seat with an account (never a bot's,
// nor a guest's).
inline const std::string* account_of(const seat_slot& s) {
  return s.taken && !s.bot && !s.player.empty() ? &s.player : nullptr;
}

// The seat's player id as records and rows show it: its account's, a bot level's
// ("bot-greedy"), or "".
inline std::string player_of(const seat_slot& s) {
  if (!s.bot) return s.player;
  std::string id("bot-");  // built in place: GCC 12 sees a false -Wrestrict in "bot-" + ...
  id += name_of(*s.bot);
  return id;
}

}  // namespace carcassonne::server
