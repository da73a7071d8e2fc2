// A move message read without a tree (parse_flat_move_request, flat_object::parse) gives what a
// move made from nlohmann's tree (flat_object::from_json) gives: the same request, the same move
// or the same error, for every module's moves; anything it cannot read the same way it leaves to
// nlohmann.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <random>
#include <string>

#include "carcassonne/protocol/flat_object.hpp"
#include "carcassonne/protocol/json_codec.hpp"
#include "carcassonne/protocol/messages.hpp"
#include "protocol_support.hpp"

using namespace carcassonne;
using namespace carcassonne::protocol;
using carcassonne::testing::all_expansions_game;

namespace {

// The tree a flat object stands for, with nlohmann's number types (unsigned without a sign).
json tree_of_flat(const flat_object& f) {
  json out = json::object();
  for (const auto& m : f.members()) {
    auto& v = out[std::string(f.key(m))];
    switch (m.type) {
      case flat_object::kind::string:
        v = std::string(f.text(m));
        break;
      case flat_object::kind::integer:
        if (m.negative)
          v = m.number;
        else
          v = static_cast<std::uint64_t>(m.number);
        break;
      case flat_object::kind::boolean:
        v = f.text(m) == "true";
        break;
      case flat_object::kind::other:
        v = f.nested(m);
        break;
      default:
        v = nullptr;
    }
  }
  return out;
}

// Equal values and equal number types all the way down.
bool same_json(const json& a, const json& b) {
  if (a.type() != b.type() || a != b) return false;
  if (a.is_object())
    for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib)
      if (ia.key() != ib.key() || !same_json(*ia, *ib)) return false;
  return true;
}

const flat_object& flat_of(const parsed_request& r) {
  return std::get<move_msg>(r.value->message).move;
}

// The two ways to a move agree on its text: the same move, or the same error.
void check_same_reading(const std::string& move_text, const game_state& s) {
  CAPTURE(move_text);
  const auto fast = parse_flat_move_request(R"({"type":"move","move":)" + move_text + "}");
  const json tree = json::parse(move_text);
  if (!fast) {  // only a move with a list or an object inside is not flat
    CHECK(move_text.find_first_of("[{", 1) != std::string::npos);
    return;
  }
  const auto a = move_from_flat(flat_of(*fast), s);
  const auto b = move_from_json(tree, s);
  REQUIRE(a.ok() == b.ok());
  if (a.ok()) CHECK(*a.value == *b.value);
  CHECK(a.error.code == b.error.code);
  CHECK(a.error.message == b.error.message);
}

}  // namespace

TEST_CASE("flat moves: every legal move of every module, and broken ones, read as from a tree") {
  std::size_t flat = 0, broken = 0;
  for (const char* seed : {"flat-1", "flat-2", "flat-3"}) {
    game_state s = all_expansions_game(seed);
    for (int step = 0; !s.finished; ++step) {
      const auto moves = legal_actions(s);
      REQUIRE_FALSE(moves.empty());
      for (std::size_t i = 0; i < moves.size(); ++i) {
        const std::string text = move_text(moves[i], s);
        check_same_reading(text, s);
        flat += text.find('[') == std::string::npos;
        if (i >= 2) continue;
        // Each key dropped, or given a value of another kind or out of range.
        const json j = json::parse(text);
        for (const auto& [key, value] : j.items()) {
          for (const json& other : {json("x"), json(true), json(nullptr), json(-70000), json(2)}) {
            json changed = j;
            changed[key] = other;
            check_same_reading(changed.dump(), s);
            ++broken;
          }
          json dropped = j;
          dropped.erase(key);
          check_same_reading(dropped.dump(), s);
        }
        json extra = j;
        extra["unknown"] = 1;
        check_same_reading(extra.dump(), s);
      }
      std::size_t pick = static_cast<std::size_t>(step) % moves.size();
      for (std::size_t i = 0; i < moves.size(); ++i)
        if (static_cast<int>(moves[i].type) > static_cast<int>(move_type::pass) && step % 2 == 0)
          pick = i;
      REQUIRE(apply_in_place(s, moves[pick]).ok());
    }
  }
  CHECK(flat > 1000);
  CHECK(broken > 1000);
}

