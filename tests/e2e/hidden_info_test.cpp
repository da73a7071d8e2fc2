// Hidden information over sockets: with scripted decks of known tiles, no frame any seat or
// spectator receives shows the order of the tiles still to come, a deck, or a seed.
#include <algorithm>
#include <set>

#include "e2e_client.hpp"

using namespace e2e;

namespace {

// Every tile type of the base game (shared/reference/tiles.json).
const std::vector<std::string> base_tiles{
    "BA/L",    "BA/LR",  "BA/RCr",   "BA/Cccc+", "BA/CccR+", "BA/CccR", "BA/CFc+", "BA/CFc.1",
    "BA/Cc.1", "BA/Cc+", "BA/CcRr",  "BA/CcRr+", "BA/Ccc",   "BA/Ccc+", "BA/CRr",  "BA/CRRR",
    "BA/RrC",  "BA/C",   "BA/CFC.2", "BA/CC.2",  "BA/RRRR",  "BA/RRR",  "BA/Rr",   "BA/RFr"};

// Tiles drawn so far, as a client can tell from its view: placed (less the start tile),
// discarded as unplaceable, and the one waiting to be placed.
std::size_t drawn(const ws_client& c) {
  if (!c.has_view || !c.view["game"].is_object()) return 0;
  const json& g = c.view["game"];
  return g["board"].size() - 1 + g["discarded"].size() + (g["tile"].is_null() ? 0 : 1);
}

// No "deck" or "seed" key anywhere; "supply" only as a player's figure counts {"meeple": n}.
bool keys_clean(const json& j) {
  if (j.is_array()) return std::all_of(j.begin(), j.end(), keys_clean);
  if (!j.is_object()) return true;
  for (const auto& [key, value] : j.items()) {
    if (key == "deck" || key == "seed") return false;
    if (key == "supply") {
      if (!value.is_object()) return false;
      for (const auto& [figure, n] : value.items())
        if (!n.is_number_integer()) return false;
    }
    if (!keys_clean(value)) return false;
  }
  return true;
}

struct leak_watch {
  std::vector<std::string> deck;
  std::size_t frames = 0, leaks = 0;
  std::string first_leak;

  void check(const std::string& frame, const ws_client& c) {
    ++frames;
    const std::size_t d = drawn(c);
    bool leak = false;
    // The next (up to) three undrawn tiles in order, as a leaked list would show them.
    if (d + 2 <= deck.size()) {
      std::string upcoming;
      for (std::size_t i = d; i < std::min(d + 3, deck.size()); ++i) {
        if (i > d) upcoming += ',';
        upcoming += json(deck[i]).dump();
      }
      leak = frame.find(upcoming) != std::string::npos;
    }
    leak = leak || frame.find("\"deck\"") != std::string::npos ||
           frame.find("\"seed\"") != std::string::npos || !keys_clean(json::parse(frame));
    if (leak && leaks++ == 0) first_leak = frame;
  }
};

}  // namespace

TEST_CASE("e2e: hidden information: no frame shows the upcoming tiles, a deck or a seed") {
  test_server server;
  const auto port = server.port();
  std::size_t frames = 0;
  for (std::uint64_t g = 0; g < 10; ++g) {
    CAPTURE(g);
    // A deck of distinct tile types: an upcoming run of ids can only come from a leak.
    leak_watch watch;
    watch.deck = base_tiles;
    std::mt19937_64 shuffle_rng(1000 + g);
    std::shuffle(watch.deck.begin(), watch.deck.end(), shuffle_rng);
    watch.deck.resize(16);

    ws_client a(port), b(port), s(port);
    for (auto* c : {&a, &b, &s})
      c->on_frame = [&watch](const std::string& f, const ws_client& self) { watch.check(f, self); };
    const auto room = create_room(a, {{"script", {{"deck", watch.deck}}}});
    join(a, room, "A");
    join(b, room, "B");
    spectate(s, room);
    table t{{&a, &b}, {&s}};
    t.rng.seed(g);
    t.start(a);
    CHECK(a.view["game"]["tile"] == watch.deck[0]);
    t.play_to_end();
    for (auto* c : {&a, &b, &s}) {
      CHECK_FALSE(c->gap);
      CHECK(drawn(*c) == watch.deck.size());
    }
    // The scripted deck is what was played: the start tile and every tile of the deck placed
    // or discarded, none other.
    std::vector<std::string> played;
    for (const auto& placed : a.view["game"]["board"]) played.push_back(placed["tile"]);
    for (const auto& discarded : a.view["game"]["discarded"]) played.push_back(discarded);
    std::sort(played.begin(), played.end());
    auto expected = watch.deck;
    expected.push_back("BA/RCr");  // the start tile
    std::sort(expected.begin(), expected.end());
    CHECK(played == expected);

    CHECK_MESSAGE(watch.leaks == 0, watch.first_leak);
    frames += watch.frames;
  }
  MESSAGE("frames checked: " << frames);
  CHECK(frames > 500);
}

