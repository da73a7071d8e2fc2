// Vacation (docs/protocol.md §21 "Vacation"): the days rules, the clock that holds a seat, the
// match option, the players' table on both databases, and a correspondence room whose player goes
// on vacation (fake timer and a fake players' store: no sleeps).
#include <map>

#include "carcassonne/engine/forfeit.hpp"
#include "match_support.hpp"
#include "players/player_store.hpp"
#include "players/vacation.hpp"
#include "store_backends.hpp"

using namespace carcassonne;
using namespace carcassonne::server;
using namespace carcassonne::testing;

namespace {

constexpr std::int64_t vac_day = vacation_day_ms;
constexpr std::int64_t vac_2026 = 1'767'225'600'000;  // 2026-01-01T00:00:00Z

match_options vac_correspondence() {
  auto o = match_options_from_json(
      {{"clock", "correspondence"}, {"move_hours", 24}, {"timeout", "forfeit"}});
  REQUIRE(o.value);
  return *o.value;
}

// What the players' store says, as the lobby would: a map of vacation ends, answered at once.
struct vac_lookup {
  std::map<std::string, std::chrono::milliseconds> left;  // player -> vacation left from now
  int asked = 0;
  bool ok = true;
  seat_clocks::vacation_lookup fn() {
    return [this](const std::string& player, seat_clocks::vacation_answer done) {
      ++asked;
      const auto it = left.find(player);
      if (!ok) return done(std::nullopt, false);
      done(it == left.end() ? std::nullopt : std::optional(it->second), true);
    };
  }
};

// A started correspondence table whose seats are players "pa" and "pb".
struct vac_table {
  std::shared_ptr<server::test::fake_timer> timer = std::make_shared<server::test::fake_timer>();
  server::metrics stats;
  std::vector<std::shared_ptr<fake_client>> seats{make_client(), make_client()};
  std::shared_ptr<fake_client> watcher = make_client();
  std::unique_ptr<server::room> r;
  vac_lookup store;

  explicit vac_table(match_options o = vac_correspondence()) {
    r = std::make_unique<server::room>(match_settings(2, o), &stats, seats[0]);
    r->attach_timer(timer);
    r->attach_hooks({.vacation = store.fn()});
    r->join(seats[0], messages::join_as("Ann"), nullptr, "pa");
    r->join(seats[1], messages::join_as("Bob"), nullptr, "pb");
    r->start(seats[0], "start");
    REQUIRE(r->game() != nullptr);
    r->spectate(watcher, nullptr);
  }
  json clock(int who = 0) const { return seats.at(who)->view["room"]["clock"]; }
};

}  // namespace

