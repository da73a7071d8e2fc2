// The notification worker (notify/worker.hpp) with fake senders and a fake clock: a player's
// notices batched into one message per channel after the window, stale turns dropped, retries
// with a doubling wait, dead letters, gone push subscriptions removed, and each delivery made
// once across a restart of the worker (and a claim left by a worker that died).
#include <doctest/doctest.h>

#include <chrono>
#include <condition_variable>
#include <future>
#include <map>
#include <mutex>
#include <thread>

#include "notify/notify_store.hpp"
#include "notify/worker.hpp"
#include "store/store.hpp"
#include "temp_dir.hpp"

using namespace carcassonne::server;
using carcassonne::server::test::temp_dir;
using json = nlohmann::json;

namespace {

std::int64_t nw_wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// What the fake senders saw; each answers `answer` (settable per channel).
struct nw_fakes {
  std::mutex m;
  std::vector<notify::webhook_message> hooks;
  std::vector<std::string> hook_urls;
  std::vector<notify::push_message> pushes;
  std::vector<std::string> push_endpoints;
  std::vector<notify::mail> mails;
  notify::delivery::outcome hook_answer = notify::delivery::outcome::delivered;
  notify::delivery::outcome push_answer = notify::delivery::outcome::delivered;

  notify::senders senders() {
    notify::senders s;
    s.webhook = [this](const std::string& url, const std::string&,
                       const notify::webhook_message& msg) {
      std::lock_guard lock(m);
      hooks.push_back(msg);
      hook_urls.push_back(url);
      return notify::delivery{hook_answer,
                              hook_answer == notify::delivery::outcome::delivered ? 200 : 500, ""};
    };
    s.push = [this](const notify::push_subscription& sub, const notify::push_message& msg) {
      std::lock_guard lock(m);
      pushes.push_back(msg);
      push_endpoints.push_back(sub.endpoint);
      return notify::delivery{push_answer, 201, ""};
    };
    s.email = [this](const notify::mail& mail) {
      std::lock_guard lock(m);
      mails.push_back(mail);
      return notify::delivery{notify::delivery::outcome::delivered, 250, ""};
    };
    return s;
  }
};

struct nw_setup {
  temp_dir dir{"carcassonne-notify-worker"};
  std::unique_ptr<store> db;
  std::unique_ptr<notify::notify_store> notes;
  std::int64_t now = 0;
  nw_fakes fakes;

  nw_setup() {
    std::string error;
    db = store::open({dir.db(), true}, error);
    REQUIRE_MESSAGE(db, error);
    notes = notify::notify_store::open(dir.db(), error);
    REQUIRE_MESSAGE(notes, error);
    now = nw_wall_ms();
  }

  notify::worker_options options(const std::string& instance = "w1") {
    notify::worker_options o;
    o.batch_ms = 60'000;
    o.max_attempts = 3;
    o.backoff_ms = 30'000;
    o.send_threads = 1;
    o.instance = instance;
    o.page_url = "https://games.example";
    o.now_ms = [this] { return now; };
    o.unsubscribe_token = [](const std::string& p, const std::string& c, const std::string& k,
                             const std::string&) { return p + "." + c + "." + k; };
    return o;
  }

  // Room `room`: seat 1 (p2) to act since journal length `turn`, a your_turn for it.
  void turn(const std::string& room, std::int64_t turn, const std::string& clock = "correspondence",
            int acting = 1) {
    my_game g;
    g.name = "game " + room;
    g.state = "playing";
    g.seats = 2;
    g.acting = acting;
    g.turn = turn;
    g.clock = clock;
    g.seat_list = "[]";
    g.players = {{0, "p1"}, {1, "p2"}};
    save_room_write w{room, room_state::playing, "{}"};
    if (acting == 1)
      w.notices = {{"p2", "your_turn", room + ":" + std::to_string(turn) + ":your_turn:p2", room,
                    json{{"seat", 1}, {"turn", turn}, {"clock", clock}, {"name", g.name}}.dump()}};
    w.mine = g;
    db->submit(w, nullptr);
    db->flush();
  }

