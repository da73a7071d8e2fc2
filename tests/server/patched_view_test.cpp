// The load tool's checking client keeps its view with patched_view (app/patched_view.hpp): the
// server's JSON Patch operations applied to an nlohmann value, checked here against worked
// patches and against nlohmann's own diff and patch of random documents.
#include "carcassonne/app/patched_view.hpp"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>

using carcassonne::app::patched_view;

namespace {

nlohmann::json parsed(const std::string& text) {
  return nlohmann::json::parse(text);
}

std::string snapshot_of(const std::string& view) {
  return R"({"type":"snapshot","room":"r1","seq":3,"view":)" + view + "}";
}

std::string patch_frame(const std::string& ops) {
  return R"({"type":"patch","room":"r1","seq":4,"events":[],"patch":)" + ops + "}";
}

// A random document of small objects and arrays, with keys a JSON Pointer must escape.
nlohmann::json random_doc(std::mt19937& rng, int depth) {
  const char* keys[] = {"a", "b", "c/d", "e~f", "legal_moves", "board"};
  const int kind = static_cast<int>(rng() % (depth > 0 ? 5 : 3));
  if (kind == 0) return static_cast<int>(rng() % 100);
  if (kind == 1) return std::string(1, static_cast<char>('p' + rng() % 5));
  if (kind == 2) return rng() % 2 == 0;
  if (kind == 3) {
    auto a = nlohmann::json::array();
    for (int i = static_cast<int>(rng() % 5); i > 0; --i) a.push_back(random_doc(rng, depth - 1));
    return a;
  }
  auto o = nlohmann::json::object();
  for (int i = static_cast<int>(rng() % 5); i > 0; --i)
    o[keys[rng() % std::size(keys)]] = random_doc(rng, depth - 1);
  return o;
}

// doc with some of its members and elements changed, added or removed.
void mutate(nlohmann::json& doc, std::mt19937& rng, int depth) {
  if (doc.is_object()) {
    for (auto& [k, v] : doc.items())
      if (rng() % 3 == 0) mutate(v, rng, depth - 1);
    if (rng() % 3 == 0) {
      std::string key = "n";  // in two steps: GCC 12 warns falsely (-Wrestrict) on "n" + ...
      key += std::to_string(rng() % 3);
      doc[key] = random_doc(rng, depth - 1);
    }
    if (!doc.empty() && rng() % 3 == 0) doc.erase(doc.begin());
  } else if (doc.is_array()) {
    for (auto& v : doc)
      if (rng() % 3 == 0) mutate(v, rng, depth - 1);
    if (rng() % 2 == 0) doc.push_back(random_doc(rng, depth - 1));
    if (doc.size() > 1 && rng() % 3 == 0) doc.erase(doc.begin());
  } else {
    doc = random_doc(rng, depth);
  }
}

}  // namespace

TEST_CASE("patched_view: the server's add, remove and replace, worked") {
  patched_view view;
  CHECK_FALSE(view.holds());
  view.reset(
      view
          .parse(snapshot_of(
              R"({"game":{"turn":1,"board":[{"x":0}],"legal_moves":[1,2]},"a/b":1,"m~n":2})"))
          .at("view"));
  REQUIRE(view.holds());
  const auto failed = view.apply_frame(patch_frame(R"([
      {"op":"replace","path":"/game/turn","value":2},
      {"op":"add","path":"/game/board/-","value":{"x":1}},
      {"op":"add","path":"/game/board/0","value":{"x":-1}},
      {"op":"replace","path":"/game/board/2/x","value":7},
      {"op":"remove","path":"/game/legal_moves"},
      {"op":"add","path":"/game/status","value":"finished"},
      {"op":"replace","path":"/a~1b","value":[5]},
      {"op":"remove","path":"/m~0n"},
      {"op":"remove","path":"/game/board/1"}])"));
  CHECK(failed == "");
  CHECK(view.value() ==
        parsed(R"({"game":{"turn":2,"board":[{"x":-1},{"x":7}],"status":"finished"},"a/b":[5]})"));
  // A view that differs in one value is not equal: the load tool's view_mismatches.
  CHECK_FALSE(
      view.value() ==
      parsed(R"({"game":{"turn":3,"board":[{"x":-1},{"x":7}],"status":"finished"},"a/b":[5]})"));
  view.clear();
  CHECK_FALSE(view.holds());
}

TEST_CASE("patched_view: an op that cannot apply says why and drops the view") {
  const std::string start = snapshot_of(R"({"game":{"board":[1,2],"turn":1}})");
  const std::pair<const char*, const char*> cases[] = {
      {R"([{"op":"replace","path":"/game/missing","value":1}])", "no member at /game/missing"},
      {R"([{"op":"remove","path":"/game/board/2"}])", "no element at /game/board/2"},
      {R"([{"op":"add","path":"/game/board/3","value":0}])", "no element at /game/board/3"},
      {R"([{"op":"add","path":"/game/board/01","value":0}])", "no element at /game/board/01"},
      {R"([{"op":"add","path":"/none/x","value":0}])", "no parent at /none/x"},
      {R"([{"op":"add","path":"/game/turn/x","value":0}])", "not a container at /game/turn/x"},
      {R"([{"op":"move","from":"/game/turn","path":"/t"}])", "unsupported op move"},
      {R"([{"op":"add","path":"/t"}])", "add without value at /t"},
      {R"([{"path":"/t"}])", "an op without op or path"},
      {R"([3])", "an op that is not an object"},
      {R"({"op":"add"})", "a patch frame without a patch"},
  };
  for (const auto& c : cases) {
    const std::string ops = c.first, why = c.second;
    CAPTURE(ops);
    patched_view view;
    view.reset(view.parse(start).at("view"));
    REQUIRE(view.holds());
    CHECK(view.apply_frame(patch_frame(ops)) == why);
    CHECK_FALSE(view.holds());
  }
  patched_view view;
  view.reset(view.parse(start).at("view"));
  CHECK(view.apply_frame("{not json") == "a patch frame without a patch");
  CHECK(view.parse("{not json").is_discarded());
}

TEST_CASE("patched_view: agrees with nlohmann's diff and patch on random documents") {
  std::mt19937 rng(20);
  for (int round = 0; round < 300; ++round) {
    CAPTURE(round);
    auto from = nlohmann::json::object({{"game", random_doc(rng, 3)}, {"viewer", round}});
    auto to = from;
    mutate(to, rng, 3);
    const auto ops = nlohmann::json::diff(from, to);
    REQUIRE(from.patch(ops) == to);
    patched_view view;
    view.reset(view.parse(snapshot_of(from.dump())).at("view"));
    REQUIRE(view.holds());
    CHECK(view.apply_frame(patch_frame(ops.dump())) == "");
    CHECK(view.value() == parsed(to.dump()));
  }
}
