// One WebSocket connection. Runs on its own strand; rooms reach it through client_link, which
// posts onto that strand. Every limit is enforced here: frame size, message rate, and the
// outbound queue (a client that does not read is dropped; the room goes on).
// An idle connection holds as little as Beast allows (docs/performance.md "Memory"): the stream
// sits on the bare socket (the HTTP stream's timers are not needed: the WebSocket stream keeps
// its own), and no message buffer is held between messages.
#include <spdlog/spdlog.h>

#include <chrono>
#include <optional>
#include <string>
#include <utility>

#include "address_limits.hpp"
#include "carcassonne/protocol/messages.hpp"
#include "carcassonne/server/fifo.hpp"
#include "fairness.hpp"
#include "moved.hpp"
#include "net.hpp"
#include "replay_view.hpp"

namespace carcassonne::server {

class websocket_session : public client_link,
                          public std::enable_shared_from_this<websocket_session> {
 public:
  websocket_session(tcp::socket socket, std::shared_ptr<shared_state> state,
                    std::unique_ptr<address_limits::lease> address)
      : ws_(std::move(socket)),
        state_(std::move(state)),
        address_(std::move(address)),
        tokens_(state_->cfg.message_burst) {}

  void run(http::request<http::string_body> request) {
    auto timeouts = websocket::stream_base::timeout::suggested(beast::role_type::server);
    timeouts.idle_timeout = std::chrono::seconds(state_->cfg.idle_timeout_seconds);
    timeouts.keep_alive_pings = true;
    ws_.set_option(timeouts);
    ws_.read_message_max(state_->cfg.max_message_bytes);
    ws_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(http::field::server, "carcassonne"); }));
    ws_.async_accept(request,
                     beast::bind_front_handler(&websocket_session::on_accept, shared_from_this()));
  }

  void deliver(frame_ptr frame) override {
    net::post(ws_.get_executor(),
              [self = shared_from_this(), frame = std::move(frame)] { self->enqueue(frame); });
  }

  void deliver_all(std::vector<frame_ptr> frames) override {
    net::post(ws_.get_executor(), [self = shared_from_this(), frames = std::move(frames)] {
      for (const auto& f : frames) self->enqueue(f);
    });
  }

  void set_room(const std::string& room_id, bool member) override {
    net::post(ws_.get_executor(), [self = shared_from_this(), room_id, member] {
      if (member)
        self->room_ = room_id;
      else if (self->room_ == room_id)
        self->room_.clear();
    });
  }

  // Graceful shutdown: a goodbye frame, then the close handshake with "going away".
  void say_goodbye() {
    net::post(ws_.get_executor(), [self = shared_from_this()] {
      if (self->closing_) return;
      self->enqueue(std::make_shared<const std::string>(
          R"({"type":"goodbye","reason":"the server is shutting down"})"));
      self->close_after_queue_ = true;
      self->maybe_close();
    });
  }

 private:
  void on_accept(beast::error_code ec) {
    if (ec) return;
    state_->stats.connections.fetch_add(1);
    state_->stats.connections_total.fetch_add(1);
    counted_ = true;
    {
      std::lock_guard lock(state_->sessions_mutex);
      state_->sessions.insert(weak_from_this());
    }
    spdlog::debug("connection open");
    read();
  }

  // Between messages a one-byte read waits for the next data frame's header (Beast answers pings
  // and reads pongs meanwhile, and refuses a frame over the limit from its header); only then is
  // the rest of the message read, into a string that its length sizes and that handle() takes.
  // (Not a zero-byte read: in Beast 1.81 it crashes in the UTF-8 check of the empty buffer.)
  void read() {
    ws_.async_read_some(
        net::buffer(&first_byte_, 1),
        beast::bind_front_handler(&websocket_session::on_first_byte, shared_from_this()));
  }

  void on_first_byte(beast::error_code ec, std::size_t bytes) {
    if (finished_) return;
    text_.assign(&first_byte_, bytes);
    if (ec || ws_.is_message_done()) return on_read(ec, bytes);  // an error, or a short message
    text_buffer_.emplace(text_);
    ws_.async_read(*text_buffer_, [self = shared_from_this()](beast::error_code e, std::size_t n) {
      self->on_read(e, n + 1);
    });
  }

  void on_read(beast::error_code ec, std::size_t bytes) {
    if (finished_) return;  // finished by a failed write meanwhile: its address is released
    text_buffer_.reset();
    if (ec) {
      if (ec == websocket::error::message_too_big) {
        state_->stats.dropped_oversize.fetch_add(1);
        spdlog::info("room {}: connection closed: frame over {} bytes", room_,
                     state_->cfg.max_message_bytes);
      }
      return finish();
    }
    state_->stats.messages_in.fetch_add(1, std::memory_order_relaxed);
    state_->stats.bytes_in.fetch_add(static_cast<std::int64_t>(bytes), std::memory_order_relaxed);
    const std::string text = std::exchange(text_, std::string());
    // Every frame costs a token, text or binary (docs/protocol.md §15): the connection's own,
    // then one of its address's shared budget.
    const bool own = within_rate();
    const bool shared = own && address_->take_message();
    if (own && !shared) state_->stats.refused(metrics::refusal::address_messages);
    if (!shared) {
      state_->stats.rejected("rate_limited");
      // Dropped unread, but the id is echoed so that the client knows which request to retry.
      send_json(protocol::error_message(
          {"rate_limited", "too many messages: slow down"},
          ws_.got_text() ? protocol::parse_request(text).id : nlohmann::json()));
      if (++strikes_ >= state_->cfg.rate_strikes) {
        state_->stats.dropped_flood.fetch_add(1);
        spdlog::info("room {}: connection closed for flooding", room_);
        close_code_ = websocket::close_code::policy_error;
        close_after_queue_ = true;
        maybe_close();
        return;
      }
    } else if (!ws_.got_text()) {
      state_->stats.rejected("bad_message");
      send_json(protocol::error_message({"bad_message", "frames must be text (JSON)"}));
    } else {
      handle(text);
    }
    if (!closing_) read();
  }

  bool within_rate() {
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - last_refill_).count();
    last_refill_ = now;
    tokens_ = std::min(state_->cfg.message_burst, tokens_ + elapsed * state_->cfg.message_rate);
    if (tokens_ < 1) return false;
    tokens_ -= 1;
    return true;
  }

  void handle(const std::string& text);
  // One handler per message type (protocol::client_message).
  void on(const protocol::hello_msg& m, const nlohmann::json& id);
  void on(const protocol::ping_msg& m, const nlohmann::json& id);
  void on(const protocol::list_rooms_msg& m, const nlohmann::json& id);
  void on(const protocol::create_room_msg& m, const nlohmann::json& id);
  void on(const protocol::join_msg& m, const nlohmann::json& id);
  void on(const protocol::spectate_msg& m, const nlohmann::json& id);
  void on(const protocol::resume_msg& m, const nlohmann::json& id);
  void on(const protocol::leave_msg& m, const nlohmann::json& id);
  void on(const protocol::start_msg& m, const nlohmann::json& id);
  void on(const protocol::move_msg& m, const nlohmann::json& id);
  void on(const protocol::chat_msg& m, const nlohmann::json& id);
  void on(const protocol::snapshot_msg& m, const nlohmann::json& id);
  void on(const protocol::nonce_msg& m, const nlohmann::json& id);
  void on(const protocol::history_msg& m, const nlohmann::json& id);
  void on(const protocol::match_msg& m, const nlohmann::json& id);
  void on(const protocol::replay_msg& m, const nlohmann::json& id);
  void on(const protocol::add_bot_msg& m, const nlohmann::json& id);
  void on(const protocol::remove_bot_msg& m, const nlohmann::json& id);
  // Refusals that leave the connection as it is: not in a room, or in another one.
  bool in_room(const char* what, const nlohmann::json& id);
  bool not_elsewhere(const std::string& target, const nlohmann::json& id);
  // Posts `call` onto the strand of the room this connection is in, if any.
  template <class Call>
  void in_current_room(const char* what, const nlohmann::json& id, Call call);
  // located: the directory was asked already (a room this instance does not know).
  void replay(const protocol::replay_msg& m, const nlohmann::json& id, bool located = false);
  void create_room(const protocol::create_room_msg& m, const nlohmann::json& id);
  // Posts `call` onto the room's strand; `enter`: a join, spectate or resume, which may rebuild
  // a finished room from the store, and which finish() must undo even if it has not landed yet.
  template <class Call>
  void to_room(const std::string& room_id, const nlohmann::json& id, Call call, bool enter = false);
  // A join, spectate or resume: to_room(), or in a cluster, for a room not held here, `moved`
  // to its owner once the directory has said where it is.
  template <class Call>
  void enter(const std::string& room_id, const nlohmann::json& id, Call call);
  // In a cluster: asks the directory where a room not held here is, then answers `moved` (or
  // room_unavailable), or runs `here` on this strand when no other instance holds it.
  template <class Here>
  void locate_then(const std::string& room_id, const nlohmann::json& id, Here here);

  void send_json(const nlohmann::json& j) {
    enqueue(std::make_shared<const std::string>(j.dump()));
  }

  void enqueue(frame_ptr frame) {
    if (closing_) return;
    queue_bytes_ += frame->size();
    queue_.push_back(std::move(frame));
    if (queue_.size() > state_->cfg.max_outbound_messages ||
        queue_bytes_ > state_->cfg.max_outbound_bytes) {
      // A reader this slow would make the server hold unbounded memory: drop it. It can resume.
      state_->stats.dropped_slow.fetch_add(1);
      spdlog::info("room {}: connection dropped: slow reader ({} frames queued)", room_,
                   queue_.size());
      closing_ = true;
      beast::error_code ignored;
      beast::get_lowest_layer(ws_).shutdown(tcp::socket::shutdown_both, ignored);
      beast::get_lowest_layer(ws_).close();
      return;
    }
    if (!writing_) write_next();
  }

  void write_next() {
    writing_ = true;
    ws_.text(true);
    ws_.async_write(net::buffer(*queue_.front()),
                    beast::bind_front_handler(&websocket_session::on_write, shared_from_this()));
  }

  void on_write(beast::error_code ec, std::size_t bytes) {
    writing_ = false;
    if (ec) return finish();
    state_->stats.messages_out.fetch_add(1, std::memory_order_relaxed);
    state_->stats.bytes_out.fetch_add(static_cast<std::int64_t>(bytes), std::memory_order_relaxed);
    queue_bytes_ -= queue_.front()->size();
    queue_.pop_front();
    if (!queue_.empty() && !closing_) return write_next();
    maybe_close();
  }

  void maybe_close() {
    if (!close_after_queue_ || writing_ || !queue_.empty() || closing_) return;
    closing_ = true;
    ws_.async_close(close_code_,
                    [self = shared_from_this()](beast::error_code) { self->finish(); });
  }

  // The connection is gone: leave the room (the seat stays reserved) and forget the session.
  void finish() {
    if (finished_) return;
    finished_ = true;
    closing_ = true;
    if (counted_) state_->stats.connections.fetch_sub(1);
    address_.reset();  // the address's connection slot is free again
    {
      std::lock_guard lock(state_->sessions_mutex);
      state_->sessions.erase(weak_from_this());
    }
    // The room this connection is in, and the one it last asked to enter: that room may not
    // have told it yet (set_room is posted back), but it handles the disconnection after the
    // request, on the same strand, so a connection never stays in a room after it closed.
    for (const auto* id : {&room_, &entering_}) {
      if (id->empty() || (id == &entering_ && entering_ == room_)) continue;
      if (auto entry = state_->rooms.find(*id)) {
        auto self = shared_from_this();
        net::post(entry->strand, [entry, self, st = state_] {
          entry->game_room->disconnected(self);
          st->rooms.room_left(entry->game_room->id());
        });
      }
    }
  }

  // No permessage-deflate (the server never offers it): the stream then holds no deflate state.
  websocket::stream<tcp::socket, false> ws_;
  std::shared_ptr<shared_state> state_;
  std::unique_ptr<address_limits::lease> address_;  // released when the connection finishes
  char first_byte_ = 0;                             // of the next message
  std::string text_;  // the message being read (empty between messages: no capacity)
  std::optional<net::dynamic_string_buffer<char, std::char_traits<char>, std::allocator<char>>>
      text_buffer_;  // Beast's view of text_ while a message is read
  fifo<frame_ptr> queue_;
  std::size_t queue_bytes_ = 0;
  bool writing_ = false, closing_ = false, close_after_queue_ = false, finished_ = false,
       counted_ = false;
  // The code of our close frame (a close_reason would hold 123 bytes of reason: ~130 B a
  // connection).
  websocket::close_code close_code_ = websocket::close_code::going_away;
  double tokens_;
  std::chrono::steady_clock::time_point last_refill_ = std::chrono::steady_clock::now();
  int strikes_ = 0;
  std::string room_;      // the room this connection is in ("" = none)
  std::string entering_;  // the room of the last join, spectate or resume sent to a room
  std::vector<std::weak_ptr<const room>> public_rooms_;  // public rooms this connection created
  bool bounced_ = false;  // the request being handled carries "moved": true
};

