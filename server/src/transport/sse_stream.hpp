// The pieces of a room's Server-Sent Events stream (docs/protocol.md "Streams"), as plain
// functions: which request asks for one, how a spectator's frame becomes an event, and where a
// room held by another instance of a cluster streams from.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace carcassonne::server {

// "/api/rooms/{id}/events" (the path alone, no query) -> id; nothing for any other path.
std::optional<std::string> events_room(std::string_view path);

// The value of the top-level "type" member of a frame (a JSON object as the server writes it:
// one line), or "" when it has none. Nested objects' "type" members are skipped.
std::string_view frame_type(std::string_view frame);

// What goes before a frame's text in the stream: "event: {type}\ndata: " (a frame is one line,
// so it is one data line); "\n\n" follows the frame. A frame without a type is a "message".
std::string event_prefix(std::string_view type);

}  // namespace carcassonne::server