  void wants_webhook() {
    auto p = notify::preferences::defaults();
    p.webhook_url = "https://hooks.example/p2";
    p.webhook_secret = "s3cret";
    std::string error;
    REQUIRE(notes->save_prefs("p2", p, error));
  }

  std::int64_t count(const std::string& what) {
    std::string error;
    auto c = notes->delivery_counts(error);
    REQUIRE_MESSAGE(c, error);
    return c->count(what) ? c->at(what) : 0;
  }
};

}  // namespace

TEST_CASE(
    "notify worker: a player's turns wait for the window, then go as one message per channel") {
  nw_setup t;
  t.wants_webhook();
  std::string error;
  REQUIRE(t.notes->add_subscription(
      {"sub1", "p2", "https://push.example/a", "BKey", "auth", t.now, {}}, error));
  auto p = *t.notes->prefs("p2", error);
  p.email = "bob@example.org";
  REQUIRE(t.notes->save_prefs("p2", p, error));
  for (const char* room : {"ra", "rb", "rc"}) t.turn(room, 4);
  notify::worker w(*t.notes, t.fakes.senders(), t.options());

  t.now += 59'000;  // within the window of the oldest: nothing yet
  CHECK(w.round() == 0);
  CHECK(t.fakes.hooks.empty());
  t.now += 2'000;
  CHECK(w.round() == 3);  // webhook, push, e-mail: one each
  REQUIRE(t.fakes.hooks.size() == 1);
  REQUIRE(t.fakes.pushes.size() == 1);
  REQUIRE(t.fakes.mails.size() == 1);
  const auto body = json::parse(t.fakes.hooks[0].json_body);
  CHECK(body["events"].size() == 3);
  CHECK(body["events"][0]["kind"] == "your_turn");
  CHECK(body["events"][0]["url"] == "https://games.example/?room=ra");
  CHECK(t.fakes.hooks[0].event == "your_turn");
  CHECK(t.fakes.hooks[0].delivery_id == body["delivery"]);
  CHECK(t.fakes.hooks[0].delivery_id.size() == 32);
  CHECK(t.fakes.hook_urls[0] == "https://hooks.example/p2");
  // The push payload as the service worker reads it; its Topic is the delivery's id.
  const auto push = json::parse(t.fakes.pushes[0].plaintext);
  CHECK(push["kinds"] == json::array({"your_turn"}));
  CHECK(push["url"] == "/?room=ra");
  CHECK(push["unsubscribe"] == "/api/unsubscribe?token=p2.push.your_turn");
  CHECK(t.fakes.pushes[0].topic.size() == 32);
  CHECK(t.fakes.mails[0].to == "bob@example.org");
  CHECK(t.fakes.mails[0].unsubscribe_url ==
        "https://games.example/api/unsubscribe?token=p2.email.your_turn");
  CHECK(t.fakes.mails[0].message_id != t.fakes.hooks[0].delivery_id);  // one id per channel
  CHECK(w.delivered == 3);
  CHECK(t.count("deliveries_done") == 3);
  CHECK(w.round() == 0);  // nothing twice
}

TEST_CASE("notify worker: a turn already taken, or a real-time game's turn, is not told") {
  nw_setup t;
  t.wants_webhook();
  t.turn("ra", 4);
  t.turn("ra", 6, "correspondence", 0);  // p2 moved: seat 0 to act
  t.turn("rb", 2, "fischer");            // real time: off unless asked for
  notify::worker w(*t.notes, t.fakes.senders(), t.options());
  t.now += 61'000;
  CHECK(w.round() == 0);
  CHECK(t.fakes.hooks.empty());
  CHECK(t.count("notices_dropped") == 2);

  std::string error;
  auto p = *t.notes->prefs("p2", error);
  p.realtime_turns = true;
  REQUIRE(t.notes->save_prefs("p2", p, error));
  t.turn("rc", 2, "fischer");
  t.now += 61'000;
  CHECK(w.round() == 1);
  CHECK(t.fakes.hooks.size() == 1);
}