namespace {

// Tile types for a Hills & Sheep deck of distinct tiles, hills among them.
const std::vector<std::string> hills_deck_tiles{
    "HS/Cc.h.1", "HS/CC.h.2", "HS/CFC.h", "HS/CFR.h", "HS/CRr.h", "HS/RFR.h", "HS/RR.h",
    "HS/RrC.h",  "HS/LCRr",   "HS/LRrR",  "HS/Cc.v",  "HS/RRr.v", "BA/L",     "BA/LR",
    "BA/Cc.1",   "BA/C",      "BA/RRRR",  "BA/Rr",    "BA/RFr",   "BA/CRr"};

// Every token at most as often as the box holds it (so each entry can be drawn whatever the
// play), wolves anywhere; no three in a row are in the sorted order a flock is shown in.
const std::vector<std::string> sheep_script{
    "sheep4", "sheep1", "wolf",   "sheep3", "sheep2", "sheep1", "sheep3", "wolf",   "sheep2",
    "sheep1", "sheep4", "sheep3", "sheep2", "sheep1", "sheep3", "sheep2", "sheep3", "sheep2"};

bool sorted_run(const std::vector<std::string>& v, std::size_t from, std::size_t n) {
  auto rank = [](const std::string& t) { return t == "wolf" ? 9 : t.back() - '0'; };
  for (std::size_t i = from + 1; i < from + n; ++i)
    if (rank(v[i]) < rank(v[i - 1])) return false;
  return true;
}

struct sheep_watch {
  std::vector<std::string> frames;  // every frame of every client, checked at the end
  std::size_t draws = 0;            // token draws seen by the spectator so far
  std::size_t leaks = 0;
  std::string first_leak;

  void check(const std::string& frame, bool count_draws) {
    frames.push_back(frame);
    const json j = json::parse(frame);
    bool leak = !keys_clean(j);
    // The bag is a count, never a list: in snapshots and in every patch that writes it.
    const auto bag_ok = [](const json& game) {
      return !game.is_object() || (game.contains("bag") && game.at("bag").is_number_integer());
    };
    if (j.contains("view") && j.at("view").contains("game"))
      leak = leak || !bag_ok(j.at("view").at("game"));
    if (j.contains("patch"))
      for (const auto& op : j.at("patch")) {
        const auto path = op.value("path", std::string());
        if (path == "/game") leak = leak || !bag_ok(op.at("value"));
        if (path.rfind("/game/bag", 0) == 0) leak = leak || !op.at("value").is_number_integer();
      }
    // The next three scripted draws, in an order no flock shows, appear nowhere.
    if (draws + 3 <= sheep_script.size() && !sorted_run(sheep_script, draws, 3)) {
      std::string upcoming;
      for (std::size_t i = draws; i < draws + 3; ++i)
        upcoming += (i > draws ? "," : "") + json(sheep_script[i]).dump();
      leak = leak || frame.find(upcoming) != std::string::npos;
    }
    if (leak && leaks++ == 0) first_leak = frame;
    if (count_draws && j.contains("events"))
      for (const auto& e : j["events"]) draws += e["type"] == "token_drawn";
  }
};

}  // namespace

TEST_CASE("e2e: hidden information with Hills & Sheep: tiles under hills and the bag's order") {
  test_server server;
  const auto port = server.port();
  std::size_t hidden_total = 0, draws_total = 0;
  for (std::uint64_t g = 0; g < 6; ++g) {
    CAPTURE(g);
    auto deck = hills_deck_tiles;
    std::mt19937_64 shuffle_rng(2000 + g);
    std::shuffle(deck.begin(), deck.end(), shuffle_rng);
    deck.resize(16);
    sheep_watch watch;

    ws_client a(port), b(port), s(port);
    a.on_frame = [&watch](const std::string& f, const ws_client&) { watch.check(f, false); };
    b.on_frame = a.on_frame;
    s.on_frame = [&watch](const std::string& f, const ws_client&) { watch.check(f, true); };
    const auto room = create_room(a, {{"expansions", {"hills_and_sheep"}},
                                      {"script", {{"deck", deck}, {"sheep", sheep_script}}}});
    join(a, room, "A");
    join(b, room, "B");
    spectate(s, room);
    table t{{&a, &b}, {&s}};
    t.rng.seed(g);
    t.start(a);
    t.play_to_end();

    // The tiles that went under hills: the deck less what was played or discarded.
    std::multiset<std::string> hidden(deck.begin(), deck.end());
    for (const auto& placed : a.view["game"]["board"])
      if (auto it = hidden.find(placed["tile"]); it != hidden.end()) hidden.erase(it);
    for (const auto& discarded : a.view["game"]["discarded"])
      if (auto it = hidden.find(discarded); it != hidden.end()) hidden.erase(it);
    for (const auto& id : hidden) {
      CAPTURE(id);
      const std::string quoted = json(id).dump();
      for (const auto& f : watch.frames) REQUIRE(f.find(quoted) == std::string::npos);
    }
    hidden_total += hidden.size();
    draws_total += watch.draws;
    CHECK(a.view["game"]["bag"] == 18 - [&] {
      int out = 0;
      for (const auto& f : a.view["game"]["flocks"]) out += static_cast<int>(f["tokens"].size());
      return out;
    }());
    CHECK_MESSAGE(watch.leaks == 0, watch.first_leak);
  }
  MESSAGE("tiles hidden under hills: " << hidden_total << ", tokens drawn: " << draws_total);
  CHECK(hidden_total >= 6);  // the decks hold 8 hills in 20 types: most games hide several
  CHECK(draws_total >= 6);
}