TEST_CASE("vacation days: booked, counted per year, given back when ended early, refused past") {
  const int per_year = 21;
  vacation_row v = settle_vacation({}, vac_2026);
  CHECK(v.year == 2026);
  CHECK(vacation_days_left(v, per_year) == 21);
  CHECK(take_vacation(v, 0, per_year, vac_2026) == vacation_refusal::bad_days);
  CHECK(take_vacation(v, 22, per_year, vac_2026) == vacation_refusal::too_many_days);
  REQUIRE(take_vacation(v, 5, per_year, vac_2026) == vacation_refusal::none);
  CHECK(v.until_ms == vac_2026 + 5 * vac_day);
  CHECK(vacation_days_left(v, per_year) == 16);
  // Extended while under way: the end moves on.
  REQUIRE(take_vacation(v, 2, per_year, vac_2026 + vac_day) == vacation_refusal::none);
  CHECK(v.until_ms == vac_2026 + 7 * vac_day);
  CHECK(vacation_days_left(v, per_year) == 14);
  // Ended after 2.5 days: 3 days begun are used, 4 given back.
  end_vacation(v, vac_2026 + 5 * vac_day / 2);
  CHECK(v.until_ms == 0);
  CHECK(v.used_days == 3);
  CHECK(vacation_days_left(v, per_year) == 18);
  // One that runs out counts whole.
  const std::int64_t march = vac_2026 + 60 * vac_day;
  REQUIRE(take_vacation(v, 18, per_year, march) == vacation_refusal::none);
  CHECK(vacation_json(v, per_year, march) ==
        json{{"until_ms", march + 18 * vac_day}, {"days_left", 0}, {"days_per_year", 21}});
  v = settle_vacation(v, march + 18 * vac_day);
  CHECK(v.used_days == 21);
  CHECK_FALSE(on_vacation(v, march + 18 * vac_day));
  CHECK(take_vacation(v, 1, per_year, march + 19 * vac_day) == vacation_refusal::too_many_days);
  // A new calendar year gives the days again.
  v = settle_vacation(v, vac_2026 + 365 * vac_day);
  CHECK(v.year == 2027);
  CHECK(vacation_days_left(v, per_year) == 21);
  CHECK(vacation_year(vac_2026 - 1) == 2025);
  CHECK(vacation_year(951'782'400'000) == 2000);  // 2000-02-29
  // Ended within its first minute: a day is used all the same.
  vacation_row w = settle_vacation({}, vac_2026);
  REQUIRE(take_vacation(w, 3, per_year, vac_2026) == vacation_refusal::none);
  end_vacation(w, vac_2026 + 30'000);
  CHECK(w.used_days == 1);
}

TEST_CASE("vacation: the match option, on for correspondence clocks and refused for others") {
  auto o = vac_correspondence();
  CHECK(o.vacation_applies());
  CHECK(o.to_json()["vacation"] == true);
  CHECK(match_options_from_json(o.to_json()).value->vacation_applies());
  auto off = match_options_from_json({{"clock", "correspondence"}, {"vacation", false}});
  REQUIRE(off.value);
  CHECK_FALSE(off.value->vacation_applies());
  CHECK(off.value->to_json()["vacation"] == false);
  auto fischer = match_options_from_json({{"clock", "fischer"}});
  REQUIRE(fischer.value);
  CHECK_FALSE(fischer.value->vacation_applies());
  CHECK_FALSE(fischer.value->to_json().contains("vacation"));
  CHECK(match_options_from_json({{"clock", "fischer"}, {"vacation", false}}).value);
  CHECK(match_options_from_json({{"clock", "fischer"}, {"vacation", true}}).error.code ==
        "bad_match_options");
  CHECK(match_options_from_json({{"clock", "correspondence"}, {"vacation", 1}}).error.code ==
        "bad_match_options");
}

TEST_CASE("room clock: a held seat keeps its time, its deadline goes, and comes back later") {
  using tp = room_clock::time_point;
  room_clock c(vac_correspondence(), 2);
  tp now{};
  c.switch_to(0, now);
  now += std::chrono::hours(10);
  CHECK(c.deadline() == tp{} + std::chrono::hours(24));
  c.hold(0, true, now);  // 14 hours left when the vacation starts
  CHECK(c.held(0));
  CHECK_FALSE(c.counting());
  now += std::chrono::hours(100);
  CHECK(c.remaining(0, now) == std::chrono::hours(14));
  CHECK(c.view(now) == json{{"remaining_ms", {14 * 3'600'000, 24 * 3'600'000}},
                            {"running", 0},
                            {"vacation", json::array({0})}});
  std::string text;
  c.append_view(text, now);
  CHECK(text == c.view(now).dump());
  CHECK_FALSE(c.saved(now).contains("vacation"));  // asked of the store again after a restart
  c.hold(0, false, now);
  CHECK(c.counting());
  CHECK(c.deadline() == now + std::chrono::hours(14));  // the time it had, from now
  now += std::chrono::hours(4);
  CHECK(c.remaining(0, now) == std::chrono::hours(10));
  // A held seat that is not running: it shows, and its turn starts held.
  c.hold(1, true, now);
  c.switch_to(1, now);
  CHECK_FALSE(c.counting());
  CHECK(c.remaining(0, now) == std::chrono::hours(24));  // correspondence: a new turn, full time
  now += std::chrono::hours(48);
  CHECK(c.remaining(1, now) == std::chrono::hours(24));
  text.clear();
  c.append_view(text, now);
  CHECK(text == R"({"remaining_ms":[86400000,86400000],"running":1,"vacation":[1]})");
}

TEST_CASE("vacation in a room: no timeout while away, every view shows it, then the clock runs") {
  vac_table t;
  CHECK(t.store.asked == 2);  // at the start, each seated player
  const int first = to_act(*t.r->game());
  const std::string player = first == 0 ? "pa" : "pb";
  t.timer->advance(std::chrono::hours(20));  // 4 hours left
  t.r->vacation_changed(player, std::chrono::hours(24) * 7);
  CHECK(t.seats[0]->last("patch")["events"][0] ==
        json{{"type", "vacation_started"}, {"seat", first}});
  for (const auto& c : {t.seats[0], t.seats[1], t.watcher})
    CHECK(c->view["room"]["clock"]["vacation"] == json::array({first}));
  CHECK(t.clock()["remaining_ms"][first] == 4 * 3'600'000);
  t.timer->advance(std::chrono::hours(24) * 6);  // far past the deadline: nobody forfeits
  CHECK_FALSE(has_forfeited(*t.r->game(), static_cast<seat_t>(first)));
  CHECK(t.r->record()["moves"].empty());
  // Back early: the clock runs again with the 4 hours it had.
  t.r->vacation_changed(player, std::nullopt);
  CHECK(t.seats[1]->last("patch")["events"][0] ==
        json{{"type", "vacation_ended"}, {"seat", first}});
  CHECK_FALSE(t.clock().contains("vacation"));
  CHECK(t.clock()["remaining_ms"][first] == 4 * 3'600'000);
  t.timer->advance(std::chrono::hours(4) - std::chrono::seconds(1));
  CHECK_FALSE(has_forfeited(*t.r->game(), static_cast<seat_t>(first)));
  t.timer->advance(std::chrono::seconds(1));  // not on vacation: the store says so, it forfeits
  CHECK(has_forfeited(*t.r->game(), static_cast<seat_t>(first)));
  CHECK(t.r->game()->finished);
  check_replays(*t.r);
}

TEST_CASE("vacation in a room: a vacation that runs out lets the clock go at its end") {
  vac_table t;
  const int first = to_act(*t.r->game());
  const std::string player = first == 0 ? "pa" : "pb";
  t.r->vacation_changed(player, std::chrono::hours(48));
  t.timer->advance(std::chrono::hours(48));  // it ends by itself, told by nobody
  CHECK_FALSE(t.clock().contains("vacation"));
  CHECK(t.clock()["remaining_ms"][first] == 24 * 3'600'000);
  t.timer->advance(std::chrono::hours(24));
  CHECK(has_forfeited(*t.r->game(), static_cast<seat_t>(first)));
}

TEST_CASE(
    "vacation in a room: a deadline asks the store first; a vacation started elsewhere holds") {
  vac_table t;
  const int first = to_act(*t.r->game());
  const std::string player = first == 0 ? "pa" : "pb";
  const int asked = t.store.asked;
  // Started on another instance while this room was not told: the deadline finds it.
  t.store.left[player] = std::chrono::hours(72);
  t.timer->advance(std::chrono::hours(24));
  CHECK(t.store.asked == asked + 1);
  CHECK_FALSE(has_forfeited(*t.r->game(), static_cast<seat_t>(first)));
  CHECK(t.clock()["vacation"] == json::array({first}));
  CHECK(t.clock()["remaining_ms"][first] == 0);
  // The store cannot answer: nobody forfeits, the room asks again later.
  t.store.ok = false;
  t.store.left.erase(player);
  t.timer->advance(std::chrono::hours(72));  // the vacation ends: the time is still up
  CHECK_FALSE(has_forfeited(*t.r->game(), static_cast<seat_t>(first)));
  t.timer->advance(std::chrono::minutes(5));
  CHECK_FALSE(has_forfeited(*t.r->game(), static_cast<seat_t>(first)));
  t.store.ok = true;
  t.timer->advance(std::chrono::seconds(30));
  CHECK(has_forfeited(*t.r->game(), static_cast<seat_t>(first)));
}

TEST_CASE("vacation in a room: not in a room that refuses it, nor with another clock") {
  auto o = vac_correspondence();
  o.vacation = false;
  vac_table t(o);
  CHECK(t.store.asked == 0);
  const int first = to_act(*t.r->game());
  t.store.left[first == 0 ? "pa" : "pb"] = std::chrono::hours(72);
  t.r->vacation_changed(first == 0 ? "pa" : "pb", std::chrono::hours(72));
  CHECK_FALSE(t.clock().contains("vacation"));
  t.timer->advance(std::chrono::hours(24));
  CHECK(has_forfeited(*t.r->game(), static_cast<seat_t>(first)));
}

TEST_CASE("vacation in a room: a player already on vacation at the start is held from the start") {
  auto timer = std::make_shared<server::test::fake_timer>();
  server::metrics stats;
  auto a = make_client(), b = make_client();
  vac_lookup store;
  store.left["pb"] = std::chrono::hours(30);
  server::room r(match_settings(2, vac_correspondence()), &stats, a);
  r.attach_timer(timer);
  r.attach_hooks({.vacation = store.fn()});
  r.join(a, messages::join_as("Ann"), nullptr, "pa");
  r.join(b, messages::join_as("Bob"), nullptr, "pb");
  r.start(a, "start");
  CHECK(a->view["room"]["clock"]["vacation"] == json::array({1}));
}

TEST_CASE("player store: a vacation row, read and changed in a transaction, on both databases") {
  for (const auto& backend : store_backends()) {
    INFO("store: " << backend.name);
    std::string error;
    auto s = player_store::open(backend.fresh(), error);
    REQUIRE_MESSAGE(s, error);
    auto none = s->vacation("p0000000000000001", error);
    REQUIRE_MESSAGE(none, error);
    CHECK(*none == vacation_row{});
    const vacation_row want{2026, 3, vac_2026, vac_2026 + 4 * vac_day};
    CHECK(s->update_vacation(
        "p0000000000000001", [&](vacation_row& v) { return v = want, true; }, error));
    CHECK(*s->vacation("p0000000000000001", error) == want);
    // A change that declines writes nothing.
    CHECK(s->update_vacation(
        "p0000000000000001", [](vacation_row& v) { return v.used_days = 9, false; }, error));
    CHECK(s->vacation("p0000000000000001", error)->used_days == 3);
    CHECK(s->update_vacation(
        "p0000000000000001", [](vacation_row& v) { return v.until_ms = 0, true; }, error));
    CHECK(s->vacation("p0000000000000001", error)->until_ms == 0);
    CHECK(s->vacation("p0000000000000002", error)->year == 0);
  }
}
