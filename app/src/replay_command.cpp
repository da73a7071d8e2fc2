#include <fstream>
#include <iostream>
#include <sstream>

#include "carcassonne/app/commands.hpp"
#include "carcassonne/protocol/json_codec.hpp"
#include "carcassonne/protocol/record.hpp"
#include "carcassonne/protocol/view.hpp"

namespace carcassonne::app {

namespace {

using protocol::json;

int record_error(std::ostream& out, std::ostream& err, const protocol::proto_error& e) {
  out << json{{"error", protocol::to_json(e)}}.dump() << '\n';
  err << "carcassonne replay: malformed record: " << e.message << '\n';
  return 2;
}

int move_error(std::ostream& out, std::size_t index, const protocol::proto_error& e) {
  out << json{{"error", {{"move", index}, {"code", e.code}, {"message", e.message}}}}.dump()
      << '\n';
  return 3;
}

}  // namespace

int run_replay(std::span<const std::string> args, std::istream& in, std::ostream& out,
               std::ostream& err) {
  std::string file;
  int viewer = protocol::spectator;
  bool full = true, with_events = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--as" && i + 1 < args.size()) {
      full = false;
      const auto& who = args[++i];
      if (who != "spectator") {
        // Digits only: "-1" (the internal spectator value) or "1x" are not seats.
        std::size_t used = 0;
        try {
          viewer = std::stoi(who, &used);
        } catch (...) {
          used = 0;
        }
        if (who.empty() || used != who.size() ||
            who.find_first_not_of("0123456789") != std::string::npos) {
          err << "carcassonne replay: --as takes a seat number or 'spectator'\n";
          return 1;
        }
      }
    } else if (args[i] == "--events") {
      with_events = true;
    } else if (file.empty()) {
      file = args[i];
    } else {
      err << "carcassonne replay: unexpected argument '" << args[i] << "'\n";
      return 1;
    }
  }
  if (file.empty()) {
    err << "usage: carcassonne replay FILE [--as N|spectator] [--events]\n";
    return 1;
  }

  std::stringstream text;
  if (file == "-") {
    text << in.rdbuf();
  } else {
    std::ifstream f(file, std::ios::binary);
    if (!f) return record_error(out, err, {"unreadable", "cannot read " + file});
    text << f.rdbuf();
  }
  auto record = protocol::parse_record(text.str());
  if (!record.ok()) return record_error(out, err, record.error);
  const auto& r = *record.value;
  if (viewer != protocol::spectator && (viewer < 0 || viewer >= r.setup.seats)) {
    err << "carcassonne replay: no seat " << viewer << " in this game\n";
    return 1;
  }

  event_log events;
  auto game = new_game(r.setup, with_events ? &events : nullptr);
  if (!game) return record_error(out, err, protocol::from_engine(game.err()));
  game_state& s = game.value();
  json event_json = json::array();
  const auto flush_events = [&] {
    for (const auto& e : events) event_json.push_back(protocol::event_to_json(e));
    events.clear();
  };
  flush_events();
  for (std::size_t i = 0; i < r.moves.size(); ++i) {
    if (auto e = protocol::apply_json_move(s, r.moves[i], with_events ? &events : nullptr);
        !e.code.empty()) {
      // A scripted draw that cannot be made is the record's fault, not the move's (exit 2).
      if (e.code == code_name(error_code::bad_script) ||
          e.code == code_name(error_code::script_exhausted))
        return record_error(out, err, e);
      return move_error(out, i, e);
    }
    flush_events();
  }

  // Without --as: the public (spectator) view, with the legal moves of the seat to act.
  json v = protocol::build_view(
      s, full ? to_act(s) == no_seat ? protocol::spectator : to_act(s) : viewer, r.names);
  if (full) v["viewer"] = "replay";
  v["moves"] = r.moves.size();
  if (with_events) v["events"] = std::move(event_json);
  out << v.dump() << '\n';
  return 0;
}

}  // namespace carcassonne::app
