#include "fairness.hpp"

#include "carcassonne/protocol/messages.hpp"
#include "carcassonne/protocol/record.hpp"
#include "crypto.hpp"

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
  json out = json::array();
  if (setup && !after.ext.peasant_revolts.set_aside.empty()) {
    json tiles_aside = json::array();
    for (const auto t : after.ext.peasant_revolts.set_aside) tiles_aside.push_back(tiles()[t].id);
    out.push_back({{"set_aside", tiles_aside}});
  }
  // Tiles under hills and cards dealt are appended to their lists by the apply: the last ones of
  // each list are this apply's, in order.
  std::size_t hidden = 0;
  std::array<std::size_t, max_seats> dealt{};
  for (const auto& e : events) {
    if (e.type == hills_and_sheep::event_tile_hidden) ++hidden;
    if (e.type == gifts::event_gift_received && e.seat < max_seats) ++dealt[e.seat];
  }
  std::size_t hidden_at = after.out_of_play.size() - std::min(hidden, after.out_of_play.size());
  std::array<std::size_t, max_seats> dealt_at{};
  for (int s = 0; s < max_seats; ++s) {
    const auto& hand = after.ext.gifts.hands[s];
    dealt_at[s] = hand.size() - std::min(dealt[s], hand.size());
  }
  for (const auto& e : events) {
    switch (e.type) {
      case event_type::tile_drawn:
        out.push_back({{"tile", tiles()[e.tile].id}});
        break;
      case hills_and_sheep::event_tile_hidden:
        if (hidden_at < after.out_of_play.size())
          out.push_back({{"hill", tiles()[after.out_of_play[hidden_at++]].id}});
        break;
      case hills_and_sheep::event_token_drawn:
        if (e.value < hills_and_sheep::token_kinds)
          out.push_back({{"sheep", hills_and_sheep::token_names[e.value]}});
        break;
      case gifts::event_gift_received: {
        const auto& hand = after.ext.gifts.hands[e.seat];
        if (dealt_at[e.seat] < hand.size())
          out.push_back({{"gift", gifts::card_names[hand[dealt_at[e.seat]++]]}, {"seat", e.seat}});
        break;
      }
      case easter::event_die_rolled:
        out.push_back({{"die", e.value}});
        break;
      default:
        break;
    }
  }
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
