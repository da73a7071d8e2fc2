// selfplay: the engine's benchmark (game-record.md). Game i is seeded with "S/i"; the random
// move choices come from a separate generator seeded with "S/moves", so a run is reproducible.
#include <chrono>
#include <ostream>

#include "carcassonne/app/commands.hpp"
#include "carcassonne/engine/game.hpp"
#include "carcassonne/protocol/json_codec.hpp"
#include "game_options.hpp"

namespace carcassonne::app {

using protocol::json;

int run_selfplay(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  game_options o;
  o.games = 1000;
  o.players = 2;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto read = read_game_option(args, i, o, "selfplay", 0, err);
    if (read == option_read::failed) return 1;
    if (read == option_read::not_shared) {
      err << "carcassonne selfplay: unexpected argument '" << args[i] << "'\n";
      return 1;
    }
  }
  const long long games = o.games, players = o.players;
  const std::string& seed = o.seed;
  game_setup& setup = o.setup;
  const json& expansion_list = o.expansion_list;
  setup.seats = static_cast<int>(players);

  rng chooser = rng::from_string(seed + "/moves");
  std::vector<move> moves;
  long long total_moves = 0, total_turns = 0;
  std::uint64_t checksum = 0xcbf29ce484222325ULL;  // FNV-1a over every final score
  std::size_t bytes_sum = 0, bytes_max = 0;
  const auto start = std::chrono::steady_clock::now();
  for (long long g = 0; g < games; ++g) {
    setup.seed = seed + "/" + std::to_string(g);
    auto game = new_game(setup);
    if (!game) {
      err << "carcassonne selfplay: " << game.err().message << '\n';
      return 2;
    }
    game_state& s = game.value();
    while (!s.finished) {
      // The same draw as moves[chooser.below(moves.size())] over legal_actions(s, moves).
      const move m = random_legal_action(s, chooser, moves);
      if (auto st = apply_legal_in_place(s, m); !st) {
        err << "carcassonne selfplay: a generated move was refused: " << st.err().message << '\n';
        return 3;
      }
      ++total_moves;
    }
    total_turns += s.turn;
    for (int seat = 0; seat < s.seats; ++seat) {
      checksum ^= static_cast<std::uint32_t>(s.players[seat].score);
      checksum *= 0x100000001b3ULL;
    }
    const auto bytes = state_bytes(s);
    bytes_sum += bytes;
    bytes_max = std::max(bytes_max, bytes);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  json result{{"games", games},
              {"moves", total_moves},
              {"turns", total_turns},
              {"players", players},
              {"expansions", expansion_list},
              {"seed", seed},
              {"seconds", seconds},
              {"games_per_second", seconds > 0 ? games / seconds : 0.0},
              {"moves_per_second", seconds > 0 ? total_moves / seconds : 0.0},
              {"state_bytes_mean", games > 0 ? bytes_sum / games : 0},
              {"state_bytes_max", bytes_max},
              {"checksum", checksum}};
  out << result.dump() << '\n';
  return 0;
}

}  // namespace carcassonne::app
