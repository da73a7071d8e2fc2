#include "carcassonne/protocol/json_codec.hpp"

#include <algorithm>
#include <array>
#include <limits>

#include "carcassonne/engine/forfeit.hpp"
#include "carcassonne/protocol/view_doc.hpp"
#include "expansion_views.hpp"

namespace carcassonne::protocol {

namespace {

constexpr std::array<std::string_view, 5> gift_names{"synod", "road_sweeper", "cash_out",
                                                     "change_position", "take_two"};
constexpr std::array<std::string_view, 2> flock_names{"expand", "herd"};

template <std::size_t N>
int find_name(const std::array<std::string_view, N>& names, std::string_view s) {
  auto it = std::find(names.begin(), names.end(), s);
  return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

struct reader {
  const json& j;
  proto_error error;
  bool failed = false;

  bool fail(std::string code, std::string message) {
    if (!failed) error = {std::move(code), std::move(message)};
    failed = true;
    return false;
  }
  bool integer(const char* key, int lo, int hi, int& out) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer())
      return fail("malformed_move", std::string("'") + key + "' must be an integer");
    const auto v = it->get<long long>();
    if (v < lo || v > hi)
      return fail("malformed_move", std::string("'") + key + "' is out of range");
    out = static_cast<int>(v);
    return true;
  }
  bool string(const char* key, std::string& out) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_string())
      return fail("malformed_move", std::string("'") + key + "' must be a string");
    out = it->get<std::string>();
    return true;
  }
  bool boolean(const char* key, bool& out) {
    auto it = j.find(key);
    if (it == j.end()) return true;  // optional, default false
    if (!it->is_boolean())
      return fail("malformed_move", std::string("'") + key + "' must be a boolean");
    out = it->get<bool>();
    return true;
  }
  bool square(square_pos& out) {
    constexpr int lim = std::numeric_limits<std::int16_t>::max();
    int x = 0, y = 0;
    if (!integer("x", -lim, lim, x) || !integer("y", -lim, lim, y)) return false;
    out = {static_cast<std::int16_t>(x), static_cast<std::int16_t>(y)};
    return true;
  }
  // A feature id of the tile at `at`, as its local segment index.
  bool feature(const game_state& s, square_pos at, const char* key, std::uint8_t& out) {
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
  bool figure(figure_type& out) {
    std::string name = "meeple";
    if (j.contains("figure") && !string("figure", name)) return false;
    const auto f = find_figure_type(name);
    if (!f) return fail("malformed_move", "unknown figure '" + name + "'");
    out = *f;
    return true;
  }
};

}  // namespace

json to_json(const proto_error& e) {
  return {{"code", e.code}, {"message", e.message}};
}