template <class Call>
void websocket_session::to_room(const std::string& room_id, const nlohmann::json& id, Call call,
                                bool enter) {
  bool unfinished_elsewhere = false;
  auto entry = enter ? state_->rooms.find_or_load(room_id, &unfinished_elsewhere)
                     : state_->rooms.find(room_id);
  if (!entry && unfinished_elsewhere && state_->cluster) {
    // A dead instance's room between its lease's lapse and its adoption (docs/scaling.md).
    state_->stats.rejected("room_unavailable");
    return send_json(protocol::error_message(
        {"room_unavailable",
         "room '" + room_id + "' is being taken over by another instance: try again in a second"},
        id));
  }
  if (!entry) {
    state_->stats.rejected("no_such_room");
    return send_json(protocol::error_message({"no_such_room", "no room '" + room_id + "'"}, id));
  }
  if (enter) entering_ = room_id;
  net::post(entry->strand, [entry, self = shared_from_this(), call = std::move(call)] {
    call(*entry->game_room, std::static_pointer_cast<client_link>(self));
  });
}

template <class Call>
void websocket_session::enter(const std::string& room_id, const nlohmann::json& id, Call call) {
  if (!state_->lobby_view || state_->rooms.find(room_id))
    return to_room(room_id, id, std::move(call), true);
  locate_then(room_id, id,
              [self = shared_from_this(), room_id, id, call = std::move(call)]() mutable {
                if (self->not_elsewhere(room_id, id))
                  self->to_room(room_id, id, std::move(call), true);
              });
}

