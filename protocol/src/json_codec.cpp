#include "carcassonne/protocol/json_codec.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>
#include <stdexcept>

#include "carcassonne/engine/forfeit.hpp"
#include "carcassonne/protocol/view_doc.hpp"
#include "codec_parts.hpp"
#include "plain_json.hpp"

namespace carcassonne::protocol {

using namespace std::string_view_literals;

bool move_reader::fail(std::string code, std::string message) {
  if (!failed) error = {std::move(code), std::move(message)};
  failed = true;
  return false;
}
namespace {
// A key's value in either form: its kind, and the integer or the text.
struct member_value {
  bool present = false;
  bool is_integer = false, is_string = false, is_boolean = false;
  long long number = 0;
  std::string_view text;  // a string's, or "true"/"false"
};
member_value value_of(const move_reader& r, const char* key) {
  member_value v;
  if (r.flat) {
    const auto* m = r.flat->find(key);
    if (!m) return v;
    v.present = true;
    v.is_integer = m->type == flat_object::kind::integer;
    v.is_string = m->type == flat_object::kind::string;
    v.is_boolean = m->type == flat_object::kind::boolean;
    v.number = m->number;
    v.text = r.flat->text(*m);
    return v;
  }
  const auto it = r.tree->find(key);
  if (it == r.tree->end()) return v;
  v.present = true;
  v.is_integer = it->is_number_integer();
  v.is_string = it->is_string();
  v.is_boolean = it->is_boolean();
  if (v.is_integer) v.number = it->get<long long>();
  if (v.is_string) v.text = it->get_ref<const std::string&>();
  if (v.is_boolean) v.text = it->get<bool>() ? "true" : "false";
  return v;
}
}  // namespace

bool move_reader::has(const char* key) const {
  return flat ? flat->find(key) != nullptr : tree->contains(key);
}
const json* move_reader::tree_member(const char* key) const {
  if (flat) return nullptr;
  const auto it = tree->find(key);
  return it == tree->end() ? nullptr : &*it;
}
bool move_reader::integer(const char* key, int lo, int hi, int& out) {
  const auto v = value_of(*this, key);
  if (!v.is_integer) return fail("malformed_move", std::string("'") + key + "' must be an integer");
  if (v.number < lo || v.number > hi)
    return fail("malformed_move", std::string("'") + key + "' is out of range");
  out = static_cast<int>(v.number);
  return true;
}
bool move_reader::string(const char* key, std::string& out) {
  const auto v = value_of(*this, key);
  if (!v.is_string) return fail("malformed_move", std::string("'") + key + "' must be a string");
  out = v.text;
  return true;
}
bool move_reader::boolean(const char* key, bool& out) {
  const auto v = value_of(*this, key);
  if (!v.present) return true;  // optional, default false
  if (!v.is_boolean) return fail("malformed_move", std::string("'") + key + "' must be a boolean");
  out = v.text == "true";
  return true;
}
bool move_reader::square(square_pos& out) {
  constexpr int lim = std::numeric_limits<std::int16_t>::max();
  int x = 0, y = 0;
  if (!integer("x", -lim, lim, x) || !integer("y", -lim, lim, y)) return false;
  out = {static_cast<std::int16_t>(x), static_cast<std::int16_t>(y)};
  return true;
}
bool move_reader::feature(const game_state& s, square_pos at, const char* key, std::uint8_t& out) {
  std::string id;
  if (!string(key, id)) return false;
  const int t = s.board.tile_at(at);
  if (t < 0)
    return fail("unknown_feature",
                "no tile at (" + std::to_string(at.x) + "," + std::to_string(at.y) + ")");
  const auto idx = tiles()[s.board.placed()[t].type].segment_index(id);
  if (!idx) return fail("unknown_feature", "the tile at that square has no feature '" + id + "'");
  out = static_cast<std::uint8_t>(*idx);
  return true;
}
bool move_reader::figure(figure_type& out) {
  std::string name = "meeple";
  if (has("figure") && !string("figure", name)) return false;
  const auto f = find_figure_type(name);
  if (!f) return fail("malformed_move", "unknown figure '" + name + "'");
  out = *f;
  return true;
}

char* move_writer::room_for(std::size_t n) {
  if (used_ + n > buf_.size()) flush();
  return buf_.data() + used_;
}
void move_writer::open() {
  const auto type = move_type_name(m.type);  // a plain identifier: nothing to escape
  constexpr auto seat = R"({"seat":)"sv, type_key = R"(,"type":")"sv;
  char* p = room_for(seat.size() + 4 + type_key.size() + type.size() + 1);
  p = std::copy(seat.begin(), seat.end(), p);
  p = std::to_chars(p, p + 4, static_cast<int>(m.seat)).ptr;
  p = std::copy(type_key.begin(), type_key.end(), p);
  p = std::copy(type.begin(), type.end(), p);
  *p++ = '"';
  used_ = static_cast<std::size_t>(p - buf_.data());
}
void move_writer::close() {
  *room_for(1) = '}';
  ++used_;
  flush();
}
void move_writer::flush() {
  out.append(buf_.data(), used_);
  used_ = 0;
}
namespace {
// `,"key":` at p; returns the end.
char* put_key(char* p, std::string_view key) {
  *p++ = ',';
  *p++ = '"';
  p = std::copy(key.begin(), key.end(), p);
  *p++ = '"';
  *p++ = ':';
  return p;
}
}  // namespace

