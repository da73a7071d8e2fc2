#include "fairness/fairness.hpp"

#include "base/crypto.hpp"
#include "carcassonne/protocol/messages.hpp"
#include "carcassonne/protocol/random_outcomes.hpp"
#include "carcassonne/protocol/record.hpp"

namespace carcassonne::server::fairness {

namespace {

std::string secret_bytes(std::string_view secret) {
  const auto raw = from_hex(secret).value_or(bytes{});
  return {raw.begin(), raw.end()};
}

}  // namespace

std::string new_secret() {
  return random_hex(secret_hex_digits);
}

std::string commitment_of(std::string_view secret) {
  return sha256_hex(secret_bytes(secret));
}

std::string derive_seed(std::string_view secret, const std::vector<std::string>& nonces) {
  std::string input(scheme);
  input.push_back('\0');
  input += secret_bytes(secret);
  input.push_back(static_cast<char>(nonces.size()));
  for (const auto& n : nonces) {
    input.push_back(static_cast<char>(n.size()));  // nonces are at most 64 characters
    input += n;
  }
  return sha256_hex(input);
}

json outcomes(const game_state& after, const event_log& events, bool setup) {
  return protocol::random_outcomes(after, events, setup);
}

std::string outcomes_text(const game_state& after, const event_log& events, bool setup) {
  std::string out;
  protocol::append_random_outcomes(out, after, events, setup);
  return out;
}

replayed replay_outcomes(const game_setup& setup, const std::vector<json>& moves) {
  replayed r;
  event_log events;
  auto g = new_game(setup, &events);
  if (!g.ok()) {
    r.error = protocol::from_engine(g.err());
    return r;
  }
  game_state& s = g.value();
  r.outcomes.push_back(outcomes(s, events, true));
  for (std::size_t i = 0; i < moves.size(); ++i) {
    events.clear();
    if (auto e = protocol::apply_json_move(s, moves[i], &events); !e.code.empty()) {
      r.failed_move = i;
      r.error = e;
      return r;
    }
    r.outcomes.push_back(outcomes(s, events));
  }
  r.finished = s.finished;
  r.to_act = to_act(s);
  if (!s.finished) r.awaiting = std::string(decision_name(s.awaiting));
  return r;
}

json record_section(std::string_view secret, const std::vector<std::string>& nonces,
                    std::vector<json> outcome_lists) {
  return {{"scheme", scheme},
          {"commitment", commitment_of(secret)},
          {"secret", secret},
          {"nonces", nonces},
          {"outcomes", std::move(outcome_lists)}};
}

json reveal_of(const json& section) {
  if (!section.is_object()) return nullptr;
  json out = section;
  out.erase("outcomes");
  return out;
}

}  // namespace carcassonne::server::fairness
