// The competition store (competition/competition_store.hpp) on both databases: documents saved
// whole under a version fence, read back, listed unfinished, newest first, and by player.
#include <doctest/doctest.h>

#include "competition/competition_store.hpp"
#include "store_backends.hpp"

using carcassonne::server::competition::competition_doc;
using carcassonne::server::competition::competition_store;
using carcassonne::testing::store_backends;

namespace {

std::unique_ptr<competition_store> cs_open(const std::string& location) {
  std::string error;
  auto s = competition_store::open(location, error);
  REQUIRE_MESSAGE(s, error);
  return s;
}

competition_doc cs_doc(const std::string& id, const std::string& kind, std::uint64_t version,
                       std::int64_t updated_ms, std::vector<std::string> players) {
  competition_doc d;
  d.id = id;
  d.kind = kind;
  d.state = R"({"id":")" + id + R"(","v":)" + std::to_string(version) + "}";
  d.version = version;
  d.updated_ms = updated_ms;
  d.players = std::move(players);
  return d;
}

competition_store::saved cs_save(competition_store& s, const competition_doc& d) {
  std::string error;
  const auto r = s.save(d, error);
  if (r == competition_store::saved::failed) FAIL_CHECK(error);
  return r;
}

std::vector<std::string> cs_ids(const std::optional<std::vector<competition_doc>>& docs) {
  REQUIRE(docs);
  std::vector<std::string> out;
  for (const auto& d : *docs) out.push_back(d.id);
  return out;
}

}  // namespace

TEST_CASE("competition store: a document is saved, read back and rewritten under its version") {
  using saved = competition_store::saved;
  for (const auto& backend : store_backends()) {
    INFO("store: " << backend.name);
    const auto location = backend.fresh();
    auto s = cs_open(location);
    std::string error;
    CHECK_FALSE(s->load("t1", error));
    CHECK(error.empty());  // not found is no failure

    auto d = cs_doc("t1", "tournament", 1, 1000, {"p2", "p1", "p2"});
    CHECK(cs_save(*s, d) == saved::yes);
    auto back = s->load("t1", error);
    REQUIRE_MESSAGE(back, error);
    d.players = {"p1", "p2"};  // each once, in id order
    CHECK(*back == d);

    // A second first save (another instance made it too) is stale and changes nothing.
    auto other = cs_doc("t1", "tournament", 1, 1500, {"p9"});
    CHECK(cs_save(*s, other) == saved::stale);
    CHECK(*s->load("t1", error) == d);

    // Version 2 over 1; then 2 again, or 4, is stale.
    auto d2 = cs_doc("t1", "tournament", 2, 2000, {"p3", "p1"});
    d2.finished = true;
    CHECK(cs_save(*s, d2) == saved::yes);
    CHECK(cs_save(*s, cs_doc("t1", "tournament", 2, 2500, {})) == saved::stale);
    CHECK(cs_save(*s, cs_doc("t1", "tournament", 4, 2500, {})) == saved::stale);
    back = s->load("t1", error);
    REQUIRE(back);
    CHECK(back->version == 2);
    CHECK(back->finished);
    CHECK(back->updated_ms == 2000);
    CHECK(back->state == d2.state);
    CHECK(back->players == std::vector<std::string>{"p1", "p3"});  // replaced, not added

    // Version 0 is no version; a version past 1 of an unknown document is stale.
    CHECK(s->save(cs_doc("t2", "series", 0, 1, {}), error) == saved::failed);
    CHECK_FALSE(error.empty());
    error.clear();
    CHECK(cs_save(*s, cs_doc("t3", "series", 2, 1, {})) == saved::stale);
    CHECK_FALSE(s->load("t3", error));

    // A second connection (another instance) sees the same and is fenced the same.
    auto s2 = cs_open(location);
    CHECK(*s2->load("t1", error) == *back);
    CHECK(cs_save(*s2, cs_doc("t1", "tournament", 3, 3000, {"p1"})) == saved::yes);
    CHECK(cs_save(*s, cs_doc("t1", "tournament", 3, 3100, {"p1"})) == saved::stale);
    CHECK(s->load("t1", error)->updated_ms == 3000);
  }
}

TEST_CASE("competition store: unfinished oldest first, recent newest first, a player's pages") {
  for (const auto& backend : store_backends()) {
    INFO("store: " << backend.name);
    auto s = cs_open(backend.fresh());
    std::string error;
    cs_save(*s, cs_doc("s1", "series", 1, 500, {"ann", "bob"}));
    cs_save(*s, cs_doc("t1", "tournament", 1, 100, {"ann", "cat"}));
    cs_save(*s, cs_doc("t2", "tournament", 1, 300, {"bob"}));
    cs_save(*s, cs_doc("t3", "tournament", 1, 200, {"ann"}));
    auto t4 = cs_doc("t4", "tournament", 1, 50, {"ann", "bob"});
    t4.finished = true;
    cs_save(*s, t4);
    // t1 rewritten later: it is the newest now.
    cs_save(*s, cs_doc("t1", "tournament", 2, 400, {"ann", "cat"}));

    CHECK(cs_ids(s->unfinished("tournament", error)) == std::vector<std::string>{"t3", "t2", "t1"});
    CHECK(cs_ids(s->unfinished("series", error)) == std::vector<std::string>{"s1"});
    CHECK(cs_ids(s->unfinished("other", error)).empty());
    const auto all = s->unfinished("tournament", error);
    REQUIRE(all);
    CHECK(all->back().players == std::vector<std::string>{"ann", "cat"});
    CHECK(all->back().version == 2);

    CHECK(cs_ids(s->recent("tournament", 10, 0, error)) ==
          std::vector<std::string>{"t1", "t2", "t3", "t4"});
    CHECK(cs_ids(s->recent("tournament", 2, 0, error)) == std::vector<std::string>{"t1", "t2"});
    CHECK(cs_ids(s->recent("tournament", 2, 2, error)) == std::vector<std::string>{"t3", "t4"});
    CHECK(cs_ids(s->recent("tournament", 2, 4, error)).empty());
    const auto finished = s->recent("tournament", 1, 3, error);
    REQUIRE(finished);
    REQUIRE(finished->size() == 1);
    CHECK(finished->front().finished);

    CHECK(cs_ids(s->of_player("ann", 10, 0, error)) ==
          std::vector<std::string>{"s1", "t1", "t3", "t4"});
    CHECK(cs_ids(s->of_player("ann", 3, 1, error)) == std::vector<std::string>{"t1", "t3", "t4"});
    CHECK(cs_ids(s->of_player("ann", 1, 3, error)) == std::vector<std::string>{"t4"});
    CHECK(cs_ids(s->of_player("bob", 10, 0, error)) == std::vector<std::string>{"s1", "t2", "t4"});
    CHECK(cs_ids(s->of_player("nobody", 10, 0, error)).empty());
    const auto of_cat = s->of_player("cat", 10, 0, error);
    REQUIRE(of_cat);
    REQUIRE(of_cat->size() == 1);
    CHECK(of_cat->front().players == std::vector<std::string>{"ann", "cat"});
    CHECK(of_cat->front().state == cs_doc("t1", "tournament", 2, 400, {}).state);
    CHECK(error.empty());
  }
}
