// The outbound queues' fifo: order, compaction and what it keeps once empty.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "base/fifo.hpp"

using carcassonne::server::fifo;

TEST_CASE("fifo: items leave in the order they came, across compactions") {
  fifo<int> q;
  CHECK(q.empty());
  int next_in = 0, next_out = 0;
  // A bounded window of 32, as the room's cache of answers: push one, pop one, 200 times.
  for (; next_in < 32; ++next_in) q.push_back(next_in);
  for (int round = 0; round < 200; ++round) {
    q.push_back(next_in++);
    REQUIRE(q.front() == next_out);
    q.pop_front();
    ++next_out;
    REQUIRE(q.size() == 32);
  }
  int expected = next_out;
  for (const int v : q) CHECK(v == expected++);
  CHECK(expected == next_in);
  while (!q.empty()) {
    CHECK(q.front() == next_out++);
    q.pop_front();
  }
  CHECK(next_out == next_in);
}

TEST_CASE("fifo: a popped item is released at once") {
  fifo<std::shared_ptr<const std::string>> q;
  auto frame = std::make_shared<const std::string>("frame");
  q.push_back(frame);
  q.push_back(frame);
  CHECK(frame.use_count() == 3);
  q.pop_front();
  CHECK(frame.use_count() == 2);  // not kept in the vacated slot
  q.pop_front();
  CHECK(frame.use_count() == 1);
  CHECK(q.empty());
  q.emplace_back(frame);
  CHECK(*q.front() == "frame");
}

TEST_CASE("fifo: keep_first drops the items after the first n and releases them") {
  fifo<std::shared_ptr<const std::string>> q;
  auto frame = std::make_shared<const std::string>("frame");
  for (int i = 0; i < 20; ++i) q.push_back(frame);
  for (int i = 0; i < 17; ++i) q.pop_front();  // past a compaction: head is not at 0
  REQUIRE(q.size() == 3);
  q.push_back(std::make_shared<const std::string>("last"));
  q.keep_first(2);
  CHECK(q.size() == 2);
  CHECK(frame.use_count() == 3);  // two kept, plus `frame`
  q.keep_first(5);                // more than it holds: nothing changes
  CHECK(q.size() == 2);
  q.keep_first(0);
  CHECK(q.empty());
  CHECK(frame.use_count() == 1);
}
