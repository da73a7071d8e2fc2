// The server's text views: their diffs are valid RFC 6902 patches that turn the old view into
// the new one, and the JSON views are exactly the text views parsed.
#include <doctest/doctest.h>

#include "carcassonne/engine/rng.hpp"
#include "carcassonne/protocol/view.hpp"
#include "carcassonne/protocol/view_doc.hpp"
#include "easter/id.hpp"

using namespace carcassonne;
using namespace carcassonne::protocol;
using nlohmann::json;

namespace {

json apply_ops(const json& before, const view_doc& from, const view_doc& to) {
  std::string ops;
  diff_docs(from, to, "/game", ops);
  json doc{{"game", before}};
  doc.patch_inplace(json::parse("[" + ops + "]"));
  return doc["game"];
}

}  // namespace

TEST_CASE("public and private diffs replay every move of whole games") {
  const std::vector<std::string> names{"Ann", "Bob \"the\" builder", "Čeněk"};
  for (int g = 0; g < 6; ++g) {
    game_setup setup;
    setup.seats = 3;
    setup.seed = "doc-" + std::to_string(g);
    if (g >= 3) setup.expansions.add(easter::id);  // other seats' bunny goes
    game_state s = new_game(setup).value();
    rng chooser(g);
    auto pub = public_doc(s, names);
    std::vector<view_doc> priv;
    for (int seat = 0; seat < 3; ++seat) priv.push_back(private_doc(s, seat));
    json held = json::parse(pub.text());
    while (!s.finished) {
      const auto moves = legal_actions(s);
      REQUIRE(apply_in_place(s, moves[chooser.below(moves.size())]).ok());
      auto now = public_doc(s, names);
      held = apply_ops(held, pub, now);
      REQUIRE(held == json::parse(now.text()));
      REQUIRE(held == public_view(s, names));
      for (int seat = 0; seat < 3; ++seat) {
        auto mine = private_doc(s, seat);
        const json before = json::parse(pub.text(&priv[seat]));
        // The private diff applies to the whole view of the seat.
        std::string ops;
        diff_docs(pub, now, "/game", ops);
        diff_docs(priv[seat], mine, "/game", ops);
        json doc{{"game", before}};
        doc.patch_inplace(json::parse("[" + ops + "]"));
        REQUIRE(doc["game"] == build_view(s, seat, names));
        priv[seat] = std::move(mine);
      }
      pub = std::move(now);
    }
  }
}

TEST_CASE("array diffs: replace in place, add and remove at the end, or replace whole") {
  view_doc a, b;
  a.array("xs").items = {"1", "2", "3", "4", "5", "6"};
  b.array("xs").items = {"1", "2", "9", "4", "5", "6", "7"};
  std::string ops;
  diff_docs(a, b, "/game", ops);
  CHECK(
      json::parse("[" + ops + "]") ==
      json::parse(
          R"([{"op":"replace","path":"/game/xs/2","value":9},{"op":"add","path":"/game/xs/-","value":7}])"));

  view_doc c;
  c.array("xs").items = {"1", "2"};
  ops.clear();
  diff_docs(a, c, "/game", ops);
  json doc{{"game", json::parse(a.text())}};
  doc.patch_inplace(json::parse("[" + ops + "]"));
  CHECK(doc["game"] == json::parse(c.text()));

  view_doc d;
  d.array("xs").items = {"7", "8", "9", "10", "11", "12"};
  ops.clear();
  diff_docs(a, d, "/game", ops);
  CHECK(json::parse("[" + ops + "]").size() == 1);  // most changed: one replace of the array

  view_doc e;
  e.scalar("viewer", "1");
  ops.clear();
  diff_docs(a, e, "/game", ops);
  doc = json{{"game", json::parse(a.text())}};
  doc.patch_inplace(json::parse("[" + ops + "]"));
  CHECK(doc["game"] == json::parse(e.text()));
}

TEST_CASE("strings are escaped as JSON") {
  CHECK(json::parse(json_string("a\"b\\c\nd\x01")) == "a\"b\\c\nd\x01");
  CHECK(json::parse(json_string("Čeněk")) == "Čeněk");
}

TEST_CASE(
    "public_doc reusing the previous board and figures writes the same document, across "
    "take-backs") {
  const std::vector<std::string> names{"Ann", "Bob"};
  for (int g = 0; g < 8; ++g) {
    game_setup setup;
    setup.seats = 2;
    setup.seed = "memo-" + std::to_string(g);
    // Half the games with every expansion: figures of every kind, protected ones among them.
    if (g >= 4)
      for (int e = 0; e < expansion_count; ++e) setup.expansions.add(static_cast<expansion>(e));
    game_state s = new_game(setup).value();
    rng chooser(100 + g);
    board_memo memo;
    view_doc previous = public_doc(s, names, nullptr, &memo);
    std::vector<game_state> earlier{s};
    int takebacks = 0, carried = 0;
    while (!s.finished) {
      // Now and then a take-back of up to five moves (the board shrinks, then grows anew with
      // other tiles where the old ones were), as the room's undo does.
      if (chooser.below(8) == 0 && earlier.size() > 1) {
        const auto back = std::min<std::size_t>(earlier.size() - 1, 1 + chooser.below(5));
        earlier.resize(earlier.size() - back);
        s = earlier.back();
        ++takebacks;
      } else {
        const auto moves = legal_actions(s);
        REQUIRE(apply_in_place(s, moves[chooser.below(moves.size())]).ok());
        earlier.push_back(s);
      }
      const view_doc before = previous;  // a copy: public_doc may move the board out of it
      auto now = public_doc(s, names, &previous, &memo);
      const auto fresh = public_doc(s, names);
      REQUIRE(now == fresh);
      REQUIRE(memo.tiles.size() == s.board.placed().size());
      REQUIRE(memo.figures.size() == s.figures.size());
      // The diff from what is left of `previous` is the one from its copy.
      std::string ops, expected;
      diff_docs(previous, now, "/game", ops);
      diff_docs(before, fresh, "/game", expected);
      REQUIRE(ops == expected);
      carried += now.find("board")->items.carried() > 0;
      previous = std::move(now);
    }
    CHECK(takebacks > 3);
    CHECK(carried > 20);
  }
}

TEST_CASE(
    "private_doc_is_viewer_only says exactly when a seat's private part is \"viewer\" alone") {
  // Each expansion alone, then all five: the Gifts show a hand, Easter lets other seats act.
  for (int g = 0; g <= expansion_count; ++g) {
    game_setup setup;
    setup.seats = 3;
    setup.seed = "viewer-only-" + std::to_string(g);
    for (int e = 0; e < expansion_count; ++e)
      if (e == g || g == expansion_count) setup.expansions.add(static_cast<expansion>(e));
    game_state s = new_game(setup).value();
    rng chooser(200 + g);
    int viewer_only = 0, more = 0;
    for (;;) {
      for (int v = spectator; v < 3; ++v) {
        const bool alone = private_doc(s, v).fields.size() == 1;
        REQUIRE(private_doc_is_viewer_only(s, v) == alone);
        ++(alone ? viewer_only : more);
      }
      if (s.finished) break;
      const auto moves = legal_actions(s);
      REQUIRE(apply_in_place(s, moves[chooser.below(moves.size())]).ok());
    }
    CHECK(viewer_only > 0);
    CHECK(more > 0);
  }
}
