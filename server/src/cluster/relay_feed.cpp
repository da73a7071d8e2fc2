#include "cluster/relay_feed.hpp"

#include <nlohmann/json.hpp>

#include <charconv>

namespace carcassonne::server {

frame_head head_of(std::string_view frame) {
  frame_head h;
  constexpr std::string_view lead = R"({"type":")";
  if (frame.starts_with(lead)) {
    const auto end = frame.find('"', lead.size());
    if (end == std::string_view::npos) return h;
    h.type = frame.substr(lead.size(), end - lead.size());
    // The room's frames write their seq among the first keys ("type", "room", "seq").
    constexpr std::string_view key = R"(,"seq":)";
    const auto at = frame.substr(0, 256).find(key);
    if (at != std::string_view::npos) {
      std::uint64_t n = 0;
      const char* first = frame.data() + at + key.size();
      if (std::from_chars(first, frame.data() + frame.size(), n).ec == std::errc()) h.seq = n;
    }
    return h;
  }
  const auto j = nlohmann::json::parse(frame, nullptr, false);
  if (!j.is_object()) return h;
  if (const auto t = j.find("type"); t != j.end() && t->is_string()) h.type = *t;
  if (const auto s = j.find("seq"); s != j.end() && s->is_number_unsigned())
    h.seq = s->get<std::uint64_t>();
  return h;
}

std::string tagged(std::uint64_t generation, std::string_view frame) {
  std::string out = std::to_string(generation);
  out.reserve(out.size() + 1 + frame.size());
  out.push_back(' ');
  out += frame;
  return out;
}

std::optional<tagged_frame> untag(std::string_view message) {
  tagged_frame t;
  const auto [end, ec] =
      std::from_chars(message.data(), message.data() + message.size(), t.generation);
  if (ec != std::errc() || end == message.data() + message.size() || *end != ' ')
    return std::nullopt;
  t.frame = message.substr(static_cast<std::size_t>(end - message.data()) + 1);
  return t;
}

bool relayed_type(std::string_view type) {
  return type == "patch" || type == "snapshot" || type == "chat";
}

relay_feed::action relay_feed::take(const frame_head& frame, std::uint64_t generation) {
  if (generation < generation_) return action::drop;
  if (generation > generation_) {
    generation_ = generation;
    in_step_ = false;
    // Its mark, snapshot or end are taken as below; anything else waits for its snapshot.
    if (frame.type != "relay_start" && frame.type != "relay_end" && frame.type != "snapshot")
      return action::ask_snapshot;
  }
  if (frame.type == "relay_start") {
    in_step_ = false;
    return action::restart;
  }
  if (frame.type == "relay_end") {
    in_step_ = false;
    return action::end;
  }
  if (frame.type == "snapshot" && frame.seq) {
    const auto s = *frame.seq;
    // Of one owner, a snapshot older than what was shown is stale (a new owner starts with
    // start_mark: then any snapshot is taken).
    if (in_step_ && s == seq_) return action::snapshot_new;
    if (in_step_ && s < seq_) return action::drop;
    in_step_ = true;
    seq_ = s;
    return action::snapshot_all;
  }
  if (!in_step_) return action::drop;
  if (frame.type == "patch" && frame.seq) {
    const auto p = *frame.seq;
    if (p <= seq_) return action::drop;  // already passed on
    if (p != seq_ + 1) {
      in_step_ = false;
      return action::ask_snapshot;
    }
    seq_ = p;
    return action::to_live;
  }
  return frame.type == "chat" ? action::to_live : action::drop;
}

}  // namespace carcassonne::server
