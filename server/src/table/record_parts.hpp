// What a game's record is made of, as texts (docs/protocol.md "Records"): a room copies them when
// its game ends and builds the record's tree only when one is asked for, as most never are
// (parsing every move into a tree cost 4% of a move's instructions, docs/performance.md).
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace carcassonne::server {

struct record_parts {
  std::string setup;                  // JSON text; "" before the start
  std::vector<std::string> moves;     // JSON texts, in record form
  std::string secret;                 // "" without a fairness commitment
  std::vector<std::string> nonces;    // per seat, with a secret
  std::vector<std::string> outcomes;  // JSON texts: the start's, then one list per move
};

// The record (game-record.md), with its "fairness" section when there is a secret.
nlohmann::json record_of(const record_parts& p);

}  // namespace carcassonne::server