template <class Here>
void websocket_session::locate_then(const std::string& room_id, const nlohmann::json& id,
                                    Here here) {
  auto answer = [self = shared_from_this(), room_id, id, here = std::move(here),
                 bounced = bounced_](cluster_lobby::location where) mutable {
    if (self->closing_) return;
    if (where.what != cluster_lobby::location::kind::here)
      return self->send_json(moved_answer(where, room_id, id, bounced, self->state_->stats));
    here();
  };
  state_->lobby_view->locate(room_id, [self = shared_from_this(), answer = std::move(answer)](
                                          cluster_lobby::location where) mutable {
    net::post(self->ws_.get_executor(),
              [answer = std::move(answer), where = std::move(where)]() mutable { answer(where); });
  });
}

// One text frame: parsed, then handed to the handler of its message type.
void websocket_session::handle(const std::string& text) {
  auto parsed = protocol::parse_request(text);
  if (!parsed.value) {
    state_->stats.rejected(parsed.error.code);
    return send_json(protocol::error_message(parsed.error, parsed.id));
  }
  const json id = parsed.value->id;
  bounced_ = parsed.value->moved;
  std::visit([&](const auto& m) { on(m, id); }, parsed.value->message);
}

bool websocket_session::in_room(const char* what, const json& id) {
  if (!room_.empty()) return true;
  state_->stats.rejected("not_in_room");
  send_json(protocol::error_message(
      {"not_in_room", std::string(what) + " needs a room: join, spectate or resume first"}, id));
  return false;
}

