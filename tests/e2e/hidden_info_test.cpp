// Hidden information over sockets: with scripted decks of known tiles, no frame any seat or
// spectator receives shows the order of the tiles still to come, a deck, or a seed.
#include <algorithm>

#include "e2e_client.hpp"

using namespace e2e;

namespace {

// Every tile type of the base game (shared/reference/tiles.json).
const std::vector<std::string> base_tiles{
    "BA/L",   "BA/LR",   "BA/RCr", "BA/Cccc+", "BA/CccR+", "BA/CccR", "BA/CFc+", "BA/CFc.1",
    "BA/Cc.1", "BA/Cc+", "BA/CcRr", "BA/CcRr+", "BA/Ccc",  "BA/Ccc+", "BA/CRr",  "BA/CRRR",
    "BA/RrC", "BA/C",    "BA/CFC.2", "BA/CC.2", "BA/RRRR", "BA/RRR",  "BA/Rr",   "BA/RFr"};

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
      for (std::size_t i = d; i < std::min(d + 3, deck.size()); ++i)
        upcoming += (i > d ? "," : "") + json(deck[i]).dump();
      leak = frame.find(upcoming) != std::string::npos;
    }
    leak = leak || frame.find("\"deck\"") != std::string::npos || frame.find("\"seed\"") != std::string::npos ||
           !keys_clean(json::parse(frame));
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
