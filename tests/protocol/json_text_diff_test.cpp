// diff_json_text gives, operation for operation, what nlohmann's json::diff gives on the parsed
// texts: on hand-picked cases (json::diff's orders: removals from an array's end backwards,
// object removals before additions) and on thousands of random pairs.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <random>
#include <string>

#include "carcassonne/protocol/json_text_diff.hpp"

using carcassonne::protocol::diff_json_text;
using nlohmann::json;

namespace {

// json::diff's operations, each dumped, under `prefix`.
std::string tree_diff_ops(const json& from, const json& to, const std::string& prefix) {
  std::string ops;
  for (auto& op : json::diff(from, to)) {
    op["path"] = prefix + op["path"].get<std::string>();
    if (!ops.empty()) ops.push_back(',');
    ops += op.dump();
  }
  return ops;
}

std::string text_diff_ops(const json& from, const json& to, const std::string& prefix) {
  std::string ops;
  REQUIRE(diff_json_text(from.dump(), to.dump(), prefix, ops));
  return ops;
}

// A random value a room part could hold: objects of a few keys (some with '/' and '~'),
// arrays, strings (some to be escaped), integers, booleans, null.
json random_value(std::mt19937& g, int depth) {
  const int pick = static_cast<int>(g() % (depth > 2 ? 5 : 7));
  static const char* const keys[] = {"a", "b", "seat", "name", "x/y", "t~1", "zz", "Č"};
  static const char* const strings[] = {"", "Ann", "Bob \"the\" builder", "tab\there", "Čeněk"};
  switch (pick) {
    case 0:
      return nullptr;
    case 1:
      return g() % 2 == 0;
    case 2:
      return static_cast<int>(g() % 7) - 2;
    case 3:
      return g() % 3;  // unsigned: the same text as a signed integer
    case 4:
      return strings[g() % 5];
    case 5: {
      json o = json::object();
      for (int n = static_cast<int>(g() % 4); n > 0; --n)
        o[keys[g() % 8]] = random_value(g, depth + 1);
      return o;
    }
    default: {
      json a = json::array();
      for (int n = static_cast<int>(g() % 4); n > 0; --n) a.push_back(random_value(g, depth + 1));
      return a;
    }
  }
}

// Another value of the same shape, some parts changed, added or removed.
json mutated(const json& v, std::mt19937& g, int depth) {
  if (g() % 6 == 0) return random_value(g, depth);
  if (v.is_object()) {
    json o = v;
    for (auto& [k, child] : v.items())
      if (g() % 3 == 0) o[k] = mutated(child, g, depth + 1);
    if (g() % 4 == 0 && !o.empty()) o.erase(o.begin());
    if (g() % 4 == 0) o["new"] = random_value(g, depth + 1);
    return o;
  }
  if (v.is_array()) {
    json a = v;
    for (auto& child : a)
      if (g() % 3 == 0) child = mutated(child, g, depth + 1);
    if (g() % 4 == 0) a.push_back(random_value(g, depth + 1));
    if (g() % 4 == 0 && !a.empty()) a.erase(a.begin());
    return a;
  }
  return v;
}

}  // namespace

TEST_CASE("text diff: json::diff's operations in json::diff's order") {
  const json seats_before = json::parse(
      R"({"seats":[{"connected":true,"name":"Ann","seat":0},{"connected":false,"name":null,"seat":1}],"spectators":0,"state":"waiting"})");
  const json seats_after = json::parse(
      R"({"seats":[{"connected":true,"name":"Ann","seat":0},{"connected":true,"name":"Bob","seat":1}],"spectators":1,"state":"playing"})");
  CHECK(text_diff_ops(seats_before, seats_after, "/room") ==
        R"({"op":"replace","path":"/room/seats/1/connected","value":true},)"
        R"({"op":"replace","path":"/room/seats/1/name","value":"Bob"},)"
        R"({"op":"replace","path":"/room/spectators","value":1},)"
        R"({"op":"replace","path":"/room/state","value":"playing"})");

  // Arrays: common elements in place, the rest removed from the end backwards, or added.
  CHECK(text_diff_ops(json{1, 2, 3, 4}, json{1, 5}, "") ==
        R"({"op":"replace","path":"/1","value":5},{"op":"remove","path":"/3"},)"
        R"({"op":"remove","path":"/2"})");
  CHECK(text_diff_ops(json{1}, json{1, json{{"a", 1}}, "x"}, "/p") ==
        R"({"op":"add","path":"/p/-","value":{"a":1}},{"op":"add","path":"/p/-","value":"x"})");

  // Objects: keys of the old one first (diffed or removed), then the new keys; '/' and '~' in
  // keys escaped as JSON Pointer wants.
  CHECK(text_diff_ops(json{{"a", 1}, {"x/y", 2}}, json{{"b", 1}, {"t~1", 2}}, "") ==
        R"({"op":"remove","path":"/a"},{"op":"remove","path":"/x~1y"},)"
        R"({"op":"add","path":"/b","value":1},{"op":"add","path":"/t~01","value":2})");

  // A changed type is a replacement of the whole value; equal texts give nothing.
  CHECK(text_diff_ops(json{{"a", json::array()}}, json{{"a", json::object()}}, "/r") ==
        R"({"op":"replace","path":"/r/a","value":{}})");
  CHECK(text_diff_ops(json{{"a", 1}}, json{{"a", 1}}, "/r").empty());
  CHECK(text_diff_ops(json(1), json("1"), "/r") == R"({"op":"replace","path":"/r","value":"1"})");
}

TEST_CASE("text diff: what it cannot be sure of is left to the trees, ops untouched") {
  std::string ops = "kept";
  CHECK_FALSE(diff_json_text(R"({"a":1.0})", R"({"a":1})", "", ops));      // equal for nlohmann
  CHECK_FALSE(diff_json_text(R"({"a\"b":1})", R"({"a\"b":2})", "", ops));  // an escaped key
  CHECK_FALSE(diff_json_text(R"({"b":1,"a":2})", R"({"b":2,"a":2})", "", ops));  // unsorted
  CHECK_FALSE(diff_json_text(R"({"a":[1,2})", R"({"a":[1]})", "", ops));         // malformed
  CHECK_FALSE(diff_json_text(R"({"a":x})", R"({"a":1})", "", ops));
  CHECK(ops == "kept");
  // Appended after what is there, comma-separated.
  CHECK(diff_json_text(R"({"a":1})", R"({"a":2})", "/r", ops));
  CHECK(ops == R"(kept,{"op":"replace","path":"/r/a","value":2})");
}

TEST_CASE("text diff: agrees with json::diff on random pairs") {
  std::mt19937 g(20261202);
  int differing = 0;
  for (int i = 0; i < 4000; ++i) {
    const json from = random_value(g, 0);
    const json to = mutated(from, g, 0);
    const std::string expected = tree_diff_ops(from, to, "/room");
    CAPTURE(from.dump());
    CAPTURE(to.dump());
    CHECK(text_diff_ops(from, to, "/room") == expected);
    differing += !expected.empty();
    // And the operations do what they say.
    json doc{{"room", from}};
    doc.patch_inplace(json::parse("[" + expected + "]"));
    CHECK(doc["room"] == to);
  }
  CHECK(differing > 1000);
}