bool websocket_session::not_elsewhere(const std::string& target, const json& id) {
  if (room_.empty() || room_ == target) return true;
  state_->stats.rejected("already_in_room");
  send_json(protocol::error_message({"already_in_room", "leave room " + room_ + " first"}, id));
  return false;
}

template <class Call>
void websocket_session::in_current_room(const char* what, const json& id, Call call) {
  if (in_room(what, id)) to_room(room_, id, std::move(call));
}

void websocket_session::on(const protocol::hello_msg& m, const json& id) {
  using namespace protocol;
  if (m.protocol != protocol_version) {
    state_->stats.rejected("protocol_version");
    return send_json(error_message({"protocol_version", "this server speaks protocol 1"}, id));
  }
  send_json(reply("welcome", id,
                  {{"protocol", protocol_version},
                   {"server", "carcassonne/0.1.0"},
                   {"limits",
                    {{"max_message_bytes", state_->cfg.max_message_bytes},
                     {"message_rate", state_->cfg.message_rate},
                     {"message_burst", state_->cfg.message_burst}}}}));
}

void websocket_session::on(const protocol::ping_msg&, const json& id) {
  send_json(protocol::reply("pong", id));
}

void websocket_session::on(const protocol::list_rooms_msg& m, const json& id) {
  auto page = list_public_rooms(*state_, m.filter);
  send_json(
      protocol::reply("rooms", id, {{"rooms", std::move(page.rooms)}, {"total", page.total}}));
}

