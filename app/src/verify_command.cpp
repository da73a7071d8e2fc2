// `carcassonne verify RECORD`: the fairness check of docs/fairness.md, as one JSON verdict.
#include <fstream>
#include <iostream>
#include <sstream>

#include "carcassonne/app/commands.hpp"
#include "fairness.hpp"

namespace carcassonne::app {

int run_verify(std::span<const std::string> args, std::istream& in, std::ostream& out,
               std::ostream& err) {
  if (args.size() != 1) {
    err << "usage: carcassonne verify RECORD   (a file, or - for standard input)\n";
    return 1;
  }
  std::stringstream text;
  if (args[0] == "-") {
    text << in.rdbuf();
  } else {
    std::ifstream f(args[0], std::ios::binary);
    if (!f) {
      out << nlohmann::json{{"verified", false},
                            {"error",
                             {{"code", "unreadable"}, {"message", "cannot read " + args[0]}}}}
                 .dump()
          << '\n';
      return 2;
    }
    text << f.rdbuf();
  }
  const auto record = nlohmann::json::parse(text.str(), nullptr, false);
  bool malformed = false;
  const auto verdict =
      record.is_discarded()
          ? nlohmann::json{{"verified", false},
                           {"error", {{"code", "bad_json"}, {"message", "the record is not JSON"}}}}
          : server::fairness::verify(record, malformed);
  out << verdict.dump() << '\n';
  if (record.is_discarded() || malformed) {
    err << "carcassonne verify: cannot check this record: "
        << verdict["error"]["message"].get<std::string>() << '\n';
    return 2;
  }
  if (verdict["verified"] == true) return 0;
  err << "carcassonne verify: NOT VERIFIED: " << verdict["mismatch"]["message"].get<std::string>()
      << '\n';
  return 4;
}

}  // namespace carcassonne::app
