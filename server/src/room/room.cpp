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

namespace carcassonne::server {

room::room(room_settings settings, metrics* m, std::weak_ptr<const client_link> creator)
    : settings_(std::move(settings)),
      commitment_(settings_.secret.empty() ? "" : fairness::commitment_of(settings_.secret)),
      metrics_(m),
      creator_(std::move(creator)),
      seats_(settings_.seats),
      table_(settings_.spectator_delay),
      part_(settings_),
      // The summary's parts that never change, made once (a clocked game publishes with every
      // move, its clock being part of the room).
      listing_(settings_.setup.is_object() ? settings_.setup.value("expansions", json::array())
                                           : json::array(),
               settings_.match.is_default() ? json() : settings_.match.to_json()),
      bots_(settings_.seed, settings_.id, m, bot_hooks()),
      notices_(settings_.id, settings_.name, settings_.match.clock),
      clocks_(settings_.match, clock_hooks()),
      audience_([this] {
        if (!writes_.stopped()) broadcast({});
      }) {
  if (!settings_.setup.is_object()) settings_.setup = json::object();
  // A room whose randomness is provable commits to its rematch's secret too (fairness.md).
  if (!settings_.secret.empty() && settings_.rematch_secret.empty())
    settings_.rematch_secret = fairness::new_secret();
  if (!settings_.rematch_secret.empty())
    rematch_ = rematch_state(fairness::commitment_of(settings_.rematch_secret));
  reset_room_part();
  publish_summary();
}

room::~room() {
  if (!timer_) return;
  for (const auto h : {undo_request_ ? undo_request_->timer : 0, rematch_.timer()})
    if (h) timer_->cancel(h);
}

int room::seat_of(const client_link* c) const {
  for (std::size_t i = 0; i < seats_.size(); ++i)
    if (seats_[i].client.get() == c) return static_cast<int>(i);
  return -1;
}

bool room::is_spectator(const client_link* c) const {
  return std::any_of(spectators_.begin(), spectators_.end(),
                     [&](const client_ptr& s) { return s.get() == c; });
}

void room::out(const client_ptr& c, frame_ptr frame) {
  writes_.send(c, std::move(frame));
}

void room::send(const client_ptr& c, const json& message) {
  out(c, std::make_shared<const std::string>(message.dump()));
}

void room::answer(const client_ptr& c, int seat, const json& id, const json& message) {
  answer(c, seat, id, message.dump());
}

void room::answer(const client_ptr& c, int seat, const json& id, std::string message_text) {
  auto frame = std::make_shared<const std::string>(std::move(message_text));
  if (seat >= 0 && !id.is_null()) {
    auto& cache = seats_[seat].answered;
    cache.emplace_back(id, frame);
    if (cache.size() > answers_kept) cache.pop_front();
  }
  out(c, std::move(frame));
}

void room::fail(const client_ptr& c, const json& id, std::string code, std::string message) {
  if (metrics_) metrics_->rejected(code);
  send(c, protocol::error_message({std::move(code), std::move(message)}, id));
}

std::string room::view_text(int seat) {
  std::string out;
  protocol::object_writer w(out);
  w.text("room", part_.text());
  if (!table_.game) {
    w.text("game", "null").close();
  } else if (seat >= 0) {
    seats_[seat].private_view = protocol::private_doc(*table_.game, seat);
    w.text("game", table_.public_view.text(&seats_[seat].private_view)).close();
  } else {
    const auto mine = protocol::private_doc(*table_.game, protocol::spectator);
    w.text("game", table_.spectator_doc().text(&mine)).close();
  }
  return out;
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
  w.text("view", view_text(seat)).close();
  out(c, std::make_shared<const std::string>(std::move(msg)));
}

// One change, as one patch per distinct view: seats' private parts, spectators' public one.
void room::broadcast(const event_log& events) {
  // No frame shows a seq the store could not bring back after a restart or a failover (a
  // change that writes nothing, a spectator arriving, still counts): the meta claims the next
  // seq_reserve numbers ahead, once every seq_reserve changes.
  if (writes_.writing() && seq_ + 1 > writes_.claimed()) persist_meta();
  ++seq_;
  std::string shared_ops;
  const bool info_changed = update_room_part(shared_ops);
  std::string events_text;
  protocol::append_events_text(events_text, events);
  if (!room_events_.empty()) {  // the room's own events first (rare: built as they come)
    std::string all = "[";
    for (const auto& e : room_events_) {
      if (all.size() > 1) all += ',';
      all += e;
    }
    if (events_text.size() > 2) all += ',';
    all.append(events_text, 1);
    events_text = std::move(all);
    room_events_.clear();
  }
  const bool game_appeared = table_.game && table_.public_view.fields.empty();
  std::string seat_ops = shared_ops;
  if (table_.game) {
    auto now =
        protocol::public_doc(*table_.game, table_.names, &table_.public_view, &table_.board_memo);
    if (!game_appeared) protocol::diff_docs(table_.public_view, now, "/game", seat_ops);
    table_.public_view = std::move(now);
  }
  // The summary is made of the room part (and the record once the game is over). Published
  // before the frames leave: a client told of the end may ask for the record at once, from
  // another thread.
  if (info_changed || (table_.game && table_.game->finished)) publish_summary();
  if (info_changed) audience_.shown();  // the spectators' count as it is now went with it
  send_seat_patches(patch_head(events_text), seat_ops, game_appeared);
  if (!spectators_.empty() || table_.delayed.active())
    send_spectator_patch(events_text, shared_ops, seat_ops, game_appeared);
  schedule_bots();
}

// A patch frame up to its list of operations: the frame is that, the operations, and "]}".
std::string room::patch_head(std::string_view events_text) const {
  std::string head;
  protocol::object_writer w(head);
  w.string("type", "patch").string("room", settings_.id).number("seq", seq_);
  w.text("events", events_text).key("patch").push_back('[');
  return head;
}

// The room part's operations since the last patch (most moves change nothing in it).
bool room::update_room_part(std::string& ops) {
  room_part::clock_span clock;
  auto text = room_info_text(&clock);
  return part_.update(std::move(text), clock, clock_read_now(), ops);
}

// Seats: the public diff (in `ops`) once, then each seat's private part; each frame is written
// in one piece.
void room::send_seat_patches(const std::string& head, const std::string& ops, bool game_appeared) {
  std::string mine_ops;  // the seat's own operations
  frame_ptr common;      // the frame of the seats without operations of their own
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    auto& s = seats_[i];
    mine_ops.clear();
    // A seat with nothing of its own to see, before and now: its part is unchanged.
    const bool unchanged = table_.game && !game_appeared && s.private_view.fields.size() == 1 &&
                           protocol::private_doc_is_viewer_only(*table_.game, static_cast<int>(i));
    if (table_.game && !unchanged) {
      auto mine = protocol::private_doc(*table_.game, static_cast<int>(i));
      if (game_appeared) {
        mine_ops += R"({"op":"replace","path":"/game","value":)";
        mine_ops += table_.public_view.text(&mine);
        mine_ops.push_back('}');
      } else {
        protocol::diff_docs(s.private_view, mine, "/game", mine_ops);
      }
      s.private_view = std::move(mine);
    }
    // A seat its owner may resume keeps its patches, also while away (for a while), once the game
    // is under way: the patch that brings the game, and what comes before, are no part of the
    // window (a resume from there gets a snapshot), so an idle room holds none.
    const bool keep = table_.game && !game_appeared && s.taken && !s.bot &&
                      (s.client || s.missed < resume_window::patches);
    if (!keep) s.recent.clear();
    if (!s.client) {
      if (!keep) continue;
      ++s.missed;
    }
    if (mine_ops.empty() && common) {  // the same frame as another seat's: shared
      if (keep) s.recent.remember(seq_, common);
      if (s.client) out(s.client, common);
      continue;
    }
    std::string frame;
    frame.reserve(head.size() + ops.size() + mine_ops.size() + 3);
    frame += head;
    frame += ops;
    if (!ops.empty() && !mine_ops.empty()) frame.push_back(',');
    frame += mine_ops;
    frame += "]}";
    auto f = std::make_shared<const std::string>(std::move(frame));
    if (mine_ops.empty()) common = f;
    if (keep) s.recent.remember(seq_, f);
    if (s.client) out(s.client, std::move(f));
  }
}

