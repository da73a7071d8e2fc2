#include "room/room_fairness.hpp"

#include <spdlog/spdlog.h>

#include "carcassonne/protocol/json_text.hpp"
#include "carcassonne/protocol/record.hpp"
#include "fairness/fairness.hpp"
#include "room/room.hpp"

namespace carcassonne::server {

// Written as text: it is part of the room part written at every change, and a tree of it cost
// about a sixth of a fair room's instructions per move. Keys in nlohmann's order, as before.
void append_fairness_part(std::string& out, const std::string& commitment,
                          const std::vector<seat_slot>& seats, std::string_view rematch_commitment,
                          const std::string& secret, bool over) {
  using protocol::append_quoted;
  // The rematch's commitment shows once the game is over: before any rematch is offered.
  const bool next = over && !rematch_commitment.empty();
  out += R"({"commitment":)";
  append_quoted(out, commitment);
  out += R"(,"nonces":[)";
  for (std::size_t i = 0; i < seats.size(); ++i) {
    if (i) out.push_back(',');
    if (seats[i].nonce.empty())
      out += "null";
    else
      append_quoted(out, seats[i].nonce);
  }
  out += R"(],"rematch_commitment":)";
  if (next)
    append_quoted(out, rematch_commitment);
  else
    out += "null";
  out += R"(,"scheme":)";
  append_quoted(out, fairness::scheme);
  out += R"(,"secret":)";
  if (over)
    append_quoted(out, secret);
  else
    out += "null";
  out.push_back('}');
}

std::string game_seed(const room_settings& settings, const std::vector<seat_slot>& seats) {
  if (settings.secret.empty()) return settings.seed;
  std::vector<std::string> nonces;
  for (const auto& s : seats) nonces.push_back(s.nonce);
  return fairness::derive_seed(settings.secret, nonces);
}

record_parts record_parts_of(const game_table& t, const room_settings& settings,
                             const std::vector<seat_slot>& seats) {
  std::vector<std::string> nonces;
  for (const auto& s : seats) nonces.push_back(s.nonce);
  return t.record(settings.secret, std::move(nonces));
}

void room::nonce(const client_ptr& c, const protocol::nonce_msg& m, const json& id) {
  const int seat = members_.seat_of(c.get());
  if (seat < 0) return fail(c, id, "not_seated", "only a seated player sends a nonce");
  if (table_.game)
    return fail(c, id, "already_started", "the seed was fixed when the game started");
  if (!members_.seats[seat].nonce.empty())
    return fail(c, id, "nonce_already_set", "this seat's nonce is " + members_.seats[seat].nonce);
  members_.seats[seat].nonce = m.nonce;
  spdlog::info("room {} seat {}: nonce {}", settings_.id, seat, m.nonce);
  saves_.meta(saving());  // durable before anyone is told, like the seat itself
  send(c, protocol::reply("nonce_set", id,
                          {{"room", settings_.id}, {"seat", seat}, {"nonce", m.nonce}}));
  broadcast({});
}

}  // namespace carcassonne::server
