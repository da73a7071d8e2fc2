// Test helpers for the protocol suite: games from record text, key sets of JSON objects.
#pragma once
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <string_view>

#include "carcassonne/engine/game.hpp"
#include "carcassonne/protocol/record.hpp"
#include "every_expansion.hpp"

namespace carcassonne::testing {

// The start of the game a record's setup describes (its moves are not applied).
inline game_state game_from(std::string_view record_text) {
  auto r = protocol::parse_record(record_text);
  REQUIRE_MESSAGE(r.ok(), r.error.code << ": " << r.error.message);
  auto g = new_game(r.value->setup);
  REQUIRE_MESSAGE(g.ok(), g.err().message);
  return g.value();
}

// The record text of three players with every expansion, from `seed`.
inline std::string all_expansions_record(const std::string& seed) {
  return R"({"setup": {"players": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
      "expansions": )" +
         carcassonne::testing::every_expansion().dump() + R"(, "seed": ")" + seed + R"("}})";
}

// Its game's start: the games the codec tests walk through.
inline game_state all_expansions_game(const std::string& seed) {
  return game_from(all_expansions_record(seed));
}

inline std::set<std::string> keys(const nlohmann::json& object) {
  std::set<std::string> out;
  for (const auto& [k, v] : object.items()) out.insert(k);
  return out;
}

}  // namespace carcassonne::testing