// Spectators: the seats' public diff, or their own when they watch with a delay; one frame for
// all of them.
void room::send_spectator_patch(const std::string& events_text, const std::string& shared_ops,
                                const std::string& seat_ops, bool game_appeared) {
  std::string ops = shared_ops;
  if (table_.game) {
    if (table_.delayed.active()) {
      table_.delayed.follow(table_.journal.moves, table_.game->finished, table_.names,
                            game_appeared ? nullptr : &ops);
    } else if (!game_appeared) {
      ops = seat_ops;
    }
    if (game_appeared) {
      const auto mine = protocol::private_doc(*table_.game, protocol::spectator);
      if (!ops.empty()) ops += ',';
      ops +=
          R"({"op":"replace","path":"/game","value":)" + table_.spectator_doc().text(&mine) + "}";
    }
  }
  // Events are withheld from delayed spectators: they would reveal the present.
  const bool withheld = settings_.spectator_delay > 0 && table_.game && !table_.game->finished;
  auto frame =
      std::make_shared<const std::string>(patch_head(withheld ? "[]" : events_text) + ops + "]}");
  for (const auto& c : spectators_) out(c, frame);
}

void room::publish_summary() {
  room_summary s;
  s.id = settings_.id;
  s.name = settings_.name;
  s.state = state();
  s.is_public = settings_.is_public;
  s.seats = settings_.seats;
  s.spectators = static_cast<int>(shown_spectators());
  s.spectator_delay = settings_.spectator_delay;
  // The relay's link too: a room watched from other instances stays in memory, as one watched
  // here does.
  s.connections = static_cast<int>(spectators_.size());
  s.commitment = commitment_;
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    const auto& seat = seats_[i];
    s.connections += seat.client != nullptr;
    if (!seat.taken) continue;
    ++s.taken;
    s.players.push_back(seat.name);
    if (seat.bot)
      s.bots.push_back({{"seat", i}, {"name", seat.name}, {"level", name_of(*seat.bot)}});
  }
  const bool finished = table_.game && table_.game->finished;
  if (listing_.publish(std::move(s), finished, [this] { return parts_of_record(); }) &&
      on_finished_)
    on_finished_();
}

json room::record() const {
  return record_of(parts_of_record());
}

record_parts room::parts_of_record() const {
  std::vector<std::string> nonces;
  for (const auto& s : seats_) nonces.push_back(s.nonce);
  return table_.record(settings_.secret, std::move(nonces));
}

}  // namespace carcassonne::server
