// libFuzzer harness: the record loader (protocol::parse_record) and the replay of its moves, as
// `carcassonne replay` and the server's store do: any text is refused with a code or replays,
// move by move, until a move is refused.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "carcassonne/protocol/json_codec.hpp"
#include "carcassonne/protocol/record.hpp"
#include "carcassonne/protocol/view.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace carcassonne;
  auto record = protocol::parse_record(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!record.ok()) {
    if (record.error.code.empty()) std::abort();
    return 0;
  }
  const auto& r = *record.value;
  auto game = new_game(r.setup);
  if (!game) return 0;
  game_state& s = game.value();
  std::size_t applied = 0;
  for (const auto& m : r.moves) {
    if (applied == 400) break;  // a bound on one input's time
    if (!protocol::apply_json_move(s, m).code.empty()) break;
    ++applied;
  }
  (void)protocol::build_view(s, protocol::spectator, r.names).dump();
  (void)protocol::record_to_json(r).dump();
  return 0;
}
