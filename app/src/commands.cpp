#include "carcassonne/app/commands.hpp"

#include <ostream>

#include "transport/server.hpp"

namespace carcassonne::app {

namespace {
constexpr const char* usage =
    "usage: carcassonne COMMAND [ARGS]\n"
    "\n"
    "commands:\n"
    "  replay FILE [--as N|spectator] [--events]\n"
    "      Replays a game record (FILE, or - for standard input) and prints the state after the\n"
    "      last move as JSON. --as prints seat N's or a spectator's view; --events adds the\n"
    "      events of every move. Exit 2: malformed record; exit 3: illegal or malformed move.\n"
    "  verify [--partial] RECORD\n"
    "      Checks a finished game's fairness (docs/fairness.md): commitment, seed, every random\n"
    "      outcome against a replay from the seed, and that the moves play the game to its end;\n"
    "      one JSON verdict. Exit 4: a mismatch, or a record that stops before the end (code\n"
    "      incomplete, naming the first missing move); exit 2: the record cannot be checked.\n"
    "      --partial checks the draws of a record cut short (\"complete\": false).\n"
    "  selfplay [--games N] [--seed S] [--expansions LIST] [--players P]\n"
    "      Plays N games of uniformly random legal moves and prints one JSON line of figures.\n"
    "  arena --bots LIST [--games N] [--expansions LIST] [--players P] [--playouts K] [--seed S]\n"
    "        [--simulations K] [--determinizations D] [--think-ms T] [--benchmark base|all]\n"
    "      Plays bots (random, greedy, strong, ismcts or a ladder level: beginner, casual,\n"
    "      intermediate, advanced, expert) against each other, seats rotated; prints one JSON\n"
    "      line: wins, mean scores, win rates with Wilson 95% intervals, moves and playouts\n"
    "      per second. --benchmark: the published seeds, each played twice, seats\n"
    "      swapped (docs/bots.md). A candidate ladder step is an algorithm with /rN (N of a\n"
    "      thousand moves random) and/or /pN (strong's playouts): greedy/r60, strong/p150.\n"
    "  serve [OPTIONS]\n"
    "      Runs the server: WebSocket at /ws, HTTP /healthz /metrics /api/rooms. See serve "
    "--help.\n"
    "  loadtest [--host H] [--port P] --rooms R --clients-per-room C --duration S [--threads T]\n"
    "           [--expansions a,b|every] [--options JSON]\n"
    "      Plays random games against a running server (serve --allow-scripted true); prints\n"
    "      moves per second, latency and its own CPU per move.\n"
    "  ladder --games N [--host H] [--port P] [--rooms R] [--levels a,b,...] [--expansions a,b]\n"
    "      Plays rated games between the ladder's bot levels on a running server (with its\n"
    "      database) and prints each level's rating on the server's scale (docs/bots.md).\n"
    "  backup DEST [--data-dir DIR]\n"
    "      Copies the server's database (DIR/carcassonne.db; CARCASSONNE_DATA_DIR, default data)\n"
    "      to the new file DEST, consistently, also while the server runs.\n"
    "  admin ACTION PLAYER [ARG] [--data-dir DIR | --store URL]\n"
    "      Moderation: show, ban, unban, rename, reset-password, sign-out (`admin` lists them).\n"
    "  help\n"
    "      This text.\n";
}  // namespace

int run_command(std::span<const std::string> args, std::istream& in, std::ostream& out,
                std::ostream& err) {
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    (args.empty() ? err : out) << usage;
    return args.empty() ? 1 : 0;
  }
  const auto rest = args.subspan(1);
  if (args[0] == "replay") return run_replay(rest, in, out, err);
  if (args[0] == "verify") return run_verify(rest, in, out, err);
  if (args[0] == "selfplay") return run_selfplay(rest, out, err);
  if (args[0] == "arena") return run_arena(rest, out, err);
  if (args[0] == "serve") return server::run_serve(rest, out, err);
  if (args[0] == "loadtest") return run_loadtest(rest, out, err);
  if (args[0] == "ladder") return run_ladder(rest, out, err);
  if (args[0] == "backup") return run_backup(rest, out, err);
  if (args[0] == "admin") return run_admin(rest, out, err);
  // Hidden: scripts/bench-players.sh, scripts/bench-matchmaker.sh.
  if (args[0] == "bench-players") return run_bench_players(rest, out, err);
  if (args[0] == "bench-matchmaker") return run_bench_matchmaker(rest, out, err);
  err << "carcassonne: unknown command '" << args[0] << "'\n\n" << usage;
  return 1;
}

}  // namespace carcassonne::app
