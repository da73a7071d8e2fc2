// The room part of the views and its fairness part without a room (room/room_info.hpp,
// room/room_fairness.hpp): written as text in nlohmann's key order, what each seat shows, the
// undo request and the rematch, the secret only once the game is over.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "room/room_fairness.hpp"
#include "room/room_info.hpp"

namespace {

using namespace carcassonne::server;
using nlohmann::json;

struct info_parts {
  room_settings settings;
  std::vector<seat_slot> seats{3};
  carcassonne::protocol::room_bot_settings bots;
  seat_clocks clocks{match_options{}, {}};
  rematch_state rematch;
  info_parts() {
    settings.id = "r1";
    settings.name = "Evening";
    settings.seats = 3;
    settings.setup = json::object();
    seats[0].taken = true;
    seats[0].name = "Ann";
    seats[1].taken = true;
    seats[1].name = "bot";
    seats[1].bot = carcassonne::bot_level::greedy;
  }
  std::string text(std::string_view fairness, room_state state, const undo_vote* undo) {
    const room_part part(settings);
    return room_info_text(
        {settings, part, seats, bots, clocks, std::nullopt, fairness, rematch, 7, state, undo});
  }
};

}  // namespace

TEST_CASE(
    "room_info: the room part is sorted JSON text with each seat, bots and the undo request") {
  info_parts p;
  const undo_vote undo(0, 0b10);
  const auto text = p.text("", room_state::playing, &undo);
  const auto j = json::parse(text);
  CHECK(j.dump() == text);  // keys in nlohmann's order, no spaces: diffed as text
  CHECK(j["state"] == "playing");
  CHECK(j["spectators"] == 7);
  CHECK(j["seats"][0] == json{{"connected", false}, {"name", "Ann"}, {"seat", 0}});
  CHECK(j["seats"][1]["bot"] == "greedy");
  CHECK(j["seats"][1]["connected"] == true);  // a bot is always there
  CHECK(j["seats"][2]["name"].is_null());
  CHECK(j["bots"]["takeover_level"].is_string());  // shown as a bot sits
  CHECK(j["undo_request"] == json{{"seat", 0}, {"waiting", {1}}});
  CHECK_FALSE(j.contains("clock"));
  CHECK_FALSE(j.contains("fairness"));
  CHECK_FALSE(j.contains("rematch"));
}

TEST_CASE("room_info: the fairness part shows the nonces, and the secret once the game is over") {
  info_parts p;
  p.seats[0].nonce = "n0";
  const std::string secret(64, 'a');
  for (const bool over : {false, true}) {
    std::string fairness;
    append_fairness_part(fairness, "c0mm1t", p.seats, "next", secret, over);
    const auto j =
        json::parse(p.text(fairness, over ? room_state::finished : room_state::playing, nullptr));
    const auto& f = j["fairness"];
    CHECK(f["commitment"] == "c0mm1t");
    CHECK(f["nonces"] == json{"n0", nullptr, nullptr});
    CHECK(f["secret"] == (over ? json(secret) : json()));
    CHECK(f["rematch_commitment"] == (over ? json("next") : json()));
    CHECK(json::parse(fairness).dump() == fairness);
  }
  // The seed: the settings' own, or derived from the secret and every seat's nonce.
  p.settings.seed = "s";
  CHECK(game_seed(p.settings, p.seats) == "s");
  p.settings.secret = secret;
  const auto derived = game_seed(p.settings, p.seats);
  CHECK(derived != "s");
  p.seats[2].nonce = "n2";
  CHECK(game_seed(p.settings, p.seats) != derived);
}