void websocket_session::on(const protocol::create_room_msg& m, const json& id) {
  create_room(m, id);
}

void websocket_session::on(const protocol::join_msg& m, const json& id) {
  if (not_elsewhere(m.room, id))
    enter(m.room, id, [m, id](room& r, const client_ptr& c) { r.join(c, m, id); });
}

void websocket_session::on(const protocol::spectate_msg& m, const json& id) {
  if (not_elsewhere(m.room, id))
    enter(m.room, id, [id](room& r, const client_ptr& c) { r.spectate(c, id); });
}

void websocket_session::on(const protocol::resume_msg& m, const json& id) {
  if (not_elsewhere(m.room, id))
    enter(m.room, id, [m, id](room& r, const client_ptr& c) { r.resume(c, m, id); });
}

void websocket_session::on(const protocol::leave_msg&, const json& id) {
  if (!in_room("leave", id)) return;
  // Forget the room now, so that a join right after the leave is not refused.
  const std::string left = std::exchange(room_, std::string());
  if (entering_ == left) entering_.clear();
  to_room(left, id, [id, st = state_](room& r, const client_ptr& c) {
    r.leave(c, id);
    st->rooms.room_left(r.id());
  });
}

void websocket_session::on(const protocol::start_msg&, const json& id) {
  in_current_room("start", id, [id](room& r, const client_ptr& c) { r.start(c, id); });
}

void websocket_session::on(const protocol::move_msg& m, const json& id) {
  in_current_room("move", id, [m, id](room& r, const client_ptr& c) { r.move(c, m, id); });
}

void websocket_session::on(const protocol::chat_msg& m, const json& id) {
  in_current_room("chat", id, [m, id](room& r, const client_ptr& c) { r.chat(c, m, id); });
}

void websocket_session::on(const protocol::snapshot_msg&, const json& id) {
  in_current_room("snapshot", id, [id](room& r, const client_ptr& c) { r.snapshot(c, id); });
}

void websocket_session::on(const protocol::nonce_msg& m, const json& id) {
  in_current_room("nonce", id, [m, id](room& r, const client_ptr& c) { r.nonce(c, m, id); });
}

void websocket_session::on(const protocol::history_msg& m, const json& id) {
  in_current_room("history", id, [m, id](room& r, const client_ptr& c) { r.history(c, m, id); });
}

void websocket_session::on(const protocol::match_msg& m, const json& id) {
  in_current_room("this request", id,
                  [m, id](room& r, const client_ptr& c) { r.match_action(c, m, id); });
}

void websocket_session::on(const protocol::replay_msg& m, const json& id) {
  replay(m, id);
}

void websocket_session::on(const protocol::add_bot_msg& m, const json& id) {
  in_current_room("add_bot", id, [m, id](room& r, const client_ptr& c) { r.add_bot(c, m, id); });
}

void websocket_session::on(const protocol::remove_bot_msg& m, const json& id) {
  in_current_room("remove_bot", id,
                  [m, id](room& r, const client_ptr& c) { r.remove_bot(c, m, id); });
}

