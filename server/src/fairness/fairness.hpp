// Provably fair randomness (docs/fairness.md): the room's secret and its commitment, the seats'
// nonces, the game seed derived from them, and the random outcomes each apply revealed, which a
// verifier compares with a replay from the derived seed. Plain functions, any thread.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "carcassonne/engine/game.hpp"
#include "carcassonne/protocol/json_codec.hpp"

namespace carcassonne::server::fairness {

using json = nlohmann::json;

inline constexpr std::string_view scheme = "carcassonne-fair/1";
inline constexpr int secret_hex_digits = 64;  // 32 bytes from the CSPRNG

// A new secret: 64 lowercase hex digits (32 bytes of RAND_bytes).
std::string new_secret();
// Precondition for both: `secret` is 64 hex digits.
// SHA-256 of the secret's 32 bytes, as 64 lowercase hex digits.
std::string commitment_of(std::string_view secret);
// The game's seed string: SHA-256 over "carcassonne-fair/1", 0x00, the secret's 32 bytes, the
// seat count (1 byte) and each seat's nonce as a length byte and its ASCII characters, in seat
// order ("" for a seat that sent none), as 64 lowercase hex digits.
std::string derive_seed(std::string_view secret, const std::vector<std::string>& nonces);

// The random outcomes that one apply revealed, in the order they happened: tiles drawn, tiles put
// under a hill, sheep tokens, gift cards dealt, dice; with `setup`, the Peasant Revolts tiles set
// aside come first. `after` is the state the apply left, `events` what it produced.
json outcomes(const game_state& after, const event_log& events, bool setup = false);
// The same as JSON text, as a room keeps them (one per journal entry): no tree a move.
std::string outcomes_text(const game_state& after, const event_log& events, bool setup = false);

// Replays a setup and its moves, collecting outcomes (one list for the setup, one per move).
// `failed_move`/`error` are set when a move does not apply; `error` alone when the setup fails.
// `finished` and `to_act`/`awaiting` say where the moves left the game (a record cut short stops
// with a seat still to act).
struct replayed {
  std::vector<json> outcomes;
  std::optional<std::size_t> failed_move;
  std::optional<protocol::proto_error> error;
  bool finished = false;
  seat_t to_act = no_seat;
  std::string awaiting;  // the decision that seat owes (decision_name)
};
replayed replay_outcomes(const game_setup& setup, const std::vector<json>& moves);

// The record's "fairness" key (docs/fairness.md, "The record").
json record_section(std::string_view secret, const std::vector<std::string>& nonces,
                    std::vector<json> outcomes);
// What the `replay` message reveals: the record section without its outcomes.
json reveal_of(const json& section);

// Verifies a record (the `verify` command): {"verified": true, "complete": true, ...} or a verdict
// naming the first mismatch; a record whose game is not over fails with code `incomplete`, naming
// the first missing move, unless `partial` (then it verifies with "complete": false). `malformed`
// is set when the record cannot be checked at all (exit 2).
json verify(const json& record, bool& malformed, bool partial = false);

}  // namespace carcassonne::server::fairness