TEST_CASE("e2e: hidden information with the Peasant Revolts: the 3 tiles set aside never show") {
  test_server server;
  const auto port = server.port();
  std::vector<std::string> frames;
  ws_client a(port), b(port), s(port);
  for (auto* c : {&a, &b, &s})
    c->on_frame = [&frames](const std::string& f, const ws_client&) { frames.push_back(f); };
  // No script and no seed: the server's own seed sets the tiles aside, as in a real room.
  const auto room = create_room(a, {{"expansions", {"peasant_revolts"}}});
  join(a, room, "A");
  join(b, room, "B");
  spectate(s, room);
  table t{{&a, &b}, {&s}};
  t.rng.seed(77);
  t.start(a);
  t.play_to_end();
  REQUIRE(a.view["game"]["status"] == "finished");
  CHECK(a.view["game"]["set_aside"] == 3);
  std::set<std::string> seen;
  for (const auto& placed : a.view["game"]["board"]) seen.insert(placed["tile"].get<std::string>());
  for (const auto& d : a.view["game"]["discarded"]) seen.insert(d.get<std::string>());
  std::vector<std::string> absent;
  for (int i = 1; i <= 12; ++i) {
    const std::string id = (i < 10 ? "PR/0" : "PR/") + std::to_string(i);
    if (!seen.count(id)) absent.push_back(id);
  }
  REQUIRE(absent.size() == 3);  // the whole supply was played: exactly the 3 set aside are unseen
  for (const auto& id : absent) {
    CAPTURE(id);
    for (const auto& f : frames) REQUIRE(f.find(json(id).dump()) == std::string::npos);
  }
  MESSAGE("frames checked: " << frames.size());
}

TEST_CASE(
    "e2e: hidden information with the Gifts: hands reach their seat only, the deck is a count") {
  test_server server;
  const auto port = server.port();
  std::vector<std::string> seat_frames, spectator_frames;
  ws_client a(port), b(port), s(port);
  a.on_frame = [&](const std::string& f, const ws_client&) { seat_frames.push_back(f); };
  b.on_frame = a.on_frame;
  s.on_frame = [&](const std::string& f, const ws_client&) { spectator_frames.push_back(f); };
  // The seed is pinned so that the game surely gives gifts: with the server's own seed, now and
  // then none of the moves played gave one, and the last check failed.
  const auto room =
      create_room(a, {{"seed", "e2e-gifts-hidden"}, {"expansions", {"gifts", "peasant_revolts"}}});
  join(a, room, "A");
  join(b, room, "B");
  spectate(s, room);
  table t{{&a, &b}, {&s}};
  t.rng.seed(5);
  t.start(a);
  t.play_to_end();
  const json& g = a.view["game"];
  REQUIRE(g["status"] == "finished");
  // Each seat's own view holds its hand, as many cards as the public count says.
  CHECK(a.view["game"]["hand"].size() == g["hand_sizes"][0]);
  CHECK(b.view["game"]["hand"].size() == g["hand_sizes"][1]);
  CHECK_FALSE(s.view["game"].contains("hand"));
  CHECK(g["gift_deck"].is_number_integer());
  int received = 0;
  for (const auto& f : spectator_frames) {
    CHECK(f.find("\"hand\"") == std::string::npos);
    const json j = json::parse(f);
    if (j.contains("events"))
      for (const auto& e : j["events"])
        if (e["type"] == "gift_received") {
          ++received;
          CHECK_FALSE(e.contains("card"));
        }
  }
  for (const auto& f : seat_frames) CHECK(keys_clean(json::parse(f)));
  MESSAGE("gifts received: " << received);
  CHECK(received > 0);
}
