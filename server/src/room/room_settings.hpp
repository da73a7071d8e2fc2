// A room's settings as the lobby makes them, and what the lobby lists of it.
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

#include "match/match_options.hpp"
#include "store/room_state.hpp"

namespace carcassonne::server {

using json = nlohmann::json;

struct room_settings {
  std::string id;
  std::string name;
  bool is_public = true;
  int seats = 4;
  int spectator_delay = 0;
  std::size_t max_spectators = 10000;
  json setup;        // expansions, options and, when allowed, seed and script
  std::string seed;  // chosen by the server unless setup has one
  // The fairness secret (docs/fairness.md), 64 hex digits; empty in a seeded or scripted room,
  // whose randomness its creator chose: such a room shows no commitment.
  std::string secret;
  // The secret of this room's rematch, if it has one (docs/fairness.md "Rematches"): drawn with
  // the room, its commitment shown once the game is over, before any rematch nonce is sent.
  std::string rematch_secret;
  match_options match;  // clocks, timeouts, take-backs (docs/options.md "Match options")
  // Rated when the game ends, if every seat is a player and the seed is the seats' (a fair room).
  bool rated = true;
  // Made by the server for players it brought together (lobby::arrange): kept until it ends.
  bool arranged = false;
};

// What the lobby lists; readable from any thread.
struct room_summary {
  std::string id, name;
  room_state state = room_state::waiting;
  bool is_public = true;
  int seats = 0, taken = 0, spectators = 0, spectator_delay = 0;
  int connections = 0;  // connected seats and spectators
  json players = json::array();
  json bots = json::array();  // {seat, name, level} of each bot seat
  json expansions = json::array();
  std::string commitment;  // docs/fairness.md; empty: none
  json match;              // the match options, when not the defaults
  json to_json() const;
};

}  // namespace carcassonne::server
