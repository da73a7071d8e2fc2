// The room's answers to client messages (docs/protocol.md). Every refusal is an error message
// with a stable code, and changes nothing.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

#include "base/random_ids.hpp"
#include "base/sha256.hpp"
#include "carcassonne/protocol/json_codec.hpp"
#include "carcassonne/protocol/json_text.hpp"
#include "carcassonne/protocol/record.hpp"
#include "fairness/fairness.hpp"
#include "room/room.hpp"
#include "room/room_fairness.hpp"
#include "room/seat_choice.hpp"

namespace carcassonne::server {

namespace {

// A mover's answer, kept for a duplicate of the request (seat_slot answered) before it is sent.
frame_ptr kept_answer(std::vector<seat_slot>& seats, int seat, const json& id, std::string text) {
  auto frame = std::make_shared<const std::string>(std::move(text));
  if (seat >= 0 && !id.is_null()) remember_answer(seats[static_cast<std::size_t>(seat)], id, frame);
  return frame;
}

// A move named for a bot's seat: only its bot moves there.
std::optional<protocol::proto_error> bot_seat_refusal(const std::vector<seat_slot>& seats,
                                                      std::optional<long long> named) {
  if (!named) return std::nullopt;
  const auto n = *named;
  if (n < 0 || n >= static_cast<long long>(seats.size()) || !seats[n].bot) return std::nullopt;
  return protocol::proto_error{"not_your_seat",
                               "seat " + std::to_string(n) + " is a bot's: only it moves there"};
}

}  // namespace

void room::join(const client_ptr& c, const protocol::join_msg& m, const json& id,
                const std::string& player) {
  if (writes_.stopped()) return fail(c, id, "room_moved", moved_message(settings_.id));
  if (members_.seat_of(c.get()) >= 0 || members_.is_spectator(c.get()))
    return fail(c, id, "already_in_room", "you are already in this room");
  if (!player.empty() &&
      std::any_of(members_.seats.begin(), members_.seats.end(),
                  [&](const seat_slot& s) { return s.taken && s.player == player; }))
    return fail(c, id, "already_seated", "you have a seat in this room already: resume it");
  if (table_.game)
    return fail(c, id, "already_started",
                "the game has started; seated players resume with their token");
  auto chosen = choose_seat(members_.seats, settings_.seats, m.seat);
  if (auto* refused = std::get_if<protocol::proto_error>(&chosen))
    return fail(c, id, std::move(refused->code), std::move(refused->message));
  const int seat = std::get<int>(chosen);
  auto& s = members_.seats[seat];
  s.taken = true;
  s.name = m.name;
  s.player = player;
  if (m.nonce) s.nonce = *m.nonce;
  const std::string token = random_hex(32);
  s.token_hash = sha256_hex(token);
  s.token = token;
  s.client = c;
  s.missed = 0;
  if (members_.is_creator(c.get()) && members_.creator_seat < 0) members_.creator_seat = seat;
  c->set_room(settings_.id, true);
  spdlog::info("room {} seat {}: joined as {}", settings_.id, seat,
               json(m.name).dump());  // escaped: one line
  saves_.meta(saving());              // the token is only handed out once the seat is durable
  send(c,
       protocol::reply("joined", id, {{"room", settings_.id}, {"seat", seat}, {"token", token}}));
  // The newcomer gets the last view sent to everyone, then the same patch as everyone.
  send_snapshot(c, seat, nullptr);
  note_presence();
  broadcast({});
}

void room::spectate(const client_ptr& c, const json& id) {
  if (writes_.stopped()) return fail(c, id, "room_moved", moved_message(settings_.id));
  if (members_.seat_of(c.get()) >= 0 || members_.is_spectator(c.get()))
    return fail(c, id, "already_in_room", "you are already in this room");
  if (members_.local_spectators() >= settings_.max_spectators)
    return fail(c, id, "too_many_spectators", "this room has as many spectators as it takes");
  members_.spectators.add(c);
  c->set_room(settings_.id, true);
  send(c, protocol::reply("spectating", id, {{"room", settings_.id}}));
  send_snapshot(c, -1, nullptr);
  audience_.changed();
}

void room::resume(const client_ptr& c, const protocol::resume_msg& m, const json& id,
                  const std::string& player) {
  if (writes_.stopped()) return fail(c, id, "room_moved", moved_message(settings_.id));
  const std::string hash = m.token.empty() ? std::string() : sha256_hex(m.token);
  auto it = std::find_if(members_.seats.begin(), members_.seats.end(), [&](const seat_slot& s) {
    if (!s.taken) return false;
    if (hash.empty()) return !player.empty() && !s.bot && s.player == player;
    return equal_constant_time(s.token_hash, hash);
  });
  if (it == members_.seats.end() && hash.empty())
    return fail(c, id, "bad_token",
                player.empty() ? "resume needs the seat's token (or to be signed in as its player)"
                               : "no seat of this room is yours");
  if (it == members_.seats.end())
    return fail(c, id, "bad_token", "no seat of this room has that token");
  const int seat = static_cast<int>(it - members_.seats.begin());
  if (const int held = members_.seat_of(c.get()); held >= 0 && held != seat)
    return fail(c, id, "already_in_room", "this connection already holds another seat");
  if (it->client && it->client != c) {
    // The seat moves to the new connection; the old one is told and leaves the room.
    send(it->client,
         protocol::reply("replaced", nullptr, {{"room", settings_.id}, {"seat", seat}}));
    it->client->set_room(settings_.id, false);
  }
  members_.spectators.remove(c.get());
  it->client = c;
  if (!m.token.empty()) it->token = m.token;  // a resume by player shows none
  if (std::exchange(it->played_by, std::nullopt))
    spdlog::info("room {} seat {}: back, the bot stops playing for it", settings_.id, seat);
  c->set_room(settings_.id, true);
  spdlog::info("room {} seat {}: resumed", settings_.id, seat);
  it->missed = 0;
  send(c, protocol::reply("resumed", id, {{"room", settings_.id}, {"seat", seat}, {"seq", seq_}}));
  // The patches after last_seq when the seat still has them all (§12), else the whole view.
  if (m.last_seq && it->recent.covers(*m.last_seq, seq_)) {
    for (auto& frame : it->recent.after(*m.last_seq)) out(c, std::move(frame));
  } else {
    send_snapshot(c, seat, nullptr);
  }
  votes_.resume(c, seat, m.token);  // a seat away when its rematch was made learns of it now
  note_presence();
  broadcast({});
}

void room::leave(const client_ptr& c, const json& id) {
  const int seat = members_.seat_of(c.get());
  if (seat >= 0) {
    auto& s = members_.seats[seat];
    s.client = nullptr;
    if (!table_.game) {
      s = seat_slot{};  // before the start the seat is free again, and loses start rights
      if (seat == members_.creator_seat) members_.creator_seat = -1;
      saves_.meta(saving());
    }
  } else if (members_.is_spectator(c.get())) {
    members_.spectators.remove(c.get());
  } else {
    return fail(c, id, "not_in_room", "you are not in this room");
  }
  c->set_room(settings_.id, false);
  spdlog::info("room {} seat {}: left", settings_.id, seat);
  send(c, protocol::reply("left", id, {{"room", settings_.id}}));
  if (seat < 0) return audience_.changed();
  note_presence();
  broadcast({});
}

void room::disconnected(const client_ptr& c) {
  const int seat = members_.seat_of(c.get());
  if (seat >= 0) {
    members_.seats[seat].client = nullptr;  // the seat stays its owner's (resume)
    spdlog::info("room {} seat {}: disconnected", settings_.id, seat);
  } else if (members_.is_spectator(c.get())) {
    members_.spectators.remove(c.get());
    return audience_.changed();
  } else {
    return;
  }
  note_presence();
  broadcast({});
}

void room::start(const client_ptr& c, const json& id) {
  const int seat = members_.seat_of(c.get());
  if (!members_.is_creator(c.get()) && (seat < 0 || seat != members_.creator_seat))
    return fail(c, id, "not_creator", "only the room's creator starts the game");
  if (table_.game) return fail(c, id, "already_started", "the game has already started");
  const auto taken_count = std::count_if(members_.seats.begin(), members_.seats.end(),
                                         [](const seat_slot& s) { return s.taken; });
  if (taken_count < min_seats)
    return fail(c, id, "too_few_players", "at least 2 seats must be taken");
  // Seats are renumbered in order without gaps: the engine's seat i is the i-th taken seat.
  std::vector<seat_slot> taken;
  for (const auto& s : members_.seats)
    if (s.taken) taken.push_back(s);
  json setup = settings_.setup;
  json players = json::array();
  for (const auto& s : taken) {
    json p{{"name", s.name}};
    if (const auto who = player_of(s); !who.empty()) p["player"] = who;
    players.push_back(std::move(p));
  }
  setup["players"] = players;
  if (!setup.contains("seed")) setup["seed"] = game_seed(settings_, taken);
  auto parsed = protocol::parse_setup(setup);
  if (!parsed.ok()) return fail(c, id, parsed.error.code, parsed.error.message);
  event_log first_turn;  // the first draw is part of the start: clients see it as events
  auto g = new_game(parsed.value->setup, &first_turn);
  if (!g.ok()) return fail(c, id, std::string(code_name(g.err().code)), g.err().message);

  if (members_.creator_seat >= 0) {
    const auto creator_token = members_.seats[members_.creator_seat].token_hash;
    members_.creator_seat = -1;
    for (std::size_t i = 0; i < taken.size(); ++i)
      if (taken[i].token_hash == creator_token) members_.creator_seat = static_cast<int>(i);
  }
  members_.seats = std::move(taken);
  settings_.seats = static_cast<int>(members_.seats.size());
  std::vector<std::string> names;
  for (const auto& s : members_.seats) names.push_back(s.name);
  auto first_outcomes = fairness::outcomes_text(g.value(), first_turn, true);
  table_.start(std::move(g.value()), std::move(names), setup.dump(), std::move(first_outcomes));
  if (metrics_) metrics_->games_started.fetch_add(1, std::memory_order_relaxed);
  spdlog::info("room {}: game started with {} seats", settings_.id, members_.seats.size());
  saves_.meta(saving());
  send(c, protocol::reply("started", id, {{"room", settings_.id}}));
  clocks_.start(static_cast<int>(members_.seats.size()));
  clocks_.changed(true);
  note_presence();
  broadcast(first_turn);
  clocks_.look_up();
}

void room::move(const client_ptr& c, protocol::move_msg m, const json& id) {
  const auto started = std::chrono::steady_clock::now();
  const int seat = members_.seat_of(c.get());
  if (seat < 0) return fail(c, id, "not_seated", "only a seated player moves");
  if (!table_.game) return fail(c, id, "not_started", "the game has not started");
  if (!id.is_null()) {  // a duplicate is answered again, never applied twice
    for (const auto& [answered_id, frame] : members_.seats[seat].answered)
      if (answered_id == id) return out(c, frame);
  }
  if (writes_.stopped())
    return fail(c, id, "storage_failed",
                "the server could not store this room's last change: it takes no more moves");
  const auto refuse = [&](const protocol::proto_error& e) {
    if (metrics_) metrics_->rejected(e.code);
    out(c, kept_answer(members_.seats, seat, id, protocol::error_message(e, id).dump()));
  };
  if (m.seq && *m.seq != seq_)
    return refuse({"stale_sequence", "your view is at " + std::to_string(*m.seq) +
                                         ", the room at " + std::to_string(seq_) +
                                         ": apply the missing patches or ask for a snapshot"});
  // The seat the move names, if any: a bot's is refused, so is another's; then it is the mover's.
  std::optional<long long> named;  // when it names one by an integer
  bool other = false;              // it names another (compared as JSON values: 1.0 is seat 1)
  if (const auto* s = m.move.find("seat")) {
    using kind = protocol::flat_object::kind;
    if (s->type == kind::integer) named = s->number;
    other = s->type == kind::other ? m.move.nested(*s) != json(seat) : named != seat;
  }
  if (auto e = bot_seat_refusal(members_.seats, named)) return refuse(*e);
  if (other) return refuse({"wrong_seat", "you hold seat " + std::to_string(seat)});
  m.move.set_integer("seat", seat);
  const auto parsed = protocol::move_from_flat(m.move, *table_.game);
  if (!parsed.ok()) return refuse(parsed.error);
  if (auto e = play_move(seat, *parsed.value, id, c)) return refuse(*e);
  if (metrics_)
    metrics_->observe_move_seconds(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
}

std::optional<protocol::proto_error> room::play_move(int seat, const carcassonne::move& mv,
                                                     const json& id, const client_ptr& c) {
  // The record form, written before the move changes the board (features by the tile's ids).
  // Stored and journaled as written.
  std::string normal_text = protocol::move_text(mv, *table_.game);
  event_log events;
  if (auto st = apply_in_place(*table_.game, mv, &events); !st)
    return protocol::from_engine(st.err());
  table_.journal.moves.push_back(normal_text);
  table_.outcomes.push_back(fairness::outcomes_text(*table_.game, events));
  // In the journal before anyone hears of it: the answer and the patch wait for the commit.
  // Arguments are evaluated even when the level is off: the text is only logged, never re-made.
  if (spdlog::should_log(spdlog::level::debug))
    spdlog::debug("room {} seat {}: {}", settings_.id, seat, normal_text);
  saves_.write(saving(), move_write{settings_.id, writes_.next_row(), std::move(normal_text),
                                    id.dump(), seq_ + 1});
  after_move(mv, events);
  if (table_.game->finished) {
    saves_.meta(saving());
    publish_summary();  // the record readable before the answer below tells of the end
    std::string scores;
    for (int s = 0; s < table_.game->seats; ++s) {
      if (s) scores += ' ';
      scores += std::to_string(table_.game->players[s].score);
    }
    spdlog::info("room {}: game finished after {} moves, scores {}", settings_.id,
                 table_.journal.moves.size(), scores);
  }
  if (metrics_) {
    // Counted before the frames leave, so that a client who sees the move sees it counted.
    metrics_->moves_accepted.fetch_add(1, std::memory_order_relaxed);
    if (!c) metrics_->bot_moves.fetch_add(1, std::memory_order_relaxed);  // no client: a bot's
    if (table_.game->finished) metrics_->games_finished.fetch_add(1, std::memory_order_relaxed);
  }
  // protocol::reply("move_accepted", id, {{"seq", ...}}) as its dump would write it, keys sorted.
  std::string accepted;
  protocol::object_writer w(accepted);
  if (!id.is_null()) w.dumped("id", id);
  w.number("seq", static_cast<long long>(seq_ + 1)).string("type", "move_accepted").close();
  out(c, kept_answer(members_.seats, seat, id, std::move(accepted)));
  broadcast(events);
  return std::nullopt;
}

void room::chat(const client_ptr& c, const protocol::chat_msg& m, const json& id) {
  const int seat = members_.seat_of(c.get());
  if (seat < 0) return fail(c, id, "not_seated", "only seated players chat");
  const auto frame = std::make_shared<const std::string>(json{
      {"type", "chat"},
      {"room", settings_.id},
      {"seat", seat},
      {"name", members_.seats[seat].name},
      {"text", m.text}}.dump());
  for (const auto& s : members_.seats) out(s.client, frame);
  writes_.send_all(members_.spectators.all(), frame);
  if (!id.is_null()) send(c, protocol::reply("chat_sent", id));
}

void room::snapshot(const client_ptr& c, const json& id) {
  const int seat = members_.seat_of(c.get());
  if (seat < 0 && !members_.is_spectator(c.get()))
    return fail(c, id, "not_in_room", "you are not in this room");
  send_snapshot(c, seat, id);
}

}  // namespace carcassonne::server
