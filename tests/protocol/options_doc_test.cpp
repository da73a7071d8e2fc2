// The options vocabulary clients read (/api/options): every expansion players may choose, in
// registry order, and every option with values that the setup accepts.
#include <doctest/doctest.h>

#include "carcassonne/protocol/options_doc.hpp"
#include "carcassonne/protocol/record.hpp"

using namespace carcassonne::protocol;

TEST_CASE("options catalogue: the expansions in registry order, labelled") {
  const auto doc = options_catalogue();
  CHECK(doc["format"] == "carcassonne-options/1");
  std::vector<std::string> ids;
  for (const auto& x : doc["expansions"]) ids.push_back(x["id"]);
  CHECK(ids == std::vector<std::string>{"hills_and_sheep", "gifts", "peasant_revolts", "easter",
                                        "festival"});
  CHECK(doc["expansions"][0]["label"] == "Hills & Sheep");
  CHECK(doc["expansions"][3]["options"].size() == 5);
  const auto& trigger = doc["expansions"][2]["options"][1];
  CHECK(trigger["id"] == "revolts.extra_draws_trigger");
  CHECK(trigger["label"] == "Take 2 extra draws revolt");
  CHECK(trigger["values"] == json::array({true, false}));
  CHECK(trigger["words"] == json::array({"yes", "no"}));
  CHECK(trigger["default"] == true);
  const auto& hops = doc["expansions"][3]["options"][2];
  CHECK(hops["id"] == "easter.hops");
  CHECK(hops["values"] == json::array({"die", "fixed_2"}));
  CHECK(hops["default"] == "die");
}

TEST_CASE("options catalogue: every value of every option is one the setup takes") {
  int options = 0;
  const auto doc = options_catalogue();
  for (const auto& x : doc["expansions"])
    for (const auto& o : x["options"]) {
      ++options;
      CHECK(o["values"].size() == o["words"].size());
      CHECK(o["default"] == o["values"][0]);
      for (const auto& v : o["values"]) {
        CAPTURE(o["id"]);
        CAPTURE(v);
        const json setup{{"players", {{{"name", "Ann"}}, {{"name", "Bob"}}}},
                         {"expansions", {x["id"]}},
                         {"options", {{o["id"].get<std::string>(), v}}}};
        CHECK(parse_setup(setup).ok());
      }
    }
  CHECK(options == 13);
}