TEST_CASE("notify worker: retries wait 30 s, then 60 s; the third failure is a dead letter") {
  nw_setup t;
  t.wants_webhook();
  t.turn("ra", 4);
  t.fakes.hook_answer = notify::delivery::outcome::retry;
  notify::worker w(*t.notes, t.fakes.senders(), t.options());
  t.now += 61'000;
  CHECK(w.round() == 1);
  t.now += 29'000;
  CHECK(w.round() == 0);
  t.now += 1'000;
  CHECK(w.round() == 1);  // second attempt, 30 s after the first
  t.now += 59'000;
  CHECK(w.round() == 0);
  t.now += 1'000;
  CHECK(w.round() == 1);  // third, 60 s after the second
  CHECK(t.fakes.hooks.size() == 3);
  // The same delivery each time: a receiver that got one drops the others.
  CHECK(t.fakes.hooks[0].delivery_id == t.fakes.hooks[2].delivery_id);
  CHECK(w.dead == 1);
  CHECK(t.count("deliveries_dead") == 1);
  t.now += 86'400'000;
  CHECK(w.round() == 0);
}

TEST_CASE("notify worker: a push subscription its service calls gone is removed") {
  nw_setup t;
  std::string error;
  REQUIRE(t.notes->add_subscription(
      {"sub1", "p2", "https://push.example/a", "BKey", "auth", t.now, {}}, error));
  t.turn("ra", 4);
  t.fakes.push_answer = notify::delivery::outcome::gone;
  notify::worker w(*t.notes, t.fakes.senders(), t.options());
  t.now += 61'000;
  CHECK(w.round() == 1);
  CHECK(w.gone == 1);
  auto subs = t.notes->subscriptions("p2", error);
  REQUIRE(subs);
  CHECK(subs->empty());
  t.turn("rb", 2);  // nowhere to send it now
  t.now += 61'000;
  CHECK(w.round() == 0);
  CHECK(t.fakes.pushes.size() == 1);
}

