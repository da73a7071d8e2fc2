// Test helpers: run the replay command in-process and read its JSON answer.
#pragma once
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "carcassonne/app/commands.hpp"

namespace carcassonne::testing {

using json = nlohmann::json;

inline const std::filesystem::path records_dir =
    std::filesystem::path(CARCASSONNE_SOURCE_DIR) / "tests" / "records";

struct command_result {
  int code = -1;
  json out;          // the last line of standard output, parsed (discarded when not JSON)
  std::string text;  // standard output as printed
  std::string err;
};

inline json parse_output(const std::string& text) {
  std::string line = text;
  while (!line.empty() && line.back() == '\n') line.pop_back();
  if (auto nl = line.rfind('\n'); nl != std::string::npos) line = line.substr(nl + 1);
  return json::parse(line, nullptr, false);
}

// replay - [extra...] with `record` on standard input.
inline command_result replay_text(const std::string& record, std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"-"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::istringstream in(record);
  std::ostringstream out, err;
  command_result r;
  r.code = app::run_replay(args, in, out, err);
  r.text = out.str();
  r.err = err.str();
  r.out = parse_output(r.text);
  return r;
}

inline command_result replay_json(const json& record, std::vector<std::string> extra = {}) {
  return replay_text(record.dump(), std::move(extra));
}

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  REQUIRE_MESSAGE(f.good(), "cannot read " << p.string());
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

inline json read_record(const std::string& name) {
  return json::parse(read_text(records_dir / name));
}

// Every committed record, sorted by name.
inline std::vector<std::filesystem::path> all_records() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(records_dir))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// A two-seat base record with a scripted deck.
inline json base_record(std::vector<std::string> deck, json moves = json::array(), int seats = 2) {
  json players = json::array();
  for (int i = 0; i < seats; ++i)
    players.push_back({{"name", std::string("P").append(std::to_string(i))}});
  return {{"format", "carcassonne-record/1"},
          {"setup", {{"players", players}, {"script", {{"deck", deck}}}}},
          {"moves", moves}};
}

inline json place(int seat, int x, int y, int rotation) {
  return {{"seat", seat}, {"type", "place_tile"}, {"x", x}, {"y", y}, {"rotation", rotation}};
}
inline json deploy(int seat, int x, int y, const std::string& feature) {
  return {{"seat", seat}, {"type", "deploy"}, {"figure", "meeple"},
          {"x", x},       {"y", y},           {"feature", feature}};
}
inline json pass(int seat) {
  return {{"seat", seat}, {"type", "pass"}};
}

}  // namespace carcassonne::testing
