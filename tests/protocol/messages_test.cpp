// Client messages: every type parses with its fields, and every malformed form gives its code
// without throwing; answers echo the request id.
#include <doctest/doctest.h>

#include "carcassonne/protocol/messages.hpp"

using namespace carcassonne::protocol;
using nlohmann::json;

namespace {

template <class T>
T parse_as(const std::string& text) {
  auto p = parse_request(text);
  REQUIRE_MESSAGE(p.value.has_value(), text << " -> " << p.error.code << ": " << p.error.message);
  REQUIRE(std::holds_alternative<T>(p.value->message));
  return std::get<T>(p.value->message);
}

std::string code_of(const std::string& text) {
  auto p = parse_request(text);
  return p.value ? std::string("ok") : p.error.code;
}

}  // namespace

TEST_CASE("every client message type parses with its fields") {
  auto h = parse_as<hello_msg>(R"({"type":"hello","protocol":1,"client":"x/1"})");
  CHECK(h.protocol == 1);
  CHECK(h.client == "x/1");

  auto c = parse_as<create_room_msg>(
      R"({"type":"create_room","seats":3,"public":false,"name":"t","spectator_delay":2,"setup":{"expansions":[]}})");
  CHECK(c.seats == 3);
  CHECK_FALSE(c.is_public);
  CHECK(c.name == "t");
  CHECK(c.spectator_delay == 2);
  CHECK(c.setup == json{{"expansions", json::array()}});
  auto top =
      parse_as<create_room_msg>(R"({"type":"create_room","expansions":["gifts"],"options":{}})");
  CHECK(top.setup["expansions"] == json::array({"gifts"}));
  CHECK(top.seats == 4);

  parse_as<list_rooms_msg>(R"({"type":"list_rooms"})");
  auto j = parse_as<join_msg>(R"({"type":"join","room":"r","name":"Ann","seat":2})");
  CHECK(j.room == "r");
  CHECK(j.name == "Ann");
  CHECK(j.seat == 2);
  CHECK_FALSE(parse_as<join_msg>(R"({"type":"join","room":"r","name":"Ann"})").seat.has_value());
  CHECK(parse_as<spectate_msg>(R"({"type":"spectate","room":"r"})").room == "r");
  parse_as<leave_msg>(R"({"type":"leave"})");
  parse_as<start_msg>(R"({"type":"start"})");
  auto m = parse_as<move_msg>(R"({"type":"move","seq":7,"move":{"type":"pass"}})");
  CHECK(m.seq == 7u);
  REQUIRE(m.move.members().size() == 1);
  CHECK(m.move.text(*m.move.find("type")) == "pass");
  auto r = parse_as<resume_msg>(R"({"type":"resume","room":"r","token":"abc","last_seq":3})");
  CHECK(r.token == "abc");
  CHECK(r.last_seq == 3u);
  CHECK(parse_as<resume_msg>(R"({"type":"resume","room":"r"})").token.empty());
  // Quick play and tournaments: the fields go to the server's competition part as they are.
  auto seek = parse_as<competition_msg>(R"({"type":"seek","id":4,"seats":3,"best_of":3})");
  CHECK(seek.type == "seek");
  CHECK(seek.body == json{{"seats", 3}, {"best_of", 3}});
  for (const char* t :
       {"cancel_seek", "create_tournament", "tournament", "get_tournament", "get_series"})
    CHECK(parse_as<competition_msg>(json{{"type", t}}.dump()).type == t);
  CHECK(parse_as<chat_msg>(R"({"type":"chat","text":"hi"})").text == "hi");
  parse_as<ping_msg>(R"({"type":"ping"})");
  parse_as<snapshot_msg>(R"({"type":"snapshot"})");
  auto rp = parse_as<replay_msg>(R"({"type":"replay","room":"r","move":12})");
  CHECK(rp.room == "r");
  CHECK(rp.move == 12);
  CHECK(parse_as<replay_msg>(R"({"type":"replay","room":"r"})").move == 0);
  CHECK(parse_as<history_msg>(R"({"type":"history"})").from == 0);
  CHECK(parse_as<history_msg>(R"({"type":"history","from":40})").from == 40);
  CHECK(parse_request(R"({"type":"history","from":-1})").error.code == "bad_message");
}

TEST_CASE("ids are kept, also on errors") {
  auto p = parse_request(R"({"type":"ping","id":"p1"})");
  REQUIRE(p.value);
  CHECK(p.value->id == "p1");
  CHECK(parse_request(R"({"type":"ping","id":7})").value->id == 7);
  auto bad = parse_request(R"({"type":"join","id":5,"name":"Ann"})");  // no room
  CHECK(bad.error.code == "bad_message");
  CHECK(bad.id == 5);
  CHECK(error_message(bad.error, bad.id)["id"] == 5);
  CHECK_FALSE(error_message(bad.error, nullptr).contains("id"));
  CHECK(reply("pong", "x")["id"] == "x");
  CHECK(reply("pong", "x")["type"] == "pong");
}

