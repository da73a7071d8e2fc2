// The plain parser builds exactly nlohmann's tree (values and number types) for what it takes,
// and leaves everything else to nlohmann: it never accepts what nlohmann refuses.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <random>
#include <string>

#include "carcassonne/protocol/messages.hpp"
#include "plain_json.hpp"

using carcassonne::protocol::parse_plain_json;
using nlohmann::json;

namespace {

// Equal values and equal types all the way down (== takes 1 and 1u, or 1 and 1.0, as equal).
bool same_tree(const json& a, const json& b) {
  if (a.type() != b.type() || a != b) return false;
  if (a.is_object()) {
    for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib)
      if (ia.key() != ib.key() || !same_tree(*ia, *ib)) return false;
  }
  if (a.is_array())
    for (std::size_t k = 0; k < a.size(); ++k)
      if (!same_tree(a[k], b[k])) return false;
  return true;
}

void check_like_nlohmann(const std::string& text) {
  CAPTURE(text);
  const auto plain = parse_plain_json(text);
  const json expected = json::parse(text, nullptr, false);
  if (plain) {
    CHECK_FALSE(expected.is_discarded());
    CHECK(same_tree(*plain, expected));
  }
}

// Random text made of JSON's pieces: mostly valid, sometimes broken.
std::string random_text(std::mt19937& g, int depth) {
  static const char* const atoms[] = {"0",
                                      "-0",
                                      "7",
                                      "-12",
                                      "18446744073709551615",
                                      "123456789012345678",
                                      "1.5",
                                      "1e3",
                                      "01",
                                      "true",
                                      "false",
                                      "null",
                                      "nul",
                                      "\"\"",
                                      "\"move\"",
                                      "\"a\\\"b\"",
                                      "\"é\"",
                                      "-",
                                      " ",
                                      "\"tab\there\""};
  const int pick = static_cast<int>(g() % (depth > 3 ? 1 : 4));
  if (pick == 0) return atoms[g() % 20];
  const bool object = pick == 1;
  std::string out = object ? "{" : "[";
  for (int n = static_cast<int>(g() % 4); n > 0; --n) {
    if (object) out += g() % 2 ? "\"k\":" : "\"seat\" : ";
    out += random_text(g, depth + 1);
    if (n > 1 || g() % 10 == 0) out += g() % 2 ? "," : " ,\n";
  }
  out += object ? "}" : "]";
  if (g() % 15 == 0) out += "x";
  return out;
}

}  // namespace

TEST_CASE("plain json: a move message as nlohmann parses it") {
  const std::string text =
      R"({"type":"move","id":17,"seq":42,"move":{"type":"place_tile","x":-1,"y":0,)"
      R"("rotation":270,"seat":1,"meeple":{"feature":"city","figure":"meeple"}},"x":[1,true,null]})";
  const auto plain = parse_plain_json(text);
  REQUIRE(plain);
  CHECK(same_tree(*plain, json::parse(text)));
  CHECK((*plain)["seq"].is_number_unsigned());
  CHECK((*plain)["move"]["x"].is_number_integer());
  CHECK(plain->dump() == json::parse(text).dump());
  // Whitespace between tokens, a repeated key (the last wins), nesting.
  check_like_nlohmann(" {\n\t\"a\" : [ 1 , [ ] , { } ] , \"a\" : 2 }\r\n");
  CHECK(parse_plain_json(R"({"a":1,"a":[2]})")->dump() == R"({"a":[2]})");
}

TEST_CASE("plain json: what it does not take is left to nlohmann") {
  for (const char* text : {R"({"a":1.5})", R"({"a":"\u00e9"})", "{\"a\":\"é\"}", R"({"a":01})",
                           R"({"a":12345678901234567890})", R"({"a":1e3})", "", "  ", "{", "[1,]",
                           R"({"a":1,})", R"({"a" 1})", "tru", R"({"a":1} x)", "\xEF\xBB\xBF{}"})
    CHECK_FALSE(parse_plain_json(text));
  std::string deep(40, '[');
  deep += std::string(40, ']');
  CHECK_FALSE(parse_plain_json(deep));  // deeper than any message: nlohmann's
  CHECK(parse_plain_json(std::string(30, '[') + std::string(30, ']')));
}

TEST_CASE("plain json: never disagrees with nlohmann on random texts") {
  std::mt19937 g(1202);
  int taken = 0;
  for (int k = 0; k < 20000; ++k) {
    const std::string text = random_text(g, 0);
    check_like_nlohmann(text);
    taken += parse_plain_json(text).has_value();
  }
  CHECK(taken > 2000);  // the test exercises the plain path, not only the fallback
}

TEST_CASE("plain json: parse_request gives the same request either way") {
  // A message the plain parser takes, and the same with an escape that sends it to nlohmann.
  const auto a = carcassonne::protocol::parse_request(
      R"({"type":"move","id":"m1","seq":3,"move":{"type":"pass"}})");
  const auto b = carcassonne::protocol::parse_request(
      R"({"type":"move","id":"m\u0031","seq":3,"move":{"type":"pass"}})");
  REQUIRE(a.value);
  REQUIRE(b.value);
  CHECK(a.id == b.id);
  const auto& ma = std::get<carcassonne::protocol::move_msg>(a.value->message);
  const auto& mb = std::get<carcassonne::protocol::move_msg>(b.value->message);
  CHECK(same_tree(ma.move, mb.move));
  CHECK(ma.seq == mb.seq);
  // Malformed text is still refused with bad_json.
  CHECK(carcassonne::protocol::parse_request(R"({"type":"move",})").error.code == "bad_json");
}
