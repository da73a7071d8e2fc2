// The room part of every view, written as text (room_info_text, compared on every broadcast and
// diffed as text when it changed). Its keys are in sorted order, as nlohmann dumps an object's
// (the parts dumped by nlohmann and the text diff rely on it).
#include <nlohmann/json.hpp>

#include "carcassonne/protocol/view_doc.hpp"
#include "fairness/fairness.hpp"
#include "room/room.hpp"

namespace carcassonne::server {

namespace {

using protocol::append_number;

// A JSON string as nlohmann dumps it: printable ASCII without '"' and '\' is written as is,
// anything else through nlohmann itself.
void append_dumped(std::string& out, std::string_view s) {
  for (unsigned char c : s)
    if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') return void(out += json(s).dump());
  out.push_back('"');
  out += s;
  out.push_back('"');
}

void append_bool(std::string& out, bool b) {
  out += b ? "true" : "false";
}

}  // namespace

// The keys that never change, from "id" to "public" ("match" among them), dumped once.
const std::string& room::info_fixed_text() const {
  if (!info_fixed_.empty()) return info_fixed_;
  std::string& out = info_fixed_;
  out += R"("id":)";
  append_dumped(out, settings_.id);
  if (!settings_.match.is_default()) out += R"(,"match":)" + settings_.match.to_json().dump();
  out += R"(,"name":)";
  append_dumped(out, settings_.name);
  out += R"(,"options":)" + settings_.setup.value("options", json::object()).dump();
  out += R"(,"public":)";
  append_bool(out, settings_.is_public);
  return out;
}

// Keys in sorted order, as nlohmann writes them.
std::string room::room_info_text(text_span* clock) const {
  std::string out;
  out.reserve(info_.size() + 32);
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
  if (clock_.enabled() && game_ && timer_) {
    out += R"("clock":)";
    const auto begin = out.size();
    clock_.append_view(out, timer_->now());
    if (clock) *clock = {static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(out.size())};
    out += ",";
  }
  if (info_expansions_.empty()) {  // never changes: dumped once
    const auto expansions = settings_.setup.find("expansions");
    info_expansions_ = expansions != settings_.setup.end() ? expansions->dump() : "[]";
  }
  out += R"("expansions":)";
  out += info_expansions_;
  if (!settings_.secret.empty()) {
    out += R"(,"fairness":)";
    append_fairness_part(out);
  }
  out.push_back(',');
  out += info_fixed_text();
  if (rematch_ || !rematch_room_.empty()) {
    json probe = json::object();
    probe = with_match_info(std::move(probe));
    out += R"(,"rematch":)" + probe["rematch"].dump();
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
  append_number(out, static_cast<long long>(spectators_.size()));
  out += R"(,"state":)";
  append_dumped(out, to_string(state()));
  if (undo_request_) {
    json probe = json::object();
    probe = with_match_info(std::move(probe));
    out += R"(,"undo_request":)" + probe["undo_request"].dump();
  }
  out.push_back('}');
  return out;
}

}  // namespace carcassonne::server
