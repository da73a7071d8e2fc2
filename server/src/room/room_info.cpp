#include "room/room_info.hpp"

#include <nlohmann/json.hpp>

#include "carcassonne/protocol/view_doc.hpp"
#include "room/room_text.hpp"

namespace carcassonne::server {

using protocol::append_number;

// Keys in sorted order, as nlohmann writes them.
std::string room_info_text(const room_info_source& src, room_part::clock_span* clock) {
  std::string out;
  out.reserve(src.part.text().size() + 32);
  out.push_back('{');
  const auto& bots = src.bots;
  bool any_bot = bots.takeover_after > 0;
  for (const auto& s : src.seats) any_bot = any_bot || s.bot;
  if (any_bot) {
    out += R"("bots":{"pause_ms":)";
    append_number(out, bots.pause_ms);
    out += R"(,"takeover_after":)";
    append_number(out, bots.takeover_after);
    out += R"(,"takeover_level":)";
    append_dumped(out, name_of(bots.takeover_level));
    out += "},";
  }
  if (src.clock_read) {
    out += R"("clock":)";
    const auto begin = out.size();
    src.clocks.clock().append_view(out, *src.clock_read);
    if (clock) *clock = {static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(out.size())};
    out += ",";
  }
  out += R"("expansions":)";
  out += src.part.expansions_text();
  if (!src.fairness.empty()) {
    out += R"(,"fairness":)";
    out += src.fairness;
  }
  out.push_back(',');
  out += src.part.fixed_text();
  if (src.rematch.shown()) {
    out += R"(,"rematch":)";
    out += src.rematch.view(src.seats.size()).dump();
  }
  out += R"(,"seats":[)";
  for (std::size_t i = 0; i < src.seats.size(); ++i) {
    const auto& s = src.seats[i];
    if (i) out.push_back(',');
    out.push_back('{');
    if (s.bot) {
      out += R"("bot":)";
      append_dumped(out, name_of(*s.bot));
      out.push_back(',');
    }
    out += R"("connected":)";
    append_bool(out, s.bot || s.client != nullptr);
    out += R"(,"name":)";
    if (s.taken)
      append_dumped(out, s.name);
    else
      out += "null";
    if (s.played_by) {
      out += R"(,"played_by":)";
      append_dumped(out, name_of(*s.played_by));
    }
    out += R"(,"seat":)";
    append_number(out, static_cast<long long>(i));
    out.push_back('}');
  }
  out += R"(],"spectator_delay":)";
  append_number(out, src.settings.spectator_delay);
  out += R"(,"spectators":)";
  append_number(out, static_cast<long long>(src.spectators));
  out += R"(,"state":)";
  append_dumped(out, to_string(src.state));
  if (src.undo_request) {
    const json request = {{"seat", src.undo_request->asker()},
                          {"waiting", src.undo_request->waiting_seats()}};
    out += R"(,"undo_request":)" + request.dump();
  }
  out.push_back('}');
  return out;
}

}  // namespace carcassonne::server
