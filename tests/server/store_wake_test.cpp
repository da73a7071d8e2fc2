// The writer queue woken through the I/O threads (store::wake_through): the writes submitted
// before the wake-up runs share one transaction, and flush does not wait for a wake-up that a
// stopped I/O context would never run; the writer thread runs under SCHED_BATCH.
#include <doctest/doctest.h>
#include <sched.h>

#include <chrono>
#include <functional>
#include <future>
#include <string>
#include <vector>

#include "store/store.hpp"
#include "temp_dir.hpp"

using namespace carcassonne::server;
using carcassonne::server::test::temp_dir;

namespace {

struct woken_store {
  temp_dir dir;
  std::unique_ptr<store> db;
  std::vector<std::function<void()>> posted;  // the wake-ups, run when the test says

  woken_store() {
    std::string error;
    db = store::open({dir.db(), false}, error);
    REQUIRE_MESSAGE(db, error);
    db->wake_through([this](std::function<void()> f) { posted.push_back(std::move(f)); });
  }
  void save(const std::string& id, int& durable) {
    db->submit(save_room_write{id, room_state::waiting, "{}"}, [&durable](write_result r) {
      if (r) ++durable;
    });
  }
};

}  // namespace

TEST_CASE("the writes submitted before the wake-up runs are committed in one transaction") {
  woken_store s;
  int durable = 0;
  s.save("a", durable);
  s.save("b", durable);
  s.save("c", durable);
  REQUIRE(s.posted.size() == 1);     // one wake-up for the three
  CHECK(s.db->commits.load() == 0);  // the writer takes nothing before it
  s.posted[0]();
  s.db->flush();
  CHECK(durable == 3);
  CHECK(s.db->commits.load() == 1);
  CHECK(s.db->writes.load() == 3);

  // The next write needs a wake-up of its own.
  s.save("d", durable);
  REQUIRE(s.posted.size() == 2);
  s.posted[1]();
  s.db->flush();
  CHECK(durable == 4);
  CHECK(s.db->commits.load() == 2);
}

TEST_CASE("flush commits without the wake-up, which then finds nothing to do") {
  woken_store s;
  int durable = 0;
  s.save("a", durable);
  REQUIRE(s.posted.size() == 1);
  s.db->flush();  // as at shutdown, once the I/O context has stopped
  CHECK(durable == 1);
  CHECK(s.db->commits.load() == 1);
  s.posted[0]();  // late: no empty transaction
  s.db->flush();
  CHECK(s.db->commits.load() == 1);

  // Closing the store commits what is queued, wake-up or not.
  s.save("b", durable);
  s.db.reset();
  CHECK(durable == 2);
}

TEST_CASE("more writes than one transaction takes are all committed after one wake-up") {
  woken_store s;
  int durable = 0;
  constexpr int count = 4096 + 10;  // store.cpp's max_batch, and more
  std::promise<void> last;
  for (int i = 0; i + 1 < count; ++i) s.save("r" + std::to_string(i), durable);
  s.db->submit(save_room_write{"last", room_state::waiting, "{}"}, [&](write_result r) {
    if (r) ++durable;
    last.set_value();
  });
  REQUIRE(s.posted.size() == 1);
  s.posted[0]();
  // No flush (it would wake the writer itself): the rest must follow without another wake-up.
  REQUIRE(last.get_future().wait_for(std::chrono::seconds(60)) == std::future_status::ready);
  CHECK(durable == count);
  CHECK(s.db->commits.load() == 2);
}

TEST_CASE("the writer thread runs under SCHED_BATCH: woken, it does not preempt the I/O thread") {
  woken_store s;
  int policy = -1;  // read on the writer thread, where `done` runs
  s.db->submit(save_room_write{"a", room_state::waiting, "{}"},
               [&policy](write_result) { policy = sched_getscheduler(0); });
  REQUIRE(s.posted.size() == 1);
  s.posted[0]();
  s.db->flush();
  CHECK(policy == SCHED_BATCH);
  CHECK(sched_getscheduler(0) == SCHED_OTHER);  // the test's own thread is left as it was
}