void move_writer::field(std::string_view key, std::string_view value_text) {
  if (key.size() + value_text.size() + 4 > buf_.size()) {  // never for a move's keys
    flush();
    out.append(",\"").append(key).append("\":").append(value_text);
    return;
  }
  char* p = put_key(room_for(key.size() + value_text.size() + 4), key);
  p = std::copy(value_text.begin(), value_text.end(), p);
  used_ = static_cast<std::size_t>(p - buf_.data());
}
void move_writer::number(std::string_view key, long long v) {
  if (key.size() + 24 > buf_.size()) return field(key, std::to_string(v));
  char* p = put_key(room_for(key.size() + 24), key);
  used_ = static_cast<std::size_t>(std::to_chars(p, p + 20, v).ptr - buf_.data());
}
void move_writer::square() {
  number("x", m.at.x);
  number("y", m.at.y);
}
std::string move_writer::feature_id(std::uint8_t local) const {
  const int t = s.board.tile_at(m.at);
  if (t < 0) return json_string("");
  return json_string(tiles()[s.board.placed()[t].type].segments.at(local).id);
}

void read_figure_move(move_reader& r, const game_state& s, move& m) {
  r.figure(m.figure) && r.square(m.at) && r.feature(s, m.at, "feature", m.feature) &&
      r.boolean("protect", m.protect);
}
void write_figure_move(move_writer& w) {
  w.field("figure", json_string(figure_type_name(w.m.figure)));
  w.square();
  w.field("feature", w.feature_id(w.m.feature));
  if (w.m.protect) w.field("protect", "true");
}

void write_feature_at(const event& e, event_writer& w) {
  w.number("x", e.at.x);
  w.number("y", e.at.y);
  w.string("feature", tiles()[e.tile].segments.at(e.feature).id);
  w.string("kind", feature_kind_names[static_cast<int>(e.kind)]);
}

