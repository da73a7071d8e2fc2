#include "room/room.hpp"

#include <algorithm>
#include <cassert>

#include "base/random_ids.hpp"
#include "carcassonne/protocol/json_codec.hpp"
#include "carcassonne/protocol/json_text.hpp"
#include "carcassonne/protocol/json_text_diff.hpp"
#include "carcassonne/protocol/record.hpp"
#include "carcassonne/protocol/view.hpp"
#include "carcassonne/protocol/view_doc.hpp"
#include "fairness/fairness.hpp"
#include "room/fan_out.hpp"
#include "room/room_fairness.hpp"
#include "room/room_info.hpp"
#include "room/room_meta.hpp"

namespace carcassonne::server {

room::room(room_settings settings, metrics* m, std::weak_ptr<const client_link> creator)
    : settings_(std::move(settings)),
      commitment_(settings_.secret.empty() ? "" : fairness::commitment_of(settings_.secret)),
      metrics_(m),
      members_{.seats = std::vector<seat_slot>(static_cast<std::size_t>(settings_.seats)),
               .creator = std::move(creator)},
      table_(settings_.spectator_delay),
      part_(settings_),
      // The summary's parts that never change, made once (a clocked game publishes with every
      // move, its clock being part of the room).
      listing_(settings_.setup.is_object() ? settings_.setup.value("expansions", json::array())
                                           : json::array(),
               settings_.match.is_default() ? json() : settings_.match.to_json()),
      saves_(writes_, settings_),
      bots_(settings_.seed, settings_.id, m, bot_hooks()),
      clocks_(settings_.match, clock_hooks()),
      votes_(settings_, members_.seats, vote_hooks()),
      audience_([this] {
        if (!writes_.stopped()) broadcast({});
      }) {
  if (!settings_.setup.is_object()) settings_.setup = json::object();
  // A room whose randomness is provable commits to its rematch's secret too (fairness.md).
  if (!settings_.secret.empty() && settings_.rematch_secret.empty())
    settings_.rematch_secret = fairness::new_secret();
  if (!settings_.rematch_secret.empty())
    votes_.rematch() = rematch_state(fairness::commitment_of(settings_.rematch_secret));
  reset_room_part();
  publish_summary();
}

void room::attach_hooks(room_hooks h) {
  hooks_ = std::move(h);
  clocks_.attach_lookup(hooks_.vacation);
}

void room::vacation_changed(const std::string& player,
                            std::optional<std::chrono::milliseconds> left) {
  clocks_.vacation_changed(player, left);
}

std::string room::room_info_now(room_part::clock_span* clock) const {
  std::string fairness;
  if (!settings_.secret.empty())
    append_fairness_part(fairness, commitment_, members_.seats, votes_.rematch().commitment(),
                         settings_.secret, table_.finished());
  return room_info_text({settings_, part_, members_.seats, bots_.settings(), clocks_,
                         clock_read_now(clocks_, table_, timer_), fairness, votes_.rematch(),
                         members_.shown_spectators(), state_of(table_), votes_.undo()},
                        clock);
}

void room::reset_room_part() {
  part_.reset(room_info_now(), clock_read_now(clocks_, table_, timer_));
}

void room::out(const client_ptr& c, frame_ptr frame) {
  writes_.send(c, std::move(frame));
}

void room::send(const client_ptr& c, const json& message) {
  out(c, std::make_shared<const std::string>(message.dump()));
}

void room::fail(const client_ptr& c, const json& id, std::string code, std::string message) {
  if (metrics_) metrics_->rejected(code);
  send(c, protocol::error_message({std::move(code), std::move(message)}, id));
}

void room::send_snapshot(const client_ptr& c, int seat, const json& id) {
  std::string msg;
  protocol::object_writer w(msg);
  w.string("type", "snapshot").string("room", settings_.id).number("seq", seq_);
  if (!id.is_null()) w.dumped("id", id);
  // The view's clock is as of seq, when its patch was made: how long the running seat's clock
  // has run since, so that a client counts down from the right time (docs/protocol.md §6).
  if (const auto read = part_.clock_read_at(); read && timer_) {
    const auto ran = clocks_.clock().running() ? timer_->now() - *read : room_clock::ms(0);
    w.number("clock_elapsed_ms", std::chrono::duration_cast<room_clock::ms>(ran).count());
  }
  w.text("view", view_text(part_.text(), table_, members_.seats, seat)).close();
  out(c, std::make_shared<const std::string>(std::move(msg)));
}

// One change, as one patch per distinct view: seats' private parts, spectators' public one.
void room::broadcast(const event_log& events) {
  // No frame shows a seq the store could not bring back after a restart or a failover (a
  // change that writes nothing, a spectator arriving, still counts): the meta claims the next
  // seq_reserve numbers ahead, once every seq_reserve changes.
  if (writes_.writing() && seq_ + 1 > writes_.claimed()) saves_.meta(saving());
  ++seq_;
  std::string room_ops;  // the room part's operations since the last patch (mostly none)
  room_part::clock_span clock;
  auto info = room_info_now(&clock);
  const bool info_changed =
      part_.update(std::move(info), clock, clock_read_now(clocks_, table_, timer_), room_ops);
  std::string game_events;
  protocol::append_events_text(game_events, events);
  const auto events_now = events_text(room_events_, std::move(game_events));
  const bool game_appeared = game_appears(table_);
  std::string seat_ops = room_ops;
  update_public_view(table_, game_appeared, seat_ops);
  // The summary is made of the room part (and the record once the game is over). Published
  // before the frames leave: a client told of the end may ask for the record at once, from
  // another thread.
  if (info_changed || table_.finished()) publish_summary();
  if (info_changed) audience_.shown();  // the spectators' count as it is now went with it
  const frame_sink sink = [this](const client_ptr& c, frame_ptr f) { out(c, std::move(f)); };
  send_seat_patches(members_.seats, table_, seq_, patch_head(settings_.id, seq_, events_now),
                    seat_ops, game_appeared, sink);
  if (!members_.spectators.empty() || table_.delayed.active()) {
    auto frame = spectator_patch(table_, settings_.id, seq_, settings_.spectator_delay > 0,
                                 events_now, room_ops, seat_ops, game_appeared);
    writes_.send_all(members_.spectators.all(), frame);  // a few hundred at a time (handover.hpp)
  }
  schedule_bots();
}

void room::publish_summary() {
  room_summary s;
  s.id = settings_.id;
  s.name = settings_.name;
  s.state = state_of(table_);
  s.is_public = settings_.is_public;
  s.seats = settings_.seats;
  s.spectators = static_cast<int>(members_.shown_spectators());
  s.spectator_delay = settings_.spectator_delay;
  // The relay's link too: a room watched from other instances stays in memory, as one watched
  // here does.
  s.connections = static_cast<int>(members_.spectators.size());
  s.commitment = commitment_;
  for (std::size_t i = 0; i < members_.seats.size(); ++i) {
    const auto& seat = members_.seats[i];
    s.connections += seat.client != nullptr;
    if (!seat.taken) continue;
    ++s.taken;
    s.players.push_back(seat.name);
    if (seat.bot)
      s.bots.push_back({{"seat", i}, {"name", seat.name}, {"level", name_of(*seat.bot)}});
  }
  const bool finished = table_.game && table_.game->finished;
  if (listing_.publish(std::move(s), finished,
                       [this] { return record_parts_of(table_, settings_, members_.seats); }) &&
      hooks_.finished)
    hooks_.finished();
}

json room::record() const {
  return record_of(record_parts_of(table_, settings_, members_.seats));
}

}  // namespace carcassonne::server