TEST_CASE("malformed messages give stable codes and never throw") {
  CHECK(code_of("{") == "bad_json");
  CHECK(code_of("") == "bad_json");
  CHECK(code_of("[1,2]") == "bad_message");
  CHECK(code_of(R"({"id":1})") == "bad_message");
  CHECK(code_of(R"({"type":7})") == "bad_message");
  CHECK(code_of(R"({"type":"fly"})") == "unknown_type");
  CHECK(code_of(R"({"type":"ping","id":{"a":1}})") == "bad_message");
  CHECK(code_of(R"({"type":"ping","id":")" + std::string(65, 'x') + R"("})") == "bad_message");
  CHECK(code_of(R"({"type":"hello"})") == "bad_message");
  CHECK(code_of(R"({"type":"hello","protocol":"1"})") == "bad_message");
  CHECK(code_of(R"({"type":"create_room","seats":7})") == "bad_message");
  CHECK(code_of(R"({"type":"create_room","seats":1})") == "bad_message");
  CHECK(code_of(R"({"type":"create_room","public":"yes"})") == "bad_message");
  CHECK(code_of(R"({"type":"create_room","spectator_delay":21})") == "bad_message");
  CHECK(code_of(R"({"type":"create_room","setup":[]})") == "bad_message");
  CHECK(code_of(R"({"type":"create_room","name":")" + std::string(41, 'n') + R"("})") ==
        "bad_message");
  // Without a name a join parses: a signed-in player sits under their own (docs/protocol.md
  // §23); the connection refuses it when it has no player.
  CHECK(code_of(R"({"type":"join","room":"r"})") == "ok");
  CHECK(code_of(R"({"type":"create_room","rated":"yes"})") == "bad_message");
  CHECK(code_of(R"({"type":"authenticate","session":7})") == "bad_message");
  CHECK(code_of(R"({"type":"authenticate","session":")" + std::string(129, 's') + R"("})") ==
        "bad_message");
  CHECK(code_of(R"({"type":"authenticate"})") == "ok");
  CHECK(code_of(R"({"type":"join","room":"r","name":""})") == "bad_message");
  CHECK(code_of(R"({"type":"join","room":"r","name":"a","seat":6})") == "bad_message");
  CHECK(code_of(R"({"type":"join","room":1,"name":"a"})") == "bad_message");
  CHECK(code_of(R"({"type":"spectate"})") == "bad_message");
  CHECK(code_of(R"({"type":"move"})") == "bad_message");
  CHECK(code_of(R"({"type":"move","move":[]})") == "bad_message");
  CHECK(code_of(R"({"type":"move","move":{},"seq":-1})") == "bad_message");
  // Without a token: a signed-in player's own seat (the room decides, protocol.md §24).
  CHECK(code_of(R"({"type":"resume","room":"r"})") == "ok");
  CHECK(code_of(R"({"type":"resume","room":"r","token":7})") == "bad_message");
  CHECK(code_of(R"({"type":"resume","room":"r","token":"t","last_seq":"3"})") == "bad_message");
  CHECK(code_of(R"({"type":"chat"})") == "bad_message");
  CHECK(code_of(R"({"type":"chat","text":")" + std::string(501, 'c') + R"("})") == "bad_message");
  CHECK(code_of(R"({"type":"replay"})") == "bad_message");
  CHECK(code_of(R"({"type":"replay","room":"r","move":-1})") == "bad_message");
  CHECK(code_of(R"({"type":"replay","room":"r","move":"3"})") == "bad_message");
  CHECK(code_of("\xff\xfe") == "bad_json");
}

TEST_CASE("list_rooms: a page (offset, limit up to 100) and filters; bad fields are bad_message") {
  auto plain = parse_as<list_rooms_msg>(R"({"type":"list_rooms"})");
  CHECK(plain.filter.offset == 0);
  CHECK(plain.filter.limit == max_room_page);
  CHECK(plain.filter.state.empty());
  CHECK(plain.filter.expansions.empty());
  auto f = parse_as<list_rooms_msg>(
      R"({"type":"list_rooms","offset":200,"limit":7,"state":"playing","expansions":["gifts","festival"]})");
  CHECK(f.filter.offset == 200);
  CHECK(f.filter.limit == 7);
  CHECK(f.filter.state == "playing");
  CHECK(f.filter.expansions == std::vector<std::string>{"gifts", "festival"});
  for (const char* bad :
       {R"({"type":"list_rooms","limit":101})", R"({"type":"list_rooms","limit":0})",
        R"({"type":"list_rooms","offset":-1})", R"({"type":"list_rooms","offset":"1"})",
        R"({"type":"list_rooms","state":"over"})", R"({"type":"list_rooms","state":1})",
        R"({"type":"list_rooms","expansions":"gifts"})",
        R"({"type":"list_rooms","expansions":[1]})"})
    CHECK_MESSAGE(code_of(bad) == "bad_message", bad);
  std::string many = R"({"type":"list_rooms","expansions":[)";
  for (int i = 0; i < 17; ++i) many += std::string(i ? "," : "") + "\"x\"";
  CHECK(code_of(many + "]}") == "bad_message");
}

TEST_CASE("messages: \"moved\": true marks a request repeated after a cluster's moved answer") {
  auto plain = parse_request(R"({"type":"join","room":"r","name":"Ann"})");
  REQUIRE(plain.value);
  CHECK_FALSE(plain.value->moved);
  auto moved = parse_request(R"({"type":"join","room":"r","name":"Ann","moved":true,"id":3})");
  REQUIRE(moved.value);
  CHECK(moved.value->moved);
  auto bad = parse_request(R"({"type":"create_room","moved":"yes","id":4})");
  REQUIRE_FALSE(bad.value);
  CHECK(bad.error.code == "bad_message");
  CHECK(bad.id == 4);
}