// Room creation, within the address's rate and the caps on open public rooms.
void websocket_session::create_room(const protocol::create_room_msg& m, const nlohmann::json& id) {
  using namespace protocol;
  const auto refuse = [&](metrics::refusal why, proto_error e) {
    state_->stats.refused(why);
    state_->stats.rejected(e.code);
    send_json(error_message(e, id));
  };
  if (m.is_public) {
    std::erase_if(public_rooms_, [](const std::weak_ptr<const room>& w) {
      const auto r = w.lock();
      return !r || r->summary().state != room_state::waiting;
    });
    if (public_rooms_.size() >= state_->cfg.max_public_rooms_per_connection ||
        !address_->may_open_public_room())
      return refuse(metrics::refusal::public_rooms,
                    {"too_many_rooms",
                     "you have as many public rooms waiting for players as you may: start or "
                     "leave one first"});
  }
  // In a cluster the least loaded live instance takes new rooms: the client goes there.
  if (state_->lobby_view && state_->cluster->reachable())
    if (auto moved = placed_elsewhere(*state_->lobby_view, id, bounced_)) return send_json(*moved);
  if (!address_->take_room())
    return refuse(metrics::refusal::address_rooms,
                  {"rate_limited", "rooms are created too fast from your address: slow down"});
  // In a cluster a room exists only once its lease is taken in Redis (docs/scaling.md).
  const auto no_directory = [&] {
    state_->stats.rejected("directory_unavailable");
    send_json(error_message({"directory_unavailable",
                             "the room directory (Redis) is unreachable: the games under way go "
                             "on, new rooms are refused until it is back"},
                            id));
  };
  if (state_->cluster && !state_->cluster->reachable()) return no_directory();
  auto made = state_->rooms.create(m, weak_from_this());
  if (!made.entry) {
    state_->stats.rejected(made.error.code);
    return send_json(error_message(made.error, id));
  }
  if (state_->cluster && !state_->cluster->claim(made.entry->game_room->id())) {
    state_->rooms.room_left(made.entry->game_room->id());  // nobody is in it: it goes
    return no_directory();
  }
  if (m.is_public) {
    public_rooms_.push_back(made.entry->game_room);
    address_->opened_public_room(made.entry->game_room);
  }
  send_json(reply("room_created", id, {{"room", made.entry->game_room->id()}}));
}

// A finished game, move by move: needs no room membership, and reads the record from memory or
// the database. Replaying a whole game costs well under a millisecond; the rate limit bounds it.
void websocket_session::replay(const protocol::replay_msg& m, const nlohmann::json& id,
                               bool located) {
  using namespace protocol;
  nlohmann::json record;
  const auto status = state_->rooms.finished_record(m.room, record);
  if (status == lobby::record_status::unknown && state_->lobby_view && !located)
    return locate_then(m.room, id,
                       [self = shared_from_this(), m, id] { self->replay(m, id, true); });
  proto_error error;
  if (status == lobby::record_status::unknown)
    error = {"no_such_room", "no room '" + m.room + "'"};
  else if (status == lobby::record_status::not_finished)
    error = {"not_finished", "a game is replayed once it is over; spectate it meanwhile"};
  else if (auto frame = replay_to(record, static_cast<std::size_t>(m.move), error)) {
    auto answer = reply("replay", id,
                        {{"room", m.room},
                         {"move", m.move},
                         {"moves", frame->moves},
                         {"events", std::move(frame->events)},
                         {"game", std::move(frame->game)}});
    if (record.contains("fairness")) answer["fairness"] = fairness::reveal_of(record["fairness"]);
    return send_json(answer);
  }
  state_->stats.rejected(error.code);
  send_json(error_message(error, id));
}

void start_websocket_session(beast::tcp_stream stream, http::request<http::string_body> request,
                             std::shared_ptr<shared_state> state,
                             std::unique_ptr<address_limits::lease> address) {
  // The HTTP stream's socket alone: its timers and state are freed.
  std::make_shared<websocket_session>(stream.release_socket(), std::move(state), std::move(address))
      ->run(std::move(request));
}

void close_all_sessions(shared_state& state) {
  std::vector<std::shared_ptr<websocket_session>> live;
  {
    std::lock_guard lock(state.sessions_mutex);
    for (const auto& w : state.sessions)
      if (auto s = w.lock()) live.push_back(std::move(s));
  }
  for (const auto& s : live) s->say_goodbye();
}

}  // namespace carcassonne::server
