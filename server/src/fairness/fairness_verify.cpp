// The verifier of docs/fairness.md: commitment, seed, then every outcome of a replay from the
// derived seed against the record's, in order; the first difference is the verdict.
#include "carcassonne/protocol/messages.hpp"
#include "carcassonne/protocol/record.hpp"
#include "fairness/fairness.hpp"

namespace carcassonne::server::fairness {

namespace {

json malformed_verdict(bool& malformed, std::string code, std::string message) {
  malformed = true;
  return {{"verified", false}, {"error", {{"code", std::move(code)}, {"message", message}}}};
}

json mismatch(json what) {
  return {{"verified", false}, {"mismatch", std::move(what)}};
}

std::string where(const std::optional<std::size_t>& move) {
  return move ? "move " + std::to_string(*move) : std::string("the setup");
}

// A sheep draw of a record written before draws carried the bag's counts is its token alone: the
// replay's entry is compared without them (docs/fairness.md, "The record").
json as_recorded(const json& recorded, json replayed) {
  if (recorded.is_object() && recorded.contains("sheep") && !recorded.contains("bag") &&
      replayed.is_object())
    replayed.erase("bag");
  return replayed;
}

// The first difference between two outcome lists, as a mismatch; nothing when equal.
std::optional<json> compare(const json& recorded, const json& replayed,
                            std::optional<std::size_t> move) {
  const std::size_t n = std::max(recorded.size(), replayed.size());
  for (std::size_t k = 0; k < n; ++k) {
    const json r = k < recorded.size() ? recorded[k] : json(nullptr);
    const json p = k < replayed.size() ? as_recorded(r, replayed[k]) : json(nullptr);
    if (r == p) continue;
    json m{{"at", move ? "move" : "setup"}, {"index", k}, {"record", r}, {"replay", p}};
    if (move) m["move"] = *move;
    m["message"] = where(move) + ", outcome " + std::to_string(k) + ": the record says " +
                   (r.is_null() ? std::string("nothing") : r.dump()) + ", the seed gives " +
                   (p.is_null() ? std::string("nothing") : p.dump());
    return mismatch(std::move(m));
  }
  return std::nullopt;
}

// A record that stops while the game goes on: every draw in it may be right, but a finished game
// is not proven (its last moves, and their outcome lists, may have been cut away).
json incomplete(std::size_t moves, const replayed& replay) {
  const std::string seat = std::to_string(replay.to_act);
  return {{"verified", false},
          {"complete", false},
          {"mismatch",
           {{"at", "end"},
            {"code", "incomplete"},
            {"move", moves},
            {"seat", replay.to_act},
            {"awaiting", replay.awaiting},
            {"message", "the record stops after " + std::to_string(moves) +
                            " moves but the game is not over: move " + std::to_string(moves) +
                            " (seat " + seat + ", " + replay.awaiting +
                            ") and its outcome list are missing"}}}};
}

}  // namespace

json verify(const json& record, bool& malformed, bool partial) {
  malformed = false;
  auto parsed = protocol::parse_record(record.is_object() ? record.dump() : std::string("null"));
  if (!parsed.ok()) return malformed_verdict(malformed, parsed.error.code, parsed.error.message);
  const auto& r = *parsed.value;
  const auto f = record.find("fairness");
  if (f == record.end() || !f->is_object())
    return malformed_verdict(malformed, "no_fairness",
                             "the record has no 'fairness' section: its room had no commitment "
                             "(a seeded or scripted room, or an older record)");
  const auto field = [&](const char* key) { return f->value(key, json()); };
  if (field("scheme") != json(scheme))
    return malformed_verdict(malformed, "bad_fairness",
                             "unknown scheme (expected " + std::string(scheme) + ")");
  const json commitment = field("commitment"), secret = field("secret");
  const json nonces = field("nonces"), outcome_lists = field("outcomes");
  const auto hex64 = [](const json& j) {
    return j.is_string() && j.get_ref<const std::string&>().size() == 64 &&
           j.get_ref<const std::string&>().find_first_not_of("0123456789abcdef") ==
               std::string::npos;
  };
  if (!hex64(commitment) || !hex64(secret))
    return malformed_verdict(malformed, "bad_fairness",
                             "'commitment' and 'secret' are 64 lowercase hex digits");
  if (!nonces.is_array() || nonces.size() != r.names.size())
    return malformed_verdict(malformed, "bad_fairness", "'nonces' holds one string per seat");
  std::vector<std::string> nonce_list;
  for (const auto& n : nonces) {
    if (!n.is_string() || (!n.get_ref<const std::string&>().empty() &&
                           !protocol::valid_nonce(n.get_ref<const std::string&>())))
      return malformed_verdict(malformed, "bad_fairness",
                               "each nonce is \"\" or 1 to 64 hex or base64 characters");
    nonce_list.push_back(n.get<std::string>());
  }
  if (!outcome_lists.is_array())
    return malformed_verdict(malformed, "bad_fairness",
                             "'outcomes' holds one list for the setup and one per move");
  if (const auto n = outcome_lists.size(); n != r.moves.size() + 1) {
    // List 0 is the start's, list i + 1 move i's.
    const std::string missing = n == 0 ? std::string(" (the first missing is the start's)")
                                : n <= r.moves.size()
                                    ? " (the first missing is move " + std::to_string(n - 1) + "'s)"
                                    : std::string();
    return malformed_verdict(
        malformed, "bad_fairness",
        "'outcomes' holds one list for the setup and one per move: " + std::to_string(n) +
            " lists for " + std::to_string(r.moves.size()) + " moves" + missing);
  }
  for (const auto& list : outcome_lists)
    if (!list.is_array())
      return malformed_verdict(malformed, "bad_fairness", "each outcome list is a list");
  if (r.setup_json.contains("script"))
    return malformed_verdict(malformed, "bad_fairness",
                             "a setup with a script does not draw from its seed");

  const std::string committed = commitment_of(secret.get<std::string>());
  if (committed != commitment.get<std::string>())
    return mismatch({{"at", "commitment"},
                     {"record", commitment},
                     {"replay", committed},
                     {"message",
                      "the revealed secret does not hash to the commitment shown "
                      "when the room was created"}});
  const std::string seed = derive_seed(secret.get<std::string>(), nonce_list);
  if (r.setup.seed != seed)
    return mismatch({{"at", "seed"},
                     {"record", r.setup.seed},
                     {"replay", seed},
                     {"message",
                      "setup.seed is not the seed derived from the secret and the "
                      "seats' nonces"}});

  const auto replay = replay_outcomes(r.setup, r.moves);
  if (replay.error && !replay.failed_move)
    return malformed_verdict(malformed, replay.error->code, replay.error->message);
  std::size_t checked = 0;
  for (std::size_t i = 0; i < replay.outcomes.size(); ++i) {
    const auto move = i == 0 ? std::optional<std::size_t>() : std::optional<std::size_t>(i - 1);
    if (auto m = compare(outcome_lists[i], replay.outcomes[i], move)) return *m;
    checked += replay.outcomes[i].size();
  }
  if (replay.failed_move)
    return mismatch(
        {{"at", "move"},
         {"move", *replay.failed_move},
         {"code", replay.error->code},
         {"message", "move " + std::to_string(*replay.failed_move) +
                         " is not legal in a game drawn from the seed: " + replay.error->message}});
  if (!replay.finished && !partial) return incomplete(r.moves.size(), replay);
  return {{"verified", true},    {"complete", replay.finished},
          {"scheme", scheme},    {"commitment", commitment},
          {"seed", seed},        {"moves", r.moves.size()},
          {"outcomes", checked}, {"nonces", nonces}};
}

}  // namespace carcassonne::server::fairness
