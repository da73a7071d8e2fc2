// Refusals over real sockets (each an error frame with its code and the request's id, and no
// change to the room), and the graceful shutdown.
#include "e2e_client.hpp"

using namespace e2e;

namespace {

// Sends a request (with a fresh id) and checks that the answer is an error with that code.
json refused(ws_client& c, const json& message, const std::string& code) {
  auto r = c.request(message);
  CHECK_MESSAGE(r["type"] == "error", r.dump());
  CHECK_MESSAGE(r["code"] == code, r.dump());
  CHECK(r["message"].is_string());
  return r;
}

}  // namespace

TEST_CASE("e2e: refusals answer with an error code and the request's id, and change nothing") {
  test_server server;
  const auto port = server.port();
  ws_client a(port), b(port), s(port), lobby(port);
  const auto room = create_room(a, {{"seed", "e2e-errors"}});
  join(a, room, "A");
  join(b, room, "B");
  spectate(s, room);
  table t{{&a, &b}, {&s}};
  t.start(a);
  t.play(3);
  const int act = t.acting();
  ws_client& to_act = *t.seats[act];
  ws_client& waiting = *t.seats[1 - act];

  const auto seq = a.seq;
  const int patches_a = a.patches, patches_b = b.patches, patches_s = s.patches;
  const json view_b = b.view;

  // Malformed JSON: no id can be read back from it.
  for (auto* c : {&lobby, &waiting}) {
    c->send_text(R"({"type":"ping","id":42)");
    auto e = c->wait_type("error");
    CHECK(e["code"] == "bad_json");
    CHECK_FALSE(e.contains("id"));
  }
  auto e = refused(lobby, {{"type", "dance"}}, "unknown_type");
  CHECK(e["id"].is_number_integer());
  lobby.send({{"type", "move"}, {"id", "m-1"}, {"move", {{"type", "pass"}}}});
  CHECK(lobby.wait_reply("m-1")["code"] == "not_in_room");
  refused(lobby, {{"type", "join"}, {"room", "no-such-room"}, {"name", "L"}}, "no_such_room");
  refused(lobby, {{"type", "move"}, {"move", 5}}, "bad_message");

  // In the room: a spectator's move, a move out of turn, a move for another seat, illegal moves.
  const json legal = to_act.view["game"]["legal_moves"][0];
  refused(s, {{"type", "move"}, {"move", legal}}, "not_seated");
  json unsigned_move = legal;  // legal moves name their seat: without it, it is the sender's
  unsigned_move.erase("seat");
  refused(waiting, {{"type", "move"}, {"move", unsigned_move}}, "not_your_turn");
  refused(waiting, {{"type", "move"}, {"move", legal}}, "wrong_seat");
  json other_seat = legal;
  other_seat["seat"] = 1 - act;
  refused(to_act, {{"type", "move"}, {"move", other_seat}}, "wrong_seat");
  const auto awaiting = to_act.view["game"]["awaiting"]["decision"];
  if (awaiting == "place_tile") {
    refused(to_act,
            {{"type", "move"},
             {"move", {{"type", "place_tile"}, {"x", 40}, {"y", 40}, {"rotation", 0}}}},
            "square_not_open");
    refused(to_act,
            {{"type", "move"},
             {"move", {{"type", "place_tile"}, {"x", 1}, {"y", 0}, {"rotation", 45}}}},
            "bad_rotation");
  }
  refused(to_act, {{"type", "move"}, {"move", {{"type", "fly"}}}}, "malformed_move");
  refused(to_act, {{"type", "move"}, {"seq", seq + 5}, {"move", legal}}, "stale_sequence");
  refused(b, {{"type", "start"}}, "not_creator");
  refused(a, {{"type", "start"}}, "already_started");

  // A snapshot goes through the room after every refusal: a patch would have come before it.
  for (auto* c : {&a, &b, &s}) {
    auto snap = c->request({{"type", "snapshot"}});
    REQUIRE(snap["type"] == "snapshot");
    CHECK(snap["seq"] == seq);
    CHECK(c->view_before_snapshot == snap["view"]);
  }
  CHECK(a.patches == patches_a);
  CHECK(b.patches == patches_b);
  CHECK(s.patches == patches_s);
  CHECK(b.view == view_b);
  CHECK(server.get().stats().moves_accepted.load() == t.moves);

  // The legal move is still accepted afterwards.
  t.step();
  CHECK(a.seq == seq + 1);
}

TEST_CASE("e2e: graceful shutdown says goodbye, closes with 1001, and run() returns promptly") {
  test_server server;
  const auto port = server.port();
  ws_client a(port), b(port), s(port), lobby(port);
  const auto room = create_room(a, {{"seed", "e2e-shutdown"}});
  join(a, room, "A");
  join(b, room, "B");
  spectate(s, room);
  table t{{&a, &b}, {&s}};
  t.start(a);
  t.play(5);
  CHECK(lobby.request({{"type", "ping"}})["type"] == "pong");

  server.request_stop();
  for (auto* c : {&a, &b, &s, &lobby}) {
    auto bye = c->wait_type("goodbye");
    CHECK(bye["reason"].is_string());
    REQUIRE(c->wait_end());
    CHECK(c->end_error() == websocket::error::closed);
    CHECK(c->close_code() == static_cast<int>(websocket::close_code::going_away));
    CHECK_FALSE(c->gap);
  }
  const double took = server.wait_stopped();
  MESSAGE("run() returned " << took << " s after stop()");
  CHECK(took < 2.0);
}
