#include "carcassonne/server/room.hpp"

#include <algorithm>

#include "carcassonne/protocol/json_codec.hpp"
#include "carcassonne/protocol/record.hpp"
#include "carcassonne/protocol/view.hpp"
#include "random_ids.hpp"

namespace carcassonne::server {

namespace {

constexpr std::size_t answers_kept = 32;  // per seat, for duplicate moves

std::uint64_t fnv(const std::string& s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

// Prefixes the paths of a patch made on a part of the view ("/room", "/game").
void append_prefixed(json& out, const json& ops, const std::string& prefix) {
  for (const auto& op : ops) {
    json o = op;
    o["path"] = prefix + o["path"].get<std::string>();
    out.push_back(std::move(o));
  }
}

// Patch of the private part: whole values per top-level key, compared by hash (private parts
// are small and change wholesale, e.g. the legal moves of the seat to act).
json private_patch(std::map<std::string, std::uint64_t>& last, const json& now) {
  json ops = json::array();
  for (auto it = last.begin(); it != last.end();) {
    if (!now.contains(it->first)) {
      ops.push_back({{"op", "remove"}, {"path", "/game/" + it->first}});
      it = last.erase(it);
    } else {
      ++it;
    }
  }
  for (const auto& [key, value] : now.items()) {
    const auto h = fnv(value.dump());
    auto it = last.find(key);
    if (it != last.end() && it->second == h) continue;
    ops.push_back({{"op", it == last.end() ? "add" : "replace"}, {"path", "/game/" + key}, {"value", value}});
    last[key] = h;
  }
  return ops;
}

void remember_private(std::map<std::string, std::uint64_t>& last, const json& now) {
  last.clear();
  for (const auto& [key, value] : now.items()) last[key] = fnv(value.dump());
}

json merged(json public_part, const json& private_part) {
  for (const auto& [key, value] : private_part.items()) public_part[key] = value;
  return public_part;
}

}  // namespace

json room_summary::to_json() const {
  return {{"id", id},         {"name", name},         {"state", state},
          {"public", is_public}, {"seats", seats},     {"taken", taken},
          {"players", players}, {"expansions", expansions}, {"spectators", spectators},
          {"spectator_delay", spectator_delay}};
}

room::room(room_settings settings, metrics* m, const client_link* creator)
    : settings_(std::move(settings)), metrics_(m), creator_(creator), seats_(settings_.seats) {
  info_ = room_info();
  publish_summary();
}

int room::seat_of(const client_link* c) const {
  for (std::size_t i = 0; i < seats_.size(); ++i)
    if (seats_[i].client.get() == c) return static_cast<int>(i);
  return -1;
}

bool room::is_spectator(const client_link* c) const {
  return std::any_of(spectators_.begin(), spectators_.end(), [&](const client_ptr& s) { return s.get() == c; });
}

void room::send(const client_ptr& c, const json& message) {
  if (c) c->deliver(std::make_shared<const std::string>(message.dump()));
}

void room::answer(const client_ptr& c, int seat, const json& id, const json& message) {
  auto frame = std::make_shared<const std::string>(message.dump());
  if (seat >= 0 && !id.is_null()) {
    auto& cache = seats_[seat].answered;
    cache.emplace_back(id, frame);
    if (cache.size() > answers_kept) cache.pop_front();
  }
  c->deliver(frame);
}

void room::fail(const client_ptr& c, const json& id, std::string code, std::string message) {
  if (metrics_) metrics_->rejected(code);
  send(c, protocol::error_message({std::move(code), std::move(message)}, id));
}

json room::room_info() const {
  json seats = json::array();
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    const auto& s = seats_[i];
    seats.push_back({{"seat", i},
                     {"name", s.taken ? json(s.name) : json(nullptr)},
                     {"connected", s.client != nullptr}});
  }
  const char* state = !game_ ? "waiting" : game_->finished ? "finished" : "playing";
  return {{"id", settings_.id},
          {"name", settings_.name},
          {"public", settings_.is_public},
          {"state", state},
          {"seats", seats},
          {"expansions", settings_.setup.value("expansions", json::array())},
          {"options", settings_.setup.value("options", json::object())},
          {"spectator_delay", settings_.spectator_delay},
          {"spectators", spectators_.size()}};
}

json room::seat_view(int seat) const {
  return {{"room", info_},
          {"game", game_ ? merged(public_, protocol::private_view(*game_, seat)) : json(nullptr)}};
}

json room::spectator_view() const {
  const game_state* g = spectator_game_ ? &*spectator_game_ : game_ ? &*game_ : nullptr;
  return {{"room", info_},
          {"game", g ? merged(spectator_public_, protocol::private_view(*g, protocol::spectator))
                     : json(nullptr)}};
}

void room::send_snapshot(const client_ptr& c, int seat, const json& id) {
  json view = seat >= 0 ? seat_view(seat) : spectator_view();
  if (seat >= 0 && game_) remember_private(seats_[seat].private_hash, protocol::private_view(*game_, seat));
  json msg{{"type", "snapshot"}, {"room", settings_.id}, {"seq", seq_}, {"view", std::move(view)}};
  if (!id.is_null()) msg["id"] = id;
  send(c, msg);
}

void room::advance_spectators() {
  if (!spectator_game_) return;
  const std::size_t target = game_->finished || journal_.size() < static_cast<std::size_t>(settings_.spectator_delay)
                                 ? (game_->finished ? journal_.size() : 0)
                                 : journal_.size() - settings_.spectator_delay;
  while (spectator_moves_ < target) {
    auto m = protocol::move_from_json(journal_[spectator_moves_], *spectator_game_);
    if (m.ok()) (void)apply_in_place(*spectator_game_, *m.value);
    ++spectator_moves_;
  }
}

void room::broadcast(const event_log& events) {
  ++seq_;
  const json new_info = room_info();
  json shared_ops = json::array();
  append_prefixed(shared_ops, json::diff(info_, new_info), "/room");
  info_ = new_info;

  json events_json = json::array();
  for (const auto& e : events) events_json.push_back(protocol::event_to_json(e));

  // Seats: shared public diff, then each seat's private part.
  json seat_ops = shared_ops;
  bool game_appeared = false;
  if (game_) {
    json now = protocol::public_view(*game_, names_);
    if (public_.is_null()) game_appeared = true;
    else append_prefixed(seat_ops, json::diff(public_, now), "/game");
    public_ = std::move(now);
  }
  const std::string head = R"({"type":"patch","room":)" + json(settings_.id).dump() +
                           R"(,"seq":)" + std::to_string(seq_) + R"(,"events":)" + events_json.dump() +
                           R"(,"patch":)";
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    auto& s = seats_[i];
    json ops = seat_ops;
    if (game_) {
      const json priv = protocol::private_view(*game_, static_cast<int>(i));
      if (game_appeared) {
        ops.push_back({{"op", "replace"}, {"path", "/game"}, {"value", merged(public_, priv)}});
        remember_private(s.private_hash, priv);
      } else {
        for (auto& op : private_patch(s.private_hash, priv)) ops.push_back(std::move(op));
      }
    }
    if (s.client) s.client->deliver(std::make_shared<const std::string>(head + ops.dump() + "}"));
  }

