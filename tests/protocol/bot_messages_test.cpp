// The bots' client messages: create_room's bot fields, add_bot and remove_bot, and every
// malformed form refused with bad_message naming the field.
#include <doctest/doctest.h>

#include "carcassonne/protocol/messages.hpp"

using namespace carcassonne;
using namespace carcassonne::protocol;

namespace {

parsed_request request_of(const std::string& text) {
  return parse_request(text);
}

}  // namespace

TEST_CASE("create_room takes a bot level per seat, a pause and a takeover") {
  auto p = request_of(
      R"({"type":"create_room","seats":3,"bots":[null,"greedy","strong"],"bot_pause_ms":0,)"
      R"("takeover_after":60,"takeover_level":"random"})");
  REQUIRE(p.value);
  const auto& m = std::get<create_room_msg>(p.value->message);
  REQUIRE(m.bots.seats.size() == 3);
  CHECK_FALSE(m.bots.seats[0]);
  CHECK(m.bots.seats[1] == bot_level::greedy);
  CHECK(m.bots.seats[2] == bot_level::strong);
  CHECK(m.bots.pause_ms == 0);
  CHECK(m.bots.takeover_after == 60);
  CHECK(m.bots.takeover_level == bot_level::random);

  auto plain = request_of(R"({"type":"create_room"})");
  REQUIRE(plain.value);
  const auto& d = std::get<create_room_msg>(plain.value->message).bots;
  CHECK(d.seats.empty());
  CHECK(d.pause_ms == 1000);
  CHECK(d.takeover_after == 0);
  CHECK(d.takeover_level == bot_level::greedy);
}

TEST_CASE("bad bot fields are bad_message, naming the field") {
  const auto message_of = [](const std::string& text) {
    auto p = parse_request(text);
    REQUIRE_FALSE(p.value);
    CHECK(p.error.code == "bad_message");
    return p.error.message;
  };
  CHECK(message_of(R"({"type":"create_room","seats":2,"bots":["random","random","random"]})")
            .find("'bots'") != std::string::npos);
  CHECK(message_of(R"({"type":"create_room","bots":["genius"]})") ==
        "each entry of 'bots' must be one of random, greedy, strong, ismcts, beginner, casual, "
        "intermediate, advanced, expert");
  CHECK(message_of(R"({"type":"create_room","bots":"greedy"})").find("'bots'") !=
        std::string::npos);
  CHECK(message_of(R"({"type":"create_room","bot_pause_ms":20000})") ==
        "'bot_pause_ms' must be an integer from 0 to 10000");
  CHECK(message_of(R"({"type":"create_room","takeover_after":-1})") ==
        "'takeover_after' must be an integer from 0 to 3600");
  CHECK(message_of(R"({"type":"create_room","takeover_level":3})") ==
        "'takeover_level' must be one of random, greedy, strong, ismcts, beginner, casual, "
        "intermediate, advanced, expert");
  CHECK(message_of(R"({"type":"add_bot"})") == "missing 'level'");
  CHECK(message_of(R"({"type":"add_bot","level":"x"})") ==
        "'level' must be one of random, greedy, strong, ismcts, beginner, casual, intermediate, "
        "advanced, expert");
  CHECK(message_of(R"({"type":"add_bot","level":"greedy","seat":6})") ==
        "'seat' must be an integer from 0 to 5");
  CHECK(message_of(R"({"type":"remove_bot"})") == "missing 'seat'");
}

TEST_CASE("add_bot and remove_bot parse with their fields and id") {
  auto a = request_of(R"({"type":"add_bot","id":"b1","level":"strong","seat":2})");
  REQUIRE(a.value);
  CHECK(a.value->id == "b1");
  const auto& add = std::get<add_bot_msg>(a.value->message);
  CHECK(add.level == bot_level::strong);
  CHECK(add.seat == 2);
  auto any = request_of(R"({"type":"add_bot","level":"random"})");
  REQUIRE(any.value);
  CHECK_FALSE(std::get<add_bot_msg>(any.value->message).seat);
  auto r = request_of(R"({"type":"remove_bot","seat":1})");
  REQUIRE(r.value);
  CHECK(std::get<remove_bot_msg>(r.value->message).seat == 1);
}
