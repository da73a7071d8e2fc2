// The commands of build/carcassonne. Each takes its arguments (without the command name) and
// streams, and returns the process exit code, so tests can run them in-process.
#pragma once
#include <iosfwd>
#include <span>
#include <string>

namespace carcassonne::app {

// Dispatches on args[0]: replay, selfplay, help.
int run_command(std::span<const std::string> args, std::istream& in, std::ostream& out,
                std::ostream& err);

// replay FILE [--as N|spectator] [--events]: exit 0 with the state, 2 on a malformed record,
// 3 on an illegal or malformed move (game-record.md, "The replay command").
int run_replay(std::span<const std::string> args, std::istream& in, std::ostream& out,
               std::ostream& err);

// verify RECORD: exit 0 when the record's randomness is what its commitment and nonces fix, 4 on
// the first mismatch (named in the JSON verdict), 2 when it cannot be checked (docs/fairness.md).
int run_verify(std::span<const std::string> args, std::istream& in, std::ostream& out,
               std::ostream& err);

// selfplay --games N --seed S [--expansions LIST] [--players P]: random legal games, one JSON line.
int run_selfplay(std::span<const std::string> args, std::ostream& out, std::ostream& err);

// arena --bots LIST [--games N] [--expansions LIST] [--players P] [--playouts K] [--seed S]: bots
// against bots with seats rotated, one JSON line (docs/bots.md).
int run_arena(std::span<const std::string> args, std::ostream& out, std::ostream& err);

// ladder --games N [--host H] [--port P] [--rooms R] [--levels LIST] [--expansions LIST]: rated
// games between bot levels on a running server, then each level's rating there; one JSON line.
int run_ladder(std::span<const std::string> args, std::ostream& out, std::ostream& err);

// backup DEST [--data-dir DIR]: the database copied while the server may run; one JSON line.
int run_backup(std::span<const std::string> args, std::ostream& out, std::ostream& err);
// admin ACTION PLAYER [ARG]: moderation (ban, unban, rename, reset-password, sign-out, show)
// against the server's database; one JSON line.
int run_admin(std::span<const std::string> args, std::ostream& out, std::ostream& err);
// bench-players --store FILE|URL [--players N] [--games N] [--rounds K]: fills an empty database
// and times the players' pages and a game's end (scripts/bench-players.sh); one JSON line.
int run_bench_players(std::span<const std::string> args, std::ostream& out, std::ostream& err);
// bench-matchmaker [--seekers N] [--seed S] [--end SECONDS]: the matchmaker on a simulated crowd
// (scripts/bench-matchmaker.sh); one JSON line.
int run_bench_matchmaker(std::span<const std::string> args, std::ostream& out, std::ostream& err);

// loadtest [--host H] [--port P] --rooms R --clients-per-room C --duration S [--threads T]
// [--expansions a,b|every] [--options JSON]: against a server started with --allow-scripted true.
int run_loadtest(std::span<const std::string> args, std::ostream& out, std::ostream& err);

}  // namespace carcassonne::app