  // Spectators: the same public diff, or their own when they watch with a delay.
  if (!spectators_.empty() || spectator_game_) {
    json ops = shared_ops;
    if (game_) {
      advance_spectators();
      const game_state& g = spectator_game_ ? *spectator_game_ : *game_;
      json now = protocol::public_view(g, names_);
      if (spectator_public_.is_null()) {
        ops.push_back({{"op", "replace"}, {"path", "/game"},
                       {"value", merged(now, protocol::private_view(g, protocol::spectator))}});
      } else {
        append_prefixed(ops, json::diff(spectator_public_, now), "/game");
      }
      spectator_public_ = std::move(now);
    }
    // Events are withheld from delayed spectators: they would reveal the present.
    const std::string spectator_head =
        settings_.spectator_delay > 0 && game_ && !game_->finished
            ? R"({"type":"patch","room":)" + json(settings_.id).dump() + R"(,"seq":)" +
                  std::to_string(seq_) + R"(,"events":[],"patch":)"
            : head;
    auto frame = std::make_shared<const std::string>(spectator_head + ops.dump() + "}");
    for (const auto& c : spectators_) c->deliver(frame);
  }
  publish_summary();
}

void room::publish_summary() {
  room_summary s;
  s.id = settings_.id;
  s.name = settings_.name;
  s.state = info_["state"].get<std::string>();
  s.is_public = settings_.is_public;
  s.seats = settings_.seats;
  s.spectators = static_cast<int>(spectators_.size());
  s.spectator_delay = settings_.spectator_delay;
  s.expansions = settings_.setup.value("expansions", json::array());
  s.connections = static_cast<int>(spectators_.size());
  for (const auto& seat : seats_) {
    s.connections += seat.client != nullptr;
    if (!seat.taken) continue;
    ++s.taken;
    s.players.push_back(seat.name);
  }
  std::lock_guard lock(summary_mutex_);
  summary_ = std::move(s);
}

room_summary room::summary() const {
  std::lock_guard lock(summary_mutex_);
  return summary_;
}

bool room::abandoned() const {
  std::lock_guard lock(summary_mutex_);
  return summary_.connections == 0 &&
         (summary_.state == "finished" || (summary_.state == "waiting" && summary_.taken == 0));
}

json room::record() const {
  return {{"format", protocol::record_format}, {"setup", record_setup_}, {"moves", journal_}};
}

}  // namespace carcassonne::server
