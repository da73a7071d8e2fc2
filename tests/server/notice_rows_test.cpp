// What a room writes for the notifications (room/notice_rows.hpp), without a room: the notices
// and "my games" rows each write carries, fed the room's moments as values.
#include <doctest/doctest.h>

#include <string>
#include <variant>

#include "room/notice_rows.hpp"

namespace {

using carcassonne::server::my_game;
using carcassonne::server::notice_rows;
using carcassonne::server::save_room_write;
using carcassonne::server::store_write;
using carcassonne::server::time_control;

// Two seats: seat 0 alice's account, seat 1 a guest.
my_game rows_of_two(int acting) {
  my_game g;
  g.name = "Table";
  g.state = "playing";
  g.seats = 2;
  g.acting = acting;
  g.clock = "fischer";
  g.seat_list = R"([{"name":"Alice","player":"alice"},{"name":"Bob","player":null}])";
  g.players = {{0, "alice"}};
  return g;
}

notice_rows::moment moment_at(int acting, std::int64_t moves, bool over = false) {
  notice_rows::moment m;
  m.acting = acting;
  m.over = over;
  m.stored_moves = moves;
  m.now_ms = 1700000000000;
  return m;
}

save_room_write& saved(store_write& w) {
  return std::get<save_room_write>(w);
}

}  // namespace

TEST_CASE("notice_rows: a notice names its event in its key, and says where it comes from") {
  notice_rows rows("r1", "Table", time_control::fischer);
  rows.add("alice", 1, "undo_requested", "12", 12);
  CHECK_FALSE(rows.empty());
  store_write w = save_room_write{};
  rows.fill(w, moment_at(-1, 12), my_game{});
  REQUIRE(saved(w).notices.size() == 1);
  const auto& n = saved(w).notices[0];
  CHECK(n.player == "alice");
  CHECK(n.kind == "undo_requested");
  CHECK(n.key == "r1:12:undo_requested:alice");
  CHECK(n.room == "r1");
  CHECK(n.data == R"({"clock":"fischer","name":"Table","seat":1,"turn":12})");
  CHECK(rows.empty());         // written once
  CHECK_FALSE(saved(w).mine);  // no account seated, none written before: no rows
}

TEST_CASE(
    "notice_rows: your_turn when the decision passes to an account's seat, rows as they change") {
  notice_rows rows("r1", "Table", time_control::correspondence);
  store_write w = save_room_write{};
  rows.fill(w, moment_at(0, 4), rows_of_two(0));
  REQUIRE(saved(w).notices.size() == 1);
  CHECK(saved(w).notices[0].key == "r1:4:your_turn:alice");
  CHECK(saved(w).notices[0].data ==
        R"({"clock":"correspondence","name":"Table","seat":0,"turn":4})");
  REQUIRE(saved(w).mine);
  CHECK(saved(w).mine->turn == 4);
  CHECK(saved(w).mine->updated_ms == 1700000000000);
  CHECK(rows.turn_since() == 4);

  // The same seat's next decision (its meeple): no notice, rows unchanged.
  store_write again = save_room_write{};
  rows.fill(again, moment_at(0, 5), rows_of_two(0));
  CHECK(saved(again).notices.empty());
  CHECK_FALSE(saved(again).mine);
  CHECK(rows.turn_since() == 4);

  // The guest's turn: nobody to tell, the rows change (acting and turn).
  store_write guest = save_room_write{};
  rows.fill(guest, moment_at(1, 6), rows_of_two(1));
  CHECK(saved(guest).notices.empty());
  REQUIRE(saved(guest).mine);
  CHECK(saved(guest).mine->acting == 1);
  CHECK(saved(guest).mine->turn == 6);
}

TEST_CASE("notice_rows: game_over once to every account, and nothing a rebuilt room told before") {
  notice_rows rows("r9", "Final", time_control::none);
  store_write end = save_room_write{};
  auto over = rows_of_two(-1);
  over.players = {{0, "alice"}, {1, "bob"}};
  rows.fill(end, moment_at(-1, 30, true), over);
  REQUIRE(saved(end).notices.size() == 2);
  CHECK(saved(end).notices[0].key == "r9:end:game_over:alice");
  CHECK(saved(end).notices[1].key == "r9:end:game_over:bob");
  CHECK(saved(end).notices[1].data == R"({"clock":"none","name":"Final","seat":1,"turn":30})");
  store_write later = save_room_write{};
  rows.fill(later, moment_at(-1, 30, true), over);
  CHECK(saved(later).notices.empty());

  // Rebuilt from the store at the same point: neither the turn nor the end is told again.
  notice_rows rebuilt("r9", "Final", time_control::none);
  rebuilt.restored(0, 17, false);
  store_write w = save_room_write{};
  rebuilt.fill(w, moment_at(0, 17), rows_of_two(0));
  CHECK(saved(w).notices.empty());
  CHECK(rebuilt.turn_since() == 17);
}

TEST_CASE("notice_rows: a delete carries nothing and keeps the queue") {
  notice_rows rows("r1", "Table", time_control::none);
  rows.add("alice", 0, "rematch_offered", "rematch", 3);
  store_write w = carcassonne::server::delete_room_write{};
  rows.fill(w, moment_at(0, 3), rows_of_two(0));
  CHECK(std::holds_alternative<carcassonne::server::delete_room_write>(w));
  CHECK_FALSE(rows.empty());
  store_write next = save_room_write{};
  rows.fill(next, moment_at(0, 3), rows_of_two(0));
  REQUIRE(saved(next).notices.size() == 2);  // the queued one, then the turn's
  CHECK(saved(next).notices[0].key == "r1:rematch:rematch_offered:alice");
  CHECK(saved(next).notices[1].key == "r1:3:your_turn:alice");
}
