// A room's spectators (room/spectator_list.hpp): each connection once, found and removed in
// constant time, the last one moved into a removed one's place, the list the frames go to.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "fake_client.hpp"
#include "room/spectator_list.hpp"

namespace {

using namespace carcassonne::server;
using carcassonne::testing::fake_client;

std::vector<const client_link*> spectator_order(const spectator_list& l) {
  std::vector<const client_link*> out;
  for (const auto& c : l) out.push_back(c.get());
  return out;
}

}  // namespace

TEST_CASE("spectator_list: each connection once; a removal moves the last one into its place") {
  std::vector<client_ptr> c;
  for (int i = 0; i < 4; ++i) c.push_back(std::make_shared<fake_client>());
  spectator_list l;
  CHECK(l.empty());
  for (const auto& x : c) CHECK(l.add(x));
  CHECK_FALSE(l.add(c[1]));  // already watching: nothing changes
  CHECK_FALSE(l.add(nullptr));
  CHECK(l.size() == 4);
  CHECK(spectator_order(l) ==
        std::vector<const client_link*>{c[0].get(), c[1].get(), c[2].get(), c[3].get()});

  CHECK(l.remove(c[1].get()));
  CHECK_FALSE(l.remove(c[1].get()));  // gone already
  CHECK_FALSE(l.contains(c[1].get()));
  CHECK(spectator_order(l) == std::vector<const client_link*>{c[0].get(), c[3].get(), c[2].get()});
  // The moved one is found at its new place: removing it leaves the others.
  CHECK(l.remove(c[3].get()));
  CHECK(spectator_order(l) == std::vector<const client_link*>{c[0].get(), c[2].get()});
  CHECK(l.remove(c[2].get()));  // the last one: nothing moves
  CHECK(spectator_order(l) == std::vector<const client_link*>{c[0].get()});
  CHECK(l.all().size() == 1);
  CHECK(l.add(c[1]));  // back, at the end
  CHECK(spectator_order(l) == std::vector<const client_link*>{c[0].get(), c[1].get()});

  l.clear();
  CHECK(l.empty());
  CHECK_FALSE(l.contains(c[0].get()));
  CHECK(l.add(c[0]));
}

TEST_CASE("spectator_list: a crowd arriving and leaving in any order keeps every member once") {
  std::vector<client_ptr> crowd;
  for (int i = 0; i < 1000; ++i) crowd.push_back(std::make_shared<fake_client>());
  spectator_list l;
  for (const auto& x : crowd) CHECK(l.add(x));
  // A third leaves, scattered (7 and 1000 have no common factor: 334 different ones).
  std::vector<bool> left(crowd.size(), false);
  for (std::size_t i = 0; i < crowd.size(); i += 3) {
    const auto k = (i * 7) % crowd.size();
    CHECK(l.remove(crowd[k].get()));
    CHECK_FALSE(l.contains(crowd[k].get()));
    left[k] = true;
  }
  std::vector<const client_link*> stay;
  for (std::size_t k = 0; k < crowd.size(); ++k)
    if (!left[k]) stay.push_back(crowd[k].get());
  CHECK(stay.size() == 666);
  auto listed = spectator_order(l);
  CHECK(listed.size() == l.size());
  CHECK(listed.size() == stay.size());
  std::sort(listed.begin(), listed.end());
  std::sort(stay.begin(), stay.end());
  CHECK(listed == stay);
  for (const auto* x : stay) CHECK(l.remove(x));
  CHECK(l.empty());
}