proto_error apply_json_move(game_state& s, const json& j, event_log* events) {
  if (j.is_object() && j.value("type", json()) == "forfeit") {  // a record entry, not a move
    reader r{j};
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

// One move type's fields, read into m (a failure is recorded in r).
using move_fields = void (*)(reader& r, const game_state& s, move& m);

void place_tile_fields(reader& r, const game_state&, move& m) {
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

// deploy, return_figure
void figure_fields(reader& r, const game_state& s, move& m) {
  r.figure(m.figure) && r.square(m.at) && r.feature(s, m.at, "feature", m.feature) &&
      r.boolean("protect", m.protect);
}

void no_fields(reader&, const game_state&, move&) {}

void protect_fields(reader& r, const game_state& s, move& m) {
  r.square(m.at) && r.feature(s, m.at, "feature", m.feature);
}

void flock_fields(reader& r, const game_state&, move& m) {
  std::string choice;
  if (!r.string("choice", choice)) return;
  const int c = find_name(flock_names, choice);
  if (c < 0) r.fail("malformed_move", "choice must be expand or herd");
  m.choice = static_cast<std::uint8_t>(c < 0 ? 0 : c);
}

void choose_tile_fields(reader& r, const game_state&, move& m) {
  int index = 0;
  if (r.integer("index", 0, 1, index)) m.choice = static_cast<std::uint8_t>(index);
}

void open_gift_fields(reader& r, const game_state& s, move& m) {
  std::string card;
  if (!r.string("card", card)) return;
  const int c = find_name(gift_names, card);
  if (c < 0) {
    r.fail("malformed_move", "unknown gift card '" + card + "'");
    return;
  }
  m.choice = static_cast<std::uint8_t>(c);
  if (r.j.contains("x") || r.j.contains("feature")) {
    m.has_target = true;
    if (!r.square(m.at) || !r.feature(s, m.at, "feature", m.feature)) return;
    if (r.j.contains("to")) r.feature(s, m.at, "to", m.to);
  }
  r.boolean("protect", m.protect);
}

void bunny_fields(reader& r, const game_state&, move& m) {
  auto it = r.j.find("path");
  if (it == r.j.end() || !it->is_array() || it->empty() || it->size() > max_bunny_hops) {
    r.fail("malformed_move", "path must be a list of 1 to 3 [x, y] squares");
    return;
  }
  for (const auto& p : *it) {
    constexpr long long lim = std::numeric_limits<std::int16_t>::max();
    if (!p.is_array() || p.size() != 2 || !p[0].is_number_integer() || !p[1].is_number_integer() ||
        p[0].get<long long>() < -lim || p[0].get<long long>() > lim ||
        p[1].get<long long>() < -lim || p[1].get<long long>() > lim) {
      r.fail("malformed_move", "each path entry is [x, y], integers in range");
      return;
    }
    m.path[m.path_length++] = {static_cast<std::int16_t>(p[0].get<int>()),
                               static_cast<std::int16_t>(p[1].get<int>())};
  }
}

move_fields move_reader(move_type t) {
  switch (t) {
    case move_type::place_tile:
      return place_tile_fields;
    case move_type::deploy:
    case festival::move_return_figure:
      return figure_fields;
    case hills_and_sheep::move_flock:
      return flock_fields;
    case gifts::move_open_gift:
      return open_gift_fields;
    case gifts::move_choose_tile:
      return choose_tile_fields;
    case peasant_revolts::move_protect:
      return protect_fields;
    case easter::move_bunny:
      return bunny_fields;
    default:
      return no_fields;
  }
}

}  // namespace

parsed<move> move_from_json(const json& j, const game_state& s) {
  if (!j.is_object()) return {std::nullopt, {"malformed_move", "a move is a JSON object"}};
  reader r{j};
  move m;
  int seat = 0;
  std::string type;
  if (!r.integer("seat", 0, max_seats - 1, seat) || !r.string("type", type))
    return {std::nullopt, r.error};
  m.seat = static_cast<seat_t>(seat);
  const auto t = find_move_type(type);
  if (!t) return {std::nullopt, {"malformed_move", "unknown move type '" + type + "'"}};
  m.type = *t;
  move_reader (*t)(r, s, m);
  if (r.failed) return {std::nullopt, r.error};
  return {m, {}};
}

std::string move_text(const move& m, const game_state& s) {
  std::string out = R"({"seat":)" + std::to_string(m.seat) + R"(,"type":)";
  append_quoted(out, move_type_name(m.type));
  const auto field = [&](const char* key, const std::string& value_text) {
    out += R"(,")";
    out += key;
    out += R"(":)";
    out += value_text;
  };
  const auto feature_id = [&](std::uint8_t local) -> std::string {
    const int t = s.board.tile_at(m.at);
    if (t < 0) return json_string("");
    return json_string(tiles()[s.board.placed()[t].type].segments.at(local).id);
  };
  const auto square = [&] {
    field("x", std::to_string(m.at.x));
    field("y", std::to_string(m.at.y));
  };
  switch (m.type) {
    case move_type::place_tile:
      square();
      field("rotation", std::to_string(m.rotation * 90));
      break;
    case move_type::deploy:
    case festival::move_return_figure:
      field("figure", json_string(figure_type_name(m.figure)));
      square();
      field("feature", feature_id(m.feature));
      if (m.protect) field("protect", "true");
      break;
    case peasant_revolts::move_protect:
      square();
      field("feature", feature_id(m.feature));
      break;
    case move_type::pass:
      break;
    case hills_and_sheep::move_flock:
      field("choice", json_string(flock_names[m.choice & 1]));
      break;
    case gifts::move_choose_tile:
      field("index", std::to_string(m.choice));
      break;
    case gifts::move_open_gift:
      field("card", json_string(gift_names[m.choice % gift_names.size()]));
      if (m.has_target) {
        square();
        field("feature", feature_id(m.feature));
        if (m.choice == 3) field("to", feature_id(m.to));
      }
      if (m.protect) field("protect", "true");
      break;
    case easter::move_bunny: {
      std::string path = "[";
      for (int i = 0; i < m.path_length; ++i) {
        if (i) path += ",";
        path +=
            '[';  // appended piece by piece: GCC 12 warns (-Wrestrict, falsely) on "[" + string&&
        path += std::to_string(m.path[i].x);
        path += ',';
        path += std::to_string(m.path[i].y);
        path += ']';
      }
      field("path", path + "]");
      break;
    }
  }
  out.push_back('}');
  return out;
}

