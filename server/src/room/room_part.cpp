#include "room/room_part.hpp"

#include <cassert>
#include <string_view>
#include <utility>

#include "carcassonne/protocol/json_text_diff.hpp"
#include "room/room_text.hpp"

namespace carcassonne::server {

room_part::room_part(const room_settings& s) {
  // Keys in sorted order, as nlohmann writes them (the parts it dumps and the text diff rely on
  // it).
  fixed_ += R"("id":)";
  append_dumped(fixed_, s.id);
  if (!s.match.is_default()) fixed_ += R"(,"match":)" + s.match.to_json().dump();
  fixed_ += R"(,"name":)";
  append_dumped(fixed_, s.name);
  fixed_ += R"(,"options":)";
  fixed_ += s.setup.is_object() ? s.setup.value("options", json::object()).dump() : "{}";
  fixed_ += R"(,"public":)";
  fixed_ += s.is_public ? "true" : "false";
  const auto expansions = s.setup.is_object() ? s.setup.find("expansions") : s.setup.end();
  expansions_ = s.setup.is_object() && expansions != s.setup.end() ? expansions->dump() : "[]";
}

void room_part::reset(std::string text, std::optional<time_point> clock_read) {
  text_ = std::move(text);
  clock_ = {};
  clock_read_ = clock_read;
}

bool room_part::update(std::string now_text, clock_span clock, std::optional<time_point> clock_read,
                       std::string& ops) {
  assert(ops.empty());
  if (now_text == text_) return false;
  // A clocked game's move changes the clock alone: when all around it is the same, its value is
  // diffed under /room/clock, as json::diff recurses into the one member that differs.
  const std::string_view was(text_), now(now_text);
  const auto& old = clock_;
  const bool clock_alone = clock.end > 0 && old.end > 0 && old.begin == clock.begin &&
                           was.substr(0, old.begin) == now.substr(0, clock.begin) &&
                           was.substr(old.end) == now.substr(clock.end);
  const bool clock_diffed =
      clock_alone && protocol::diff_json_text(was.substr(old.begin, old.end - old.begin),
                                              now.substr(clock.begin, clock.end - clock.begin),
                                              "/room/clock", ops);
  // json::diff's operations, worked out on the texts. The text diff refuses only texts our writer
  // never makes (an escaped key, unsorted keys, fractions): then the whole part is replaced.
  if (!clock_diffed && !protocol::diff_json_text(text_, now_text, "/room", ops))
    ops = R"({"op":"replace","path":"/room","value":)" + now_text + "}";
  text_ = std::move(now_text);
  clock_ = clock;
  clock_read_ = clock_read;
  return true;
}

}  // namespace carcassonne::server