std::string& event_writer::open(std::string_view key) {
  if (count_ == entries_.size()) throw std::logic_error("an event with too many keys");
  entries_[count_] = {key, static_cast<std::uint32_t>(values_.size()), 0};
  return values_;
}
void event_writer::close() {
  entries_[count_++].end = static_cast<std::uint32_t>(values_.size());
}
void event_writer::number(std::string_view key, long long v) {
  append_number(open(key), v);
  close();
}
void event_writer::string(std::string_view key, std::string_view v) {
  append_quoted(open(key), v);
  close();
}
void event_writer::boolean(std::string_view key, bool v) {
  open(key) += v ? "true" : "false";
  close();
}
void event_writer::seats(std::string_view key, std::uint8_t bits) {
  auto& out = open(key);
  out.push_back('[');
  bool first = true;
  for (int s = 0; s < max_seats; ++s) {
    if (!(bits >> s & 1)) continue;
    if (!first) out.push_back(',');
    first = false;
    append_number(out, s);
  }
  out.push_back(']');
  close();
}
void event_writer::finish(std::string& out) {
  // Sorted by insertion: a handful of keys, mostly written in order already.
  std::size_t size = 2 + values_.size();  // the braces and the values
  for (std::size_t i = 0; i < count_; ++i) {
    const entry e = entries_[i];
    std::size_t j = i;
    for (; j > 0 && e.key < entries_[j - 1].key; --j) entries_[j] = entries_[j - 1];
    entries_[j] = e;
    size += e.key.size() + 4;  // its quotes, colon and comma
  }
  // Written in place, in one piece: a push_back or append per part cost twice as much.
  const std::size_t at = out.size();
  out.resize(at + size);
  char* p = out.data() + at;
  *p++ = '{';
  for (std::size_t i = 0; i < count_; ++i) {
    const auto& e = entries_[i];
    if (i) *p++ = ',';
    *p++ = '"';
    p = std::copy(e.key.begin(), e.key.end(), p);  // keys are plain identifiers
    *p++ = '"';
    *p++ = ':';
    p = std::copy(values_.data() + e.begin, values_.data() + e.end, p);
  }
  *p++ = '}';
  out.resize(static_cast<std::size_t>(p - out.data()));
  count_ = 0;
  values_.clear();
}

json to_json(const proto_error& e) {
  return {{"code", e.code}, {"message", e.message}};
}

proto_error apply_json_move(game_state& s, const json& j, event_log* events) {
  if (j.is_object() && j.value("type", json()) == "forfeit") {  // a record entry, not a move
    move_reader r{&j};
    int seat = 0;
    if (!r.integer("seat", 0, max_seats - 1, seat)) return r.error;
    auto seats = static_cast<std::uint8_t>(1u << seat);
    if (auto list = j.find("seats"); list != j.end()) {  // several seats leaving together
      if (!list->is_array()) return {"malformed_move", "'seats' must be a list of seats"};
      for (const auto& x : *list) {
        if (!x.is_number_integer() || x.get<int>() < 0 || x.get<int>() >= max_seats)
          return {"malformed_move", "'seats' must be a list of seats"};
        seats = static_cast<std::uint8_t>(seats | 1u << x.get<int>());
      }
    }
    if (auto st = forfeit(s, seats, events); !st) return from_engine(st.err());
    return {};
  }
  auto m = move_from_json(j, s);
  if (!m.ok()) return m.error;
  if (auto st = apply_in_place(s, *m.value, events); !st) return from_engine(st.err());
  return {};
}

