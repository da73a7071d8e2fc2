// The `history` request: the events of the game so far, rebuilt from the room's journal, equal
// to the events every seat heard in its patches, in pages of at most protocol::history_page moves;
// refused outside the room, before the start and, mid-game, to a delayed spectator.
#include <doctest/doctest.h>

#include "carcassonne/engine/rng.hpp"
#include "room_support.hpp"

using namespace carcassonne;
using namespace carcassonne::server;
using carcassonne::testing::fake_client;
using carcassonne::testing::make_client;
using carcassonne::testing::test_room_settings;
using namespace carcassonne::testing::messages;
using nlohmann::json;

namespace {

room_settings history_settings(int delay) {
  return test_room_settings("h1", 2, "history-test-seed",
                            {{"expansions", {"hills_and_sheep", "festival"}}}, delay, "history");
}

// Every event of every patch the client received, in order.
json heard(const fake_client& c) {
  json all = json::array();
  for (const auto& f : c.frames)
    if (f["type"] == "patch")
      for (const auto& e : f["events"]) all.push_back(e);
  return all;
}

// Asks for the history page by page, as the web page does after a reload.
json told(room& r, const std::shared_ptr<fake_client>& c, std::size_t& pages) {
  json all = json::array();
  protocol::history_msg m;
  pages = 0;
  for (;;) {
    r.history(c, m, json(static_cast<int>(pages)));
    const json a = c->last("history");
    REQUIRE(a.is_object());
    REQUIRE(a["id"] == json(static_cast<int>(pages)));
    ++pages;
    CHECK(a["from"] == json(m.from));
    CHECK(a["entries"].size() <= static_cast<std::size_t>(carcassonne::protocol::history_page));
    CHECK(a["entries"].size() == a["to"].get<std::size_t>() - a["from"].get<std::size_t>());
    for (const auto& entry : a["entries"]) {
      CHECK(entry["move"] == json(m.from++));
      for (const auto& e : entry["events"]) all.push_back(e);
    }
    if (a["to"].get<std::size_t>() == a["moves"].get<std::size_t>() + 1) break;
    REQUIRE(pages < 100);
  }
  return all;
}

}  // namespace

TEST_CASE("history: the events of the game so far, as the seats heard them, page by page") {
  metrics stats;
  auto a = make_client(), b = make_client(), outsider = make_client();
  room r(history_settings(0), &stats, a);
  r.join(a, join_as("A"), nullptr);
  r.join(b, join_as("B"), nullptr);
  r.history(a, {}, "early");
  CHECK(a->last_error() == "not_started");
  r.history(outsider, {}, "x");
  CHECK(outsider->last_error() == "not_in_room");
  r.start(a, nullptr);
  std::vector<std::shared_ptr<fake_client>> seats{a, b};
  rng chooser(7);
  std::size_t pages = 0;
  while (!r.game()->finished) {
    auto& c = seats[to_act(*r.game())];
    const auto& legal = c->view["game"]["legal_moves"];
    r.move(c, move_of(legal[chooser.below(legal.size())]), nullptr);
    if (r.game()->turn == 5 && to_act(*r.game()) == 0) CHECK(told(r, b, pages) == heard(*b));
  }
  const json all = heard(*a);
  REQUIRE(all.size() > 100);
  CHECK(told(r, a, pages) == all);
  CHECK(pages > 1);  // a whole game takes several pages
  CHECK(told(r, b, pages) == heard(*b));
  const json last = b->last("history");
  CHECK(last["moves"] == json(r.record()["moves"].size()));
  CHECK(last["seq"] == json(r.seq()));
  // Past the end: an empty page at the end.
  protocol::history_msg past;
  past.from = 100000;
  r.history(a, past, "past");
  CHECK(a->last("history")["entries"].empty());
  CHECK(a->last("history")["to"] == a->last("history")["moves"].get<std::size_t>() + 1);
}

TEST_CASE("history: a delayed spectator hears nothing before the end, everything after it") {
  metrics stats;
  auto a = make_client(), b = make_client(), w = make_client();
  room r(history_settings(2), &stats, a);
  r.join(a, join_as("A"), nullptr);
  r.join(b, join_as("B"), nullptr);
  r.start(a, nullptr);
  r.spectate(w, nullptr);
  std::vector<std::shared_ptr<fake_client>> seats{a, b};
  for (int i = 0; i < 6; ++i) {
    auto& c = seats[to_act(*r.game())];
    r.move(c, move_of(c->view["game"]["legal_moves"][0]), nullptr);
  }
  const auto before = w->frames.size();
  r.history(w, {}, "h");
  CHECK(w->last_error() == "not_finished");
  CHECK(w->frames.size() == before + 1);
  r.history(a, {}, "seated");  // the seats are told
  CHECK(a->last("history")["entries"].size() > 1);
  while (!r.game()->finished) {
    auto& c = seats[to_act(*r.game())];
    r.move(c, move_of(c->view["game"]["legal_moves"][0]), nullptr);
  }
  std::size_t pages = 0;
  CHECK(told(r, w, pages) == told(r, a, pages));
}
