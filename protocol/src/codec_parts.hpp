// Internal: the pieces every module's codec is made of (json_codec.cpp dispatches by move and
// event type through the table expansion_views.cpp builds from the registry's slots). A module's
// codec sits in its folder, protocol/src/expansions/<name>/, next to its view.
#pragma once
#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "carcassonne/engine/game.hpp"
#include "carcassonne/protocol/flat_object.hpp"
#include "carcassonne/protocol/json_codec.hpp"
#include "carcassonne/protocol/view_doc.hpp"

namespace carcassonne::protocol {

template <std::size_t N>
int find_name(const std::array<std::string_view, N>& names, std::string_view s) {
  for (std::size_t i = 0; i < N; ++i)
    if (names[i] == s) return static_cast<int>(i);
  return -1;
}

// Reads a move's keys; the first failure is kept (error) and later reads do nothing useful.
struct move_reader {
  const flat_object& move;
  proto_error error;
  bool failed = false;

  bool fail(std::string code, std::string message);
  bool has(const char* key) const;
  // A key's value when it is a list, an object or a fraction; null otherwise.
  const json* tree_member(const char* key) const;
  bool integer(const char* key, int lo, int hi, int& out);
  bool string(const char* key, std::string& out);
  bool boolean(const char* key, bool& out);  // optional, default false
  bool square(square_pos& out);
  // A feature id of the tile at `at`, as its local segment index.
  bool feature(const game_state& s, square_pos at, const char* key, std::uint8_t& out);
  bool figure(figure_type& out);  // optional, default meeple
};

// Writes a move's keys after "seat" and "type", in order, as JSON text. The text gathers in a
// buffer on the stack and goes to `out` in one append (flush): a legal-move list writes hundreds
// of these per patch, and an append per piece cost more than the writing.
struct move_writer {
  move_writer(const move& move, const game_state& state, std::string& text)
      : m(move), s(state), out(text) {}
  const move& m;
  const game_state& s;
  std::string& out;

  // Keys are literals: their lengths are known where they are written.
  void field(std::string_view key, std::string_view value_text);
  void number(std::string_view key, long long v);
  void square();                                     // "x", "y" of m.at
  std::string feature_id(std::uint8_t local) const;  // of the tile at m.at, as JSON text

  void open();   // `{"seat":N,"type":"..."`
  void close();  // `}`, and all of it to `out`

 private:
  void flush();
  char* room_for(std::size_t n);  // where n more bytes go in the buffer (flushed if need be)
  std::array<char, 160> buf_;     // not zeroed: only what is written is read
  std::size_t used_ = 0;
};

// One move type's codec: its keys read into m (a failure is recorded in r), and written.
struct move_codec {
  move_type type;
  void (*read)(move_reader& r, const game_state& s, move& m);
  void (*write)(move_writer& w);
};
// An event's keys as JSON text. They may be written in any order and come out sorted, as a
// JSON object's dump has always given them (nlohmann keeps keys in a std::map); each key is
// written once. Values are kept as text in one buffer: no tree, no allocation per
// key (a patch writes its events on every move).
class event_writer {
 public:
  void number(std::string_view key, long long v);
  void string(std::string_view key, std::string_view v);  // quoted, escaped
  void boolean(std::string_view key, bool v);
  void seats(std::string_view key, std::uint8_t bits);  // the seats of a bit set, as an array
  // The object: `{"key":value,...}` in key order. Starts a new object afterwards.
  void finish(std::string& out);

 private:
  struct entry {
    std::string_view key;  // a literal or a catalogue name: it outlives the writer's use
    std::uint32_t begin, end;
  };
  std::string& open(std::string_view key);  // the buffer to append the value's text to
  void close();
  std::array<entry, 16> entries_{};
  std::size_t count_ = 0;
  std::string values_;
};

// One event type's keys after "type" and "seat".
struct event_codec {
  event_type type;
  void (*write)(const event& e, event_writer& w);
};

// A random outcome that an apply revealed (docs/fairness.md, "The record"), with its place in
// the apply: the index of the event that revealed it plus one, 0 before every event (setup).
struct placed_outcome {
  std::size_t at = 0;
  json entry;
};
using placed_outcomes = std::vector<placed_outcome>;

// A module's codec: its moves, its events, its points reasons that belong to no feature (their
// points events carry no x, y, feature), and the random outcomes its events revealed: from
// `after`, the state the apply left, and its `events`, it appends its own entries to `out`
// (nullptr: it draws nothing).
struct expansion_codec {
  expansion id;
  std::span<const move_codec> moves;
  std::span<const event_codec> events;
  std::span<const points_reason> featureless_reasons;
  void (*outcomes)(const game_state& after, const event_log& events, bool setup,
                   placed_outcomes& out);
};
const expansion_codec* find_codec(expansion e);

// Shared by the base's codecs and the modules'.
void read_figure_move(move_reader& r, const game_state& s, move& m);  // figure, square, feature
void write_figure_move(move_writer& w);
void write_feature_at(const event& e, event_writer& w);  // x, y, feature, kind

}  // namespace carcassonne::protocol