namespace {

// The base game's moves.
void read_place_tile(move_reader& r, const game_state&, move& m) {
  int degrees = 0;
  if (!r.square(m.at) || !r.integer("rotation", std::numeric_limits<int>::min(),
                                    std::numeric_limits<int>::max(), degrees))
    return;
  if (degrees < 0 || degrees > 270 || degrees % 90 != 0) {
    r.fail("bad_rotation", "rotation must be 0, 90, 180 or 270");
    return;
  }
  m.rotation = static_cast<std::uint8_t>(degrees / 90);
}
void write_place_tile(move_writer& w) {
  w.square();
  w.number("rotation", w.m.rotation * 90);
}
void read_nothing(move_reader&, const game_state&, move&) {}
void write_nothing(move_writer&) {}

constexpr std::array<move_codec, 3> base_moves{{
    {move_type::place_tile, read_place_tile, write_place_tile},
    {move_type::deploy, read_figure_move, write_figure_move},
    {move_type::pass, read_nothing, write_nothing},
}};

// The base game's events.
void no_keys(const event&, event_writer&) {}
void tile_keys(const event& e, event_writer& w) {
  w.string("tile", tiles()[e.tile].id);
}
void tile_placed_keys(const event& e, event_writer& w) {
  w.string("tile", tiles()[e.tile].id);
  w.number("x", e.at.x);
  w.number("y", e.at.y);
  w.number("rotation", e.rotation * 90);
}
void figure_keys(const event& e, event_writer& w) {
  w.string("figure", figure_type_name(e.figure));
  write_feature_at(e, w);
}
void feature_completed_keys(const event& e, event_writer& w) {
  write_feature_at(e, w);
  w.number("points", e.points);
  w.seats("owners", e.owners);
}
void points_keys(const event& e, event_writer& w);

constexpr std::array<event_codec, 9> base_events{{
    {event_type::turn_started, no_keys},
    {event_type::tile_drawn, tile_keys},
    {event_type::tile_discarded, tile_keys},
    {event_type::tile_placed, tile_placed_keys},
    {event_type::figure_deployed, figure_keys},
    {event_type::figure_returned, figure_keys},
    {event_type::feature_completed, feature_completed_keys},
    {event_type::points, points_keys},
    {event_type::game_finished, no_keys},
}};

// Every codec by value: the base's, then each slot's module's (the registry's order).
struct codec_table {
  std::array<const move_codec*, 256> moves{};
  std::array<const event_codec*, 256> events{};
  std::array<bool, 256> featureless{};
};

const codec_table& table() {
  static const codec_table t = [] {
    codec_table out;
    for (const auto& c : base_moves) out.moves[static_cast<int>(c.type)] = &c;
    for (const auto& c : base_events) out.events[static_cast<int>(c.type)] = &c;
    for (int e = 0; e < expansion_count; ++e) {
      const auto* x = find_codec(static_cast<expansion>(e));
      if (!x) continue;
      for (const auto& c : x->moves) out.moves[static_cast<int>(c.type)] = &c;
      for (const auto& c : x->events) out.events[static_cast<int>(c.type)] = &c;
      for (const auto r : x->featureless_reasons) out.featureless[static_cast<int>(r)] = true;
    }
    return out;
  }();
  return t;
}

void points_keys(const event& e, event_writer& w) {
  if (!table().featureless[e.value]) write_feature_at(e, w);  // a module's reason may have none
  w.number("points", e.points);
  w.boolean("final", e.final);
  if (const auto reason = points_reason_name(static_cast<points_reason>(e.value));
      e.value != 0 && !reason.empty())
    w.string("reason", reason);
}

}  // namespace

namespace {
parsed<move> read_move(move_reader& r, const game_state& s) {
  move m;
  int seat = 0;
  std::string type;
  if (!r.integer("seat", 0, max_seats - 1, seat) || !r.string("type", type))
    return {std::nullopt, r.error};
  m.seat = static_cast<seat_t>(seat);
  const auto t = find_move_type(type);
  const auto* codec = t ? table().moves[static_cast<int>(*t)] : nullptr;
  if (!codec) return {std::nullopt, {"malformed_move", "unknown move type '" + type + "'"}};
  m.type = *t;
  codec->read(r, s, m);
  if (r.failed) return {std::nullopt, r.error};
  return {m, {}};
}
}  // namespace

parsed<move> move_from_json(const json& j, const game_state& s) {
  if (!j.is_object()) return {std::nullopt, {"malformed_move", "a move is a JSON object"}};
  move_reader r{&j};
  return read_move(r, s);
}

parsed<move> move_from_flat(const flat_object& f, const game_state& s) {
  move_reader r{nullptr, &f};
  return read_move(r, s);
}

void append_move_text(std::string& out, const move& m, const game_state& s) {
  move_writer w{m, s, out};
  w.open();
  if (const auto* codec = table().moves[static_cast<int>(m.type)]) codec->write(w);
  w.close();
}

std::string move_text(const move& m, const game_state& s) {
  std::string out;
  append_move_text(out, m, s);
  return out;
}

json move_to_json(const move& m, const game_state& s) {
  return move_json_from_text(move_text(m, s));
}

json move_json_from_text(std::string_view text) {
  return parse_json(text);  // ids are plain ASCII: the plain parser's
}

namespace {
void append_event_text(std::string& out, const event& e, event_writer& w) {
  w.string("type", event_type_name(e.type));
  if (e.seat != no_seat) w.number("seat", e.seat);
  if (const auto* codec = table().events[static_cast<int>(e.type)]) codec->write(e, w);
  w.finish(out);
}
}  // namespace

void append_events_text(std::string& out, const event_log& events) {
  event_writer w;
  out.push_back('[');
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (i) out.push_back(',');
    append_event_text(out, events[i], w);
  }
  out.push_back(']');
}

json event_to_json(const event& e) {
  std::string text;
  event_writer w;
  append_event_text(text, e, w);
  return json::parse(text);
}

}  // namespace carcassonne::protocol
