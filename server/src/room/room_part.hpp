// The room part of every view (docs/protocol.md "The view document", `room`), as the text last
// sent: each change is diffed against it as text (a tree of it costs ~2 KB a room), and where it
// holds the clock is known, so that a move that changes only the clock is diffed under
// /room/clock. Also its keys that never change, written once. Room-strand only.
#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "room/room_settings.hpp"

namespace carcassonne::server {

class room_part {
 public:
  // Where a text holds the clock's value: [begin, end), or empty.
  struct clock_span {
    std::uint32_t begin = 0, end = 0;
  };
  using time_point = std::chrono::steady_clock::time_point;

  explicit room_part(const room_settings& s);

  // Its keys that never change, from "id" to "public" ("match" among them), without braces.
  const std::string& fixed_text() const { return fixed_; }
  // Its "expansions" value.
  const std::string& expansions_text() const { return expansions_; }

  // The text last sent.
  const std::string& text() const { return text_; }
  // Replaced without a diff, where its clock is not known (the next change diffs it whole);
  // `clock_read`: when its clock was read, if it has one.
  void reset(std::string text, std::optional<time_point> clock_read);
  // Makes `now` (its clock at `clock`, read at `clock_read`) the text sent; the operations that
  // turn the last one into it, as json::diff makes them under "/room", are appended to `ops`
  // (empty before). False, with nothing done, when nothing changed.
  bool update(std::string now, clock_span clock, std::optional<time_point> clock_read,
              std::string& ops);
  // When the clock of text() was read (none: it has no clock): a snapshot says how long ago.
  std::optional<time_point> clock_read_at() const { return clock_read_; }

 private:
  std::string fixed_, expansions_;
  std::string text_;
  clock_span clock_;
  std::optional<time_point> clock_read_;
};

}  // namespace carcassonne::server
