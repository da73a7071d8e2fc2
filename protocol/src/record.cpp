#include "carcassonne/protocol/record.hpp"

#include <utility>

#include "carcassonne/engine/expansion.hpp"

namespace carcassonne::protocol {

namespace {

proto_error bad(std::string message) {
  return {"bad_record", std::move(message)};
}

// The base's script key and the modules' (their vocabularies); each module checks its own lists
// when it runs.
bool known_script_key(const std::string& key) {
  if (key == "deck") return true;
  for (const auto* m : all_modules())
    if (m)
      for (const auto k : m->vocabulary.script_keys)
        if (k == key) return true;
  return false;
}

}  // namespace

parsed<game_record> parse_setup(const json& setup) {
  if (!setup.is_object()) return {std::nullopt, bad("'setup' must be an object")};
  game_record r;
  r.setup_json = setup;

  const auto players = setup.find("players");
  if (players == setup.end() || !players->is_array())
    return {std::nullopt, bad("'setup.players' must be a list")};
  for (const auto& p : *players) {
    if (!p.is_object() || !p.contains("name") || !p["name"].is_string())
      return {std::nullopt, bad("each player is an object with a string 'name'")};
    r.names.push_back(p["name"].get<std::string>());
  }
  if (r.names.size() < static_cast<std::size_t>(min_seats) ||
      r.names.size() > static_cast<std::size_t>(max_seats))
    return {std::nullopt, {"bad_seat_count", "a game has 2 to 6 players"}};
  r.setup.seats = static_cast<int>(r.names.size());

  if (auto e = setup.find("expansions"); e != setup.end()) {
    if (!e->is_array()) return {std::nullopt, bad("'setup.expansions' must be a list")};
    for (const auto& name : *e) {
      if (!name.is_string()) return {std::nullopt, bad("expansion names are strings")};
      const auto x = find_expansion(name.get<std::string>());
      if (!x)
        return {std::nullopt,
                {"unknown_expansion", "unknown expansion '" + name.get<std::string>() + "'"}};
      r.setup.expansions.add(*x);
    }
  }

  if (auto o = setup.find("options"); o != setup.end()) {
    if (!o->is_object()) return {std::nullopt, bad("'setup.options' must be an object")};
    for (const auto& [name, value] : o->items()) {
      option_value v;
      if (value.is_boolean()) {
        v = value.get<bool>();
      } else if (value.is_string()) {
        v = std::string_view(value.get_ref<const std::string&>());
      } else {
        return {std::nullopt, {"bad_option_value", name + " takes a string or a boolean"}};
      }
      if (auto st = r.setup.options.set(name, v); !st) return {std::nullopt, from_engine(st.err())};
    }
  }

  if (auto seed = setup.find("seed"); seed != setup.end()) {
    if (!seed->is_string()) return {std::nullopt, bad("'setup.seed' must be a string")};
    r.setup.seed = seed->get<std::string>();
  }

  if (auto script = setup.find("script"); script != setup.end()) {
    if (!script->is_object()) return {std::nullopt, bad("'setup.script' must be an object")};
    for (const auto& [key, value] : script->items()) {
      if (!known_script_key(key))
        return {std::nullopt, {"bad_script", "unknown script key '" + key + "'"}};
      if (!value.is_array())
        return {std::nullopt, {"bad_script", "script." + key + " must be a list"}};
    }
    if (auto deck = script->find("deck"); deck != script->end()) {
      std::vector<tile_type_id> ids;
      for (const auto& t : *deck) {
        if (!t.is_string()) return {std::nullopt, {"bad_script", "script.deck holds tile ids"}};
        const auto id = tiles().find(t.get<std::string>());
        if (!id)
          return {std::nullopt, {"unknown_tile", "unknown tile id '" + t.get<std::string>() + "'"}};
        ids.push_back(*id);
      }
      r.setup.script.deck = std::move(ids);
    }
    // The other lists are read by the expansion that owns them (as text: "sheep2", "3").
    for (const auto& [key, value] : script->items()) {
      if (key == "deck") continue;
      auto& list = r.setup.script.draws[key];
      for (const auto& entry : value) {
        if (entry.is_string())
          list.push_back(entry.get<std::string>());
        else if (entry.is_number_integer())
          list.push_back(std::to_string(entry.get<long long>()));
        else
          return {std::nullopt, {"bad_script", "script." + key + " holds names or numbers"}};
      }
    }
  }
  return {std::move(r), {}};
}

parsed<game_record> parse_record(std::string_view text) {
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) return {std::nullopt, {"bad_json", "the record is not valid JSON"}};
  if (!j.is_object()) return {std::nullopt, bad("a record is a JSON object")};
  if (auto f = j.find("format"); f != j.end() && (!f->is_string() || *f != record_format))
    return {std::nullopt, bad("unsupported record format (expected carcassonne-record/1)")};
  auto setup = j.find("setup");
  if (setup == j.end()) return {std::nullopt, bad("the record has no 'setup'")};
  auto r = parse_setup(*setup);
  if (!r.ok()) return r;
  if (auto moves = j.find("moves"); moves != j.end()) {
    if (!moves->is_array()) return {std::nullopt, bad("'moves' must be a list")};
    r.value->moves.assign(moves->begin(), moves->end());
  }
  return r;
}

json record_to_json(const game_record& r) {
  return record_to_json(r.setup_json, r.moves);
}

json record_to_json(json setup, json moves) {
  // Not an initializer list: it would copy both trees once more (a room's record at the end of
  // its game was three copies of every move).
  json r = json::object();
  r["format"] = record_format;
  r["setup"] = std::move(setup);
  r["moves"] = std::move(moves);
  return r;
}

}  // namespace carcassonne::protocol