TEST_CASE("notify worker: each delivery once across a restart and a claim left by a dead worker") {
  nw_setup t;
  t.wants_webhook();
  t.turn("ra", 4);
  {
    notify::worker first(*t.notes, t.fakes.senders(), t.options("w1"));
    t.now += 61'000;
    CHECK(first.round() == 1);
  }
  // The room's write replayed (a failover): its key is there, nothing new.
  t.turn("ra", 4);
  notify::worker second(*t.notes, t.fakes.senders(), t.options("w2"));
  t.now += 61'000;
  CHECK(second.round() == 0);
  CHECK(t.fakes.hooks.size() == 1);

  // An instance batched and claimed a delivery, then died before sending it: its claim runs
  // out, and another instance sends it, once.
  t.turn("rb", 4);
  t.now += 61'000;
  {
    notify::worker dying(*t.notes, t.fakes.senders(), t.options("dead"));
    std::string error;
    REQUIRE(dying.batch_due(error));
    auto claimed = t.notes->claim("dead", t.now, t.now + 120'000, 10, error);
    REQUIRE_MESSAGE(claimed, error);
    CHECK(claimed->size() == 1);
  }
  CHECK(second.round() == 0);  // still the dead instance's
  t.now += 120'000;
  CHECK(second.round() == 1);
  REQUIRE(t.fakes.hooks.size() == 2);
  CHECK(json::parse(t.fakes.hooks[1].json_body)["events"][0]["room"] == "rb");
  CHECK(second.round() == 0);
}

namespace {

// Three players' webhooks at a host that does not answer until the test lets it, one at another
// host; 4 senders, at most 2 per origin, `origin_queue` deliveries waiting in memory per origin.
void nw_slow_origin(int origin_queue) {
  nw_setup t;
  const std::map<std::string, std::string> hooks = {{"s1", "https://slow.example/a"},
                                                    {"s2", "https://slow.example/b"},
                                                    {"s3", "https://slow.example/c"},
                                                    {"f1", "https://fast.example/hook"}};
  std::string error;
  for (const auto& [player, url] : hooks) {
    auto p = notify::preferences::defaults();
    p.webhook_url = url;
    p.webhook_secret = "s3cret";
    REQUIRE(t.notes->save_prefs(player, p, error));
    my_game g;
    g.name = "game of " + player;
    g.state = "playing";
    g.seats = 2;
    g.acting = 1;
    g.turn = 2;
    g.clock = "correspondence";
    g.seat_list = "[]";
    g.players = {{0, "p1"}, {1, player}};
    const std::string room = "room-" + player;
    save_room_write w{room, room_state::playing, "{}"};
    w.notices = {{player, "your_turn", room + ":2:your_turn", room,
                  json{{"seat", 1}, {"turn", 2}, {"clock", "correspondence"}}.dump()}};
    w.mine = g;
    t.db->submit(w, nullptr);
  }
  t.db->flush();

  std::mutex m;
  std::condition_variable cv;
  bool open = false, fast_sent = false;
  int slow_now = 0, slow_most = 0, slow_calls = 0;
  notify::senders s;
  s.webhook = [&](const std::string& url, const std::string&, const notify::webhook_message&) {
    std::unique_lock lock(m);
    if (url.find("fast") != std::string::npos) {
      fast_sent = true;
      cv.notify_all();
      return notify::delivery{notify::delivery::outcome::delivered, 200, ""};
    }
    ++slow_calls;
    slow_most = std::max(slow_most, ++slow_now);
    cv.notify_all();
    cv.wait(lock, [&] { return open; });
    --slow_now;
    return notify::delivery{notify::delivery::outcome::delivered, 200, ""};
  };
  auto o = t.options();
  o.batch_ms = 0;
  o.send_threads = 4;
  o.per_origin = 2;
  o.origin_queue = origin_queue;
  notify::worker w(*t.notes, s, o);
  t.now += 1'000;  // the notices were written on the wall clock

  auto round = std::async(std::launch::async, [&] { return w.round(); });
  {
    // Two slow sends hang, the fast one is sent beside them, and the third slow one waits its
    // turn without an attempt.
    std::unique_lock lock(m);
    REQUIRE(
        cv.wait_for(lock, std::chrono::seconds(10), [&] { return slow_now == 2 && fast_sent; }));
  }
  if (origin_queue == 0)
    for (int i = 0; i < 10'000'000 && w.deferred.load() == 0; ++i) std::this_thread::yield();
  {
    std::lock_guard lock(m);
    CHECK(slow_calls == 2);
    open = true;
  }
  cv.notify_all();
  CHECK(round.get() == 4);
  CHECK(slow_most == 2);
  CHECK(w.retried.load() == 0);
  if (origin_queue > 0) {
    // The third waited in memory for a slot, and went as soon as one was free.
    CHECK(w.deferred.load() == 0);
    CHECK(slow_calls == 3);
    CHECK(t.count("deliveries_done") == 4);
    return;
  }
  // No room to wait in memory: the third waits a second in the table, and is not an attempt.
  CHECK(w.deferred.load() == 1);
  CHECK(slow_calls == 2);
  CHECK(t.count("deliveries_done") == 3);
  CHECK(t.count("deliveries_pending") == 1);
  CHECK(w.round() == 0);
  t.now += 1'000;
  CHECK(w.round() == 1);
  CHECK(slow_calls == 3);
  CHECK(t.count("deliveries_done") == 4);
  CHECK(w.retried.load() == 0);
}

}  // namespace

TEST_CASE("notify worker: a slow origin holds a few senders, and the others go on meanwhile") {
  SUBCASE("the next for a busy origin waits in memory") {
    nw_slow_origin(16);
  }
  SUBCASE("past the memory's queue, in the table") {
    nw_slow_origin(0);
  }
}