json move_to_json(const move& m, const game_state& s) {
  return json::parse(move_text(m, s));
}

namespace {

// One event type's keys after "type" and "seat".
using event_fields = void (*)(const event& e, json& j);

void feature_at(const event& e, json& j) {
  j["x"] = e.at.x;
  j["y"] = e.at.y;
  j["feature"] = tiles()[e.tile].segments.at(e.feature).id;
  j["kind"] = feature_kind_names[static_cast<int>(e.kind)];
}

json seat_list(std::uint8_t bits) {
  json seats = json::array();
  for (int s = 0; s < max_seats; ++s)
    if (bits >> s & 1) seats.push_back(s);
  return seats;
}

// The keys an expansion writes for its own events (expansion_views.hpp).
void expansion_fields(const event& e, json& j) {
  for (int x = 0; x < expansion_count; ++x)
    if (const auto* v = find_view(static_cast<expansion>(x)); v && v->event_fields)
      v->event_fields(e, j);
}

void square_and_expansion_fields(const event& e, json& j) {
  j["x"] = e.at.x;
  j["y"] = e.at.y;
  expansion_fields(e, j);
}

void nothing(const event&, json&) {}

void tile_fields(const event& e, json& j) {
  j["tile"] = tiles()[e.tile].id;
}

void tile_placed_fields(const event& e, json& j) {
  j["tile"] = tiles()[e.tile].id;
  j["x"] = e.at.x;
  j["y"] = e.at.y;
  j["rotation"] = e.rotation * 90;
}

void figure_event_fields(const event& e, json& j) {
  j["figure"] = figure_type_name(e.figure);
  feature_at(e, j);
}

void feature_completed_fields(const event& e, json& j) {
  feature_at(e, j);
  j["points"] = e.points;
  j["owners"] = seat_list(e.owners);
}

void points_fields(const event& e, json& j) {
  // Egg points and points for unopened gifts belong to no feature.
  if (e.value != static_cast<int>(easter::reason_eggs) &&
      e.value != static_cast<int>(gifts::reason_gifts))
    feature_at(e, j);
  j["points"] = e.points;
  j["final"] = e.final;
  if (const auto reason = points_reason_name(static_cast<points_reason>(e.value));
      e.value != 0 && !reason.empty())
    j["reason"] = reason;
}

void revolt_fields(const event& e, json& j) {
  j["kind"] = feature_kind_names[static_cast<int>(e.kind)];
}

void figure_moved_fields(const event& e, json& j) {
  figure_event_fields(e, j);
  j["from"] = tiles()[e.tile].segments.at(e.value).id;
}

void flock_event_fields(const event& e, json& j) {
  feature_at(e, j);
  j["points"] = e.points;
  j["seats"] = seat_list(e.owners);
}

event_fields event_writer(event_type t) {
  switch (t) {
    case event_type::tile_drawn:
    case event_type::tile_discarded:
      return tile_fields;
    case event_type::tile_placed:
      return tile_placed_fields;
    case event_type::figure_deployed:
    case event_type::figure_returned:
      return figure_event_fields;
    case event_type::feature_completed:
      return feature_completed_fields;
    case event_type::points:
      return points_fields;
    case hills_and_sheep::event_token_drawn:
    case gifts::event_gift_opened:
    case easter::event_die_rolled:
    case easter::event_bunny_stuck:
      return expansion_fields;
    case hills_and_sheep::event_flock_scored:
    case hills_and_sheep::event_flock_lost:
      return flock_event_fields;
    case peasant_revolts::event_revolt:
      return revolt_fields;
    case gifts::event_figure_moved:
      return figure_moved_fields;
    case easter::event_bunny_placed:
    case easter::event_nest_scored:
    case easter::event_eggs_collected:
    case easter::event_bunny_moved:
      return square_and_expansion_fields;
    default:
      return nothing;
  }
}

}  // namespace

json event_to_json(const event& e) {
  json j{{"type", event_type_name(e.type)}};
  if (e.seat != no_seat) j["seat"] = e.seat;
  event_writer(e.type)(e, j);
  return j;
}

}  // namespace carcassonne::protocol
