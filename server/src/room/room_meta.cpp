#include "room/room_meta.hpp"

#include "carcassonne/protocol/json_text.hpp"

namespace carcassonne::server {

using protocol::append_number;
using protocol::append_quoted;

namespace {

void append_seats(std::string& text, const std::vector<seat_slot>& seats) {
  text += '[';
  for (std::size_t i = 0; i < seats.size(); ++i) {
    const auto& s = seats[i];
    if (i) text += ',';
    if (!s.taken) {
      text += "null";
      continue;
    }
    text += R"({"name":)";
    append_quoted(text, s.name);
    text += R"(,"token_sha256":)";
    append_quoted(text, s.token_hash);
    text += R"(,"nonce":)";
    append_quoted(text, s.nonce);
    if (!s.player.empty()) {
      text += R"(,"player":)";
      append_quoted(text, s.player);
    }
    text += '}';
  }
  text += ']';
}

void append_bots(std::string& out, const std::vector<seat_slot>& seats,
                 const protocol::room_bot_settings& b) {
  out += R"({"seats":[)";
  for (std::size_t i = 0; i < seats.size(); ++i) {
    if (i) out += ',';
    if (seats[i].bot)
      append_quoted(out, name_of(*seats[i].bot));
    else
      out += "null";
  }
  out += R"(],"pause_ms":)";
  append_number(out, b.pause_ms);
  out += R"(,"takeover_after":)";
  append_number(out, b.takeover_after);
  out += R"(,"takeover_level":)";
  append_quoted(out, name_of(b.takeover_level));
  out += '}';
}

}  // namespace

std::string meta_rest_text(const meta_source& m) {
  const auto& s = m.settings;
  std::string text;
  text.reserve(1024);
  text += R"("id":)";
  append_quoted(text, s.id);
  text += R"(,"name":)";
  append_quoted(text, s.name);
  text += s.is_public ? R"(,"public":true)" : R"(,"public":false)";
  if (!s.rated) text += R"(,"rated":false)";
  if (s.arranged) text += R"(,"arranged":true)";
  text += R"(,"seats":)";
  append_number(text, s.seats);
  text += R"(,"spectator_delay":)";
  append_number(text, s.spectator_delay);
  text += R"(,"max_spectators":)";
  append_number(text, static_cast<long long>(s.max_spectators));
  text += R"(,"seed":)";
  append_quoted(text, s.seed);
  text += R"(,"secret":)";
  append_quoted(text, s.secret);
  text += R"(,"rematch_secret":)";
  append_quoted(text, s.rematch_secret);
  text += R"(,"rematch":)";
  m.rematch.append_stored(text);
  text += R"(,"seat_list":)";
  append_seats(text, m.seats);
  text += R"(,"creator_seat":)";
  append_number(text, m.creator_seat);
  text += R"(,"bots":)";
  append_bots(text, m.seats, m.bots);
  text += R"(,"match":)";
  text += s.match.to_json().dump();
  text += R"(,"record_setup":)";
  text += m.record_setup.empty() ? std::string_view("null") : m.record_setup;
  text += R"(,"setup":)";
  text += s.setup.dump();
  return text;
}

std::string meta_text(std::string_view clock, std::uint64_t seq_claimed, std::string_view rest) {
  std::string text = R"({"clock":)";
  text += clock;
  text += R"(,"seq":)";
  text += std::to_string(seq_claimed);
  text += ',';
  text += rest;
  text += '}';
  return text;
}

std::optional<meta_read> read_meta(const nlohmann::json& meta, const std::string& id,
                                   std::string& error) {
  meta_read r;
  auto& s = r.settings;
  s.id = meta.at("id").get<std::string>();
  s.name = meta.at("name").get<std::string>();
  s.is_public = meta.at("public").get<bool>();
  s.rated = meta.value("rated", true);
  s.arranged = meta.value("arranged", false);
  s.seats = meta.at("seats").get<int>();
  s.spectator_delay = meta.at("spectator_delay").get<int>();
  s.max_spectators = meta.at("max_spectators").get<std::size_t>();
  s.setup = meta.at("setup");
  s.seed = meta.at("seed").get<std::string>();
  s.secret = meta.value("secret", std::string());  // rooms stored before docs/fairness.md
  s.rematch_secret = meta.value("rematch_secret", std::string());  // else drawn anew
  if (auto match = match_options_from_json(meta.value("match", nlohmann::json())); match.ok()) {
    s.match = *match.value;
  } else {
    error = "stored match options: " + match.error.message;
    return std::nullopt;
  }
  const auto& list = meta.at("seat_list");
  if (s.id != id || !list.is_array() || static_cast<int>(list.size()) != s.seats) {
    error = "the stored seats do not match the room";
    return std::nullopt;
  }
  r.seats.resize(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i].is_null()) continue;
    auto& seat = r.seats[i];
    seat.taken = true;
    seat.name = list[i].at("name").get<std::string>();
    seat.token_hash = list[i].at("token_sha256").get<std::string>();
    seat.nonce = list[i].value("nonce", std::string());
    seat.player = list[i].value("player", std::string());
  }
  r.creator_seat = meta.at("creator_seat").get<int>();
  if (const auto b = meta.find("bots"); b != meta.end()) {  // else stored before bots existed
    r.has_bots = true;
    r.bots.pause_ms = b->at("pause_ms").get<int>();
    r.bots.takeover_after = b->at("takeover_after").get<int>();
    r.bots.takeover_level =
        bot_level_from_name(b->at("takeover_level").get<std::string>()).value_or(bot_level::greedy);
    const auto& seats = b->at("seats");
    for (std::size_t i = 0; i < seats.size() && i < r.seats.size(); ++i)
      if (seats[i].is_string()) r.seats[i].bot = bot_level_from_name(seats[i].get<std::string>());
  }
  r.seq = meta.at("seq").get<std::uint64_t>();
  return r;
}

}  // namespace carcassonne::server
