// The pieces of a room's event stream (transport/sse_stream.hpp): the path that asks for one,
// the event name of a frame, and the owner's stream in a cluster.
#include <doctest/doctest.h>

#include "transport/sse_stream.hpp"

using namespace carcassonne::server;

TEST_CASE("sse stream: the path of a room's events") {
  CHECK(events_room("/api/rooms/b2565736d9/events") == std::optional<std::string>("b2565736d9"));
  CHECK_FALSE(events_room("/api/rooms//events"));
  CHECK_FALSE(events_room("/api/rooms/B25/events"));  // ids are lower-case letters and digits
  CHECK_FALSE(events_room("/api/rooms/a/b/events"));
  CHECK_FALSE(events_room("/api/rooms/b2565736d9/record"));
  CHECK_FALSE(events_room("/api/rooms/" + std::string(65, 'a') + "/events"));
}

TEST_CASE("sse stream: a frame's event is its top-level type") {
  CHECK(frame_type(R"({"room":"x","seq":3,"type":"patch","patch":[]})") == "patch");
  // A nested "type" (an event's) and a value that reads "type" are not the frame's.
  CHECK(frame_type(R"({"events":[{"type":"tile_placed"}],"room":"type","seq":4,"type":"patch"})") ==
        "patch");
  CHECK(frame_type(R"({"text":"say \"type\":\"x\"","type":"chat"})") == "chat");
  CHECK(frame_type(R"({"seq":1})").empty());
  CHECK(frame_type(R"({"type":)").empty());
  CHECK(event_prefix("snapshot") == "event: snapshot\ndata: ");
  CHECK(event_prefix("") == "event: message\ndata: ");
}
