// The room part of every view, written as text (room_info_text, compared on every broadcast and
// diffed as text when it changed). Its keys are in sorted order, as nlohmann dumps an object's
// (the parts dumped by nlohmann and the text diff rely on it).
#include <nlohmann/json.hpp>

#include "carcassonne/protocol/view_doc.hpp"
#include "fairness/fairness.hpp"
#include "room/room.hpp"
#include "room/room_text.hpp"

namespace carcassonne::server {

using protocol::append_number;

// Keys in sorted order, as nlohmann writes them.
std::string room::room_info_text(room_part::clock_span* clock) const {
  std::string out;
  out.reserve(part_.text().size() + 32);
  out.push_back('{');
  const auto& bots = bots_.settings();
  bool any_bot = bots.takeover_after > 0;
  for (const auto& s : seats_) any_bot = any_bot || s.bot;
  if (any_bot) {
    out += R"("bots":{"pause_ms":)";
    append_number(out, bots.pause_ms);
    out += R"(,"takeover_after":)";
    append_number(out, bots.takeover_after);
    out += R"(,"takeover_level":)";
    append_dumped(out, name_of(bots.takeover_level));
    out += "},";
  }
  if (clocks_.enabled() && table_.game && timer_) {
    out += R"("clock":)";
    const auto begin = out.size();
    clocks_.clock().append_view(out, timer_->now());
    if (clock) *clock = {static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(out.size())};
    out += ",";
  }
  out += R"("expansions":)";
  out += part_.expansions_text();
  if (!settings_.secret.empty()) {
    out += R"(,"fairness":)";
    append_fairness_part(out);
  }
  out.push_back(',');
  out += part_.fixed_text();
  if (rematch_.shown()) {
    out += R"(,"rematch":)";
    out += rematch_.view(seats_.size()).dump();
  }
  out += R"(,"seats":[)";
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    const auto& s = seats_[i];
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
  append_number(out, settings_.spectator_delay);
  out += R"(,"spectators":)";
  append_number(out, static_cast<long long>(shown_spectators()));
  out += R"(,"state":)";
  append_dumped(out, to_string(state()));
  if (undo_request_) {
    const json request = {{"seat", undo_request_->asker()},
                          {"waiting", undo_request_->waiting_seats()}};
    out += R"(,"undo_request":)" + request.dump();
  }
  out.push_back('}');
  return out;
}

}  // namespace carcassonne::server
