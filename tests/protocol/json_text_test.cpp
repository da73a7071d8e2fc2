// The JSON writer (json_text.hpp): members in the order given, strings escaped, nlohmann's dump
// where asked; a frame written with it is the bytes nlohmann would write for the same keys.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "carcassonne/protocol/json_text.hpp"
#include "carcassonne/protocol/messages.hpp"

using carcassonne::protocol::object_writer;

TEST_CASE("json text: an object's members in the order given") {
  std::string out = "x";  // appended to
  object_writer w(out);
  w.string("type", "patch").string("room", "a\"b\\c\n").number("seq", -12);
  w.dumped("id", nlohmann::json{{"b", 1}, {"a", "é"}}).text("events", "[]");
  w.key("patch") += "[1]";
  w.close();
  CHECK(out == R"(x{"type":"patch","room":"a\"b\\c\n","seq":-12,"id":{"a":"é","b":1},)"
               R"("events":[],"patch":[1]})");
  std::string empty;
  object_writer(empty).close();
  CHECK(empty == "{}");
}

TEST_CASE("json text: move_accepted as the reply helper dumps it") {
  for (const nlohmann::json& id : {nlohmann::json(), nlohmann::json(7), nlohmann::json("m\"1")}) {
    std::string out;
    object_writer w(out);
    if (!id.is_null()) w.dumped("id", id);
    w.number("seq", 8).string("type", "move_accepted").close();
    CHECK(out == carcassonne::protocol::reply("move_accepted", id, {{"seq", 8}}).dump());
  }
}