TEST_CASE("flat moves: the request is nlohmann's reading, or left to it") {
  // Random messages of the envelope's keys and a move, well and badly formed.
  static const char* const values[] = {
      "0",
      "-0",
      "7",
      "-12",
      "123456789012345678",
      "18446744073709551615",
      "1.5",
      "true",
      "false",
      "null",
      R"("move")",
      R"("m1")",
      R"("a\"")",
      R"("é")",
      R"([1])",
      R"({})",
      R"({"type":"pass"})",
      R"({"type":"pass","x":[1]})",
      R"({"type":"place_tile","x":1,"y":-2,"rotation":90,"seat":0})"};
  static const char* const keys[] = {"type", "id", "seq", "moved", "move", "move", "other"};
  std::mt19937 g(20261203);
  int taken = 0;
  for (int k = 0; k < 20000; ++k) {
    std::string text = g() % 8 ? R"({"type":"move",)" : "{";
    for (int n = static_cast<int>(g() % 5); n >= 0; --n) {
      const std::string key = keys[g() % 7];
      text += "\"" + key + "\"" + (g() % 4 ? ":" : " : ");
      // A move is mostly an object (the last four values), so that many messages are flat.
      text += values[key == "move" && g() % 5 ? 15 + g() % 4 : g() % 19];
      if (n > 0) text += g() % 3 ? "," : " ,\n";
    }
    text += g() % 30 ? "}" : "} x";
    CAPTURE(text);
    const auto fast = parse_flat_move_request(text);
    if (!fast) continue;
    ++taken;
    // What nlohmann reads in the same text.
    const json j = json::parse(text, nullptr, false);
    REQUIRE_FALSE(j.is_discarded());
    REQUIRE(fast->value);
    const json id = j.value("id", json());
    CHECK(same_json(fast->id, id));
    CHECK(same_json(fast->value->id, id));
    CHECK(fast->value->moved == j.value("moved", false));
    const auto& a = std::get<move_msg>(fast->value->message);
    CHECK(a.seq ==
          (j.contains("seq") ? std::optional(j["seq"].get<std::uint64_t>()) : std::nullopt));
    CHECK(same_json(tree_of_flat(a.move), j["move"]));
    // And parse_request gives that request.
    CHECK(same_json(tree_of_flat(std::get<move_msg>(parse_request(text).value->message).move),
                    j["move"]));
  }
  CHECK(taken > 500);  // the fast path is exercised (about 900 times), not only the fallback
}

TEST_CASE("flat moves: what it does not read is left to nlohmann, the same move in the end") {
  for (const char* text : {
           R"({"type":"join","room":"r"})",                              // another type
           R"({"type":"move","move":{"type":"bunny","path":[[0,1]]}})",  // a list in the move
           R"({"type":"move","move":"pass"})",                           // a move that is no object
           R"({"type":"move","move":{"a":"\u0031"}})",                   // an escape
           R"({"type":"move","move":{"a":1.0}})",                        // a fraction
           R"({"type":"move","id":null,"move":{}})",                     // a bad id
           R"({"type":"move","seq":-1,"move":{}})",                      // a bad seq
           R"({"type":"move","moved":1,"move":{}})",                     // a bad moved
           R"({"type":"move","move":{},"move":{}})",                     // the move twice
           R"({"type":"move","other":{},"move":{}})",                    // another object
           R"({"type":"move","move":{}} x)",                             // text after the object
           R"({"move":{}})",                                             // no type
       })
    CHECK_FALSE(parse_flat_move_request(text));
  // Read by nlohmann, a move of any values is one all the same.
  const auto bunny =
      parse_request(R"({"type":"move","move":{"type":"bunny","path":[[0,1]],"a":1.5}})");
  REQUIRE(bunny.value);
  const auto& move = std::get<move_msg>(bunny.value->message).move;
  CHECK(tree_of_flat(move) == json{{"type", "bunny"}, {"path", {{0, 1}}}, {"a", 1.5}});
  CHECK(move.find("path")->type == flat_object::kind::other);
  // The last of a repeated key wins, as in nlohmann.
  const auto r =
      parse_flat_move_request(R"({"type":"move","seq":1,"seq":2,"move":{"a":1,"a":"b"}})");
  REQUIRE(r);
  CHECK(std::get<move_msg>(r->value->message).seq == 2u);
  CHECK(tree_of_flat(flat_of(*r)) == json{{"a", "b"}});
}

TEST_CASE("flat moves: the room's seat is written in") {
  constexpr std::size_t keys = 20;
  std::string text = "{";
  for (std::size_t k = 0; k < keys; ++k)
    text += (k ? ",\"k" : "\"k") + std::to_string(k) + "\":" + std::to_string(k);
  text += "}";
  flat_object f;
  std::size_t at = 0;
  REQUIRE(f.parse(text, at));
  CHECK(at == text.size());
  f.set_integer("seat", 3);
  CHECK(f.members().size() == keys + 1);
  CHECK(f.find("seat")->number == 3);
  f.set_integer("seat", -1);  // replaced, not added
  CHECK(f.members().size() == keys + 1);
  CHECK(tree_of_flat(f)["seat"] == -1);
  CHECK(tree_of_flat(f)["k3"] == 3);
  // A text it does not read leaves it empty.
  text.back() = ',';
  text += "\"one_more\":1.5}";
  at = 0;
  CHECK_FALSE(f.parse(text, at));
  CHECK(f.members().empty());
}
