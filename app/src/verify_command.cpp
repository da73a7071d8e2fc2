// `carcassonne verify RECORD`: the fairness check of docs/fairness.md, as one JSON verdict.
#include <fstream>
#include <iostream>
#include <sstream>

#include "carcassonne/app/commands.hpp"
#include "fairness/fairness.hpp"

namespace carcassonne::app {

namespace {
constexpr const char* verify_help =
    "usage: carcassonne verify [--partial] RECORD   (a file, or - for standard input)\n"
    "\n"
    "Checks that a finished game's randomness came from its committed seed (docs/fairness.md):\n"
    "the secret against the commitment, the seed against the secret and the seats' nonces, then\n"
    "a replay from the seed, whose every random outcome must be the record's, entry by entry,\n"
    "and whose moves must play the game to its end. Prints one JSON verdict:\n"
    "  exit 0  {\"verified\": true, \"complete\": true, ...}\n"
    "  exit 4  {\"verified\": false, \"mismatch\": {\"at\", ...}}: the first difference; a record\n"
    "          that stops before the game is over fails with \"at\": \"end\", \"code\":\n"
    "          \"incomplete\" and \"move\", the first missing move\n"
    "  exit 2  {\"verified\": false, \"error\": {\"code\", \"message\"}}: cannot be checked\n"
    "--partial: a record cut short is checked as far as it goes and verifies with\n"
    "\"complete\": false (its draws were right; that the game was played out is not proven).\n";
}  // namespace

int run_verify(std::span<const std::string> args, std::istream& in, std::ostream& out,
               std::ostream& err) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    out << verify_help;
    return 0;
  }
  const bool partial = !args.empty() && args[0] == "--partial";
  if (partial) args = args.subspan(1);
  if (args.size() != 1) {
    err << "usage: carcassonne verify [--partial] RECORD   (a file, or - for standard input)\n";
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
          : server::fairness::verify(record, malformed, partial);
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
