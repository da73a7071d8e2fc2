// One WebSocket connection. Runs on its own strand; rooms reach it through client_link, which
// posts onto that strand. Every limit is enforced here: frame size, message rate, and the
// outbound queue (a client that does not read is dropped; the room goes on).
// Beast answers the upgrade; after it the session reads and writes the bare socket itself
// (websocket_frames.hpp): an idle connection holds its socket, a 14-byte header buffer and this
// object, no message buffer; the frames queued on a connection leave in one write; and the close
// handshake, keep-alive pings and timeouts are spelled out here (docs/performance.md "Our own
// framing").
#include <spdlog/spdlog.h>

#include <chrono>
#include <optional>
#include <string>
#include <utility>

#include "base/fifo.hpp"
#include "carcassonne/protocol/json_text.hpp"
#include "carcassonne/protocol/messages.hpp"
#include "cluster/moved.hpp"
#include "fairness/fairness.hpp"
#include "table/replay_view.hpp"
#include "transport/address_limits.hpp"
#include "transport/cookies.hpp"
#include "transport/net.hpp"
#include "transport/websocket_frames.hpp"

namespace carcassonne::server {

namespace {

using steady = std::chrono::steady_clock;

// How long a close handshake may take (Beast's suggested server timeout, which this replaced).
constexpr auto close_timeout = std::chrono::seconds(30);
// After a protocol failure (an oversized frame, a broken one) our close frame is sent, our side
// shut down, and what the client still sends is read and thrown away until it closes: closing a
// socket with unread data makes Linux send a reset, which can destroy the close frame on its way
// (the client would see 1006, not the code). Bounded, so that a hostile client can neither keep
// the connection nor make the server read without end: past either bound the connection closes
// as it is (docs/protocol.md §15). A client writing on a 1 MB frame fits within both.
constexpr std::size_t max_drained_bytes = 2 * 1024 * 1024;
constexpr auto max_drain_time = std::chrono::seconds(10);
constexpr std::size_t drain_read_bytes = 16 * 1024;

const frame_ptr& empty_payload() {
  static const frame_ptr empty = std::make_shared<const std::string>();
  return empty;
}

}  // namespace

class websocket_session : public client_link,
                          public std::enable_shared_from_this<websocket_session> {
 public:
  websocket_session(tcp::socket socket, std::shared_ptr<shared_state> state,
                    std::unique_ptr<address_limits::lease> address, std::string upgrade_session)
      : socket_(std::move(socket)),
        state_(std::move(state)),
        address_(std::move(address)),
        reader_(state_->cfg.max_message_bytes),
        tokens_(state_->cfg.message_burst),
        upgrade_session_(std::move(upgrade_session)) {}

  // The upgrade was answered: the connection is open.
  void run() {
    state_->stats.connections.fetch_add(1);
    state_->stats.connections_total.fetch_add(1);
    counted_ = true;
    beast::error_code refused;
    socket_.non_blocking(true, refused);
    write_at_once_ = !refused;  // a blocking socket would wait for a slow reader: never tried
    {
      std::lock_guard lock(state_->sessions_mutex);
      state_->sessions.insert(weak_from_this());
    }
    spdlog::debug("connection open");
    net::dispatch(socket_.get_executor(), [self = shared_from_this()] { self->read(); });
  }

  void deliver(frame_ptr frame) override {
    net::post(socket_.get_executor(),
              [self = shared_from_this(), frame = std::move(frame)] { self->enqueue(frame); });
  }

  void deliver_all(std::vector<frame_ptr> frames) override {
    // All queued before the write starts, so that they leave in one (the answer to a move and
    // its patch: one send instead of two).
    net::post(socket_.get_executor(), [self = shared_from_this(), frames = std::move(frames)] {
      for (const auto& f : frames)
        if (!self->closing()) self->queue_frame(ws::opcode::text, f);
      self->start_writing();
    });
  }

  void set_room(const std::string& room_id, bool member) override {
    net::post(socket_.get_executor(), [self = shared_from_this(), room_id, member] {
      if (member && self->room_ != room_id) {
        self->room_ = room_id;
        self->room_entry_.reset();
      } else if (!member && self->room_ == room_id) {
        self->room_.clear();
        self->room_entry_.reset();
        self->relayed_ = false;  // the relay let it go (docs/scaling.md)
      }
    });
  }

  // Graceful shutdown: a goodbye frame, then the close handshake with "going away".
  void say_goodbye() {
    net::post(socket_.get_executor(), [self = shared_from_this()] {
      if (self->closing()) return;
      std::string goodbye;
      protocol::object_writer(goodbye)
          .string("type", "goodbye")
          .string("reason", "the server is shutting down")
          .close();
      self->enqueue(std::make_shared<const std::string>(std::move(goodbye)));
      self->close_after_queue_ = true;
      self->maybe_close();
    });
  }

  // Keep-alive and timeouts, checked by the server's sweep (sweep_sessions, every quarter of the
  // idle timeout, at most 15 s apart): a ping after half the idle timeout without a byte from the
  // client, the end after the whole of it; a close handshake that the client does not finish ends
  // after 30 s.
  void check_timeouts() {
    net::post(socket_.get_executor(), [self = shared_from_this()] {
      if (self->finished_) return;
      const auto now = steady::now();
      if (self->close_queued_) {
        if (now - self->closing_since_ >= close_timeout) self->finish();
        return;
      }
      const auto idle = std::chrono::seconds(self->state_->cfg.idle_timeout_seconds);
      const auto silent = now - self->last_heard_;
      if (silent >= idle) {
        spdlog::debug("room {}: connection closed: idle", self->room_);
        return self->finish();  // no close frame: the client is not listening
      }
      if (silent >= idle / 2 && !self->ping_out_) {
        self->ping_out_ = true;
        self->push(ws::opcode::ping, empty_payload());
      }
    });
  }

 private:
  // The read loop: the frames already buffered first, then the socket.
  void read() {
    for (;;) {
      auto e = reader_.next();
      if (e.what == ws::frame_reader::event::kind::need_more) break;
      on_frame_event(std::move(e));
      if (finished_) return;
    }
    if (reader_.done()) return;  // a close frame or a failure: no more frames are read
    const auto into = reader_.buffer();
    socket_.async_read_some(
        net::buffer(into.data(), into.size()),
        beast::bind_front_handler(&websocket_session::on_bytes, shared_from_this()));
  }

  void on_bytes(beast::error_code ec, std::size_t n) {
    if (finished_) return;  // finished by a failed write meanwhile: its address is released
    if (ec) return finish();
    last_heard_ = steady::now();
    ping_out_ = false;
    reader_.received(n);
    read();
  }

  void on_frame_event(ws::frame_reader::event e) {
    using kind = ws::frame_reader::event::kind;
    switch (e.what) {
      case kind::message:
        // After a close frame is queued, or once the connection is to close, data is ignored.
        if (!close_queued_ && !close_after_queue_) on_message(e.text, std::move(e.payload));
        return;
      case kind::ping:
        if (!close_queued_)
          push(ws::opcode::pong, std::make_shared<const std::string>(std::move(e.payload)));
        return;
      case kind::pong:
      case kind::need_more:
        return;
      case kind::close:
        return on_peer_close(e.code);
      case kind::fail:
        return fail(e.code);
    }
  }

  void on_message(bool is_text, std::string text) {
    state_->stats.messages_in.fetch_add(1, std::memory_order_relaxed);
    state_->stats.bytes_in.fetch_add(static_cast<std::int64_t>(text.size()),
                                     std::memory_order_relaxed);
    // Every frame costs a token, text or binary (docs/protocol.md §15): the connection's own,
    // then one of its address's shared budget.
    const bool own = within_rate();
    const bool shared = own && address_->take_message();
    if (own && !shared) state_->stats.refused(metrics::refusal::address_messages);
    if (!shared) {
      state_->stats.rejected("rate_limited");
      // Dropped unread, but the id is echoed so that the client knows which request to retry.
      send_json(
          protocol::error_message({"rate_limited", "too many messages: slow down"},
                                  is_text ? protocol::parse_request(text).id : nlohmann::json()));
      if (++strikes_ >= state_->cfg.rate_strikes) {
        state_->stats.dropped_flood.fetch_add(1);
        spdlog::info("room {}: connection closed for flooding", room_);
        close_code_ = ws::policy_error;
        close_after_queue_ = true;
        maybe_close();
      }
    } else if (!is_text) {
      state_->stats.rejected("bad_message");
      send_json(protocol::error_message({"bad_message", "frames must be text (JSON)"}));
    } else {
      handle(text);
    }
  }

  // The client closes: its code is echoed (RFC 6455 §5.5.1), what is not yet sent is dropped,
  // and the connection ends once the close frame is written. An answer to our own close ends it.
  void on_peer_close(std::uint16_t code) {
    if (close_queued_) {
      if (close_written_) return finish();
      end_after_close_ = true;
      return;
    }
    drop_unsent();
    queue_close(code);
    end_after_close_ = true;
  }

  // A frame that breaks the protocol or the size limit: our close frame with its code, then
  // what the client still sends is read and dropped until it closes (drain()).
  void fail(std::uint16_t code) {
    if (code == ws::too_big) {
      state_->stats.dropped_oversize.fetch_add(1);
      spdlog::info("room {}: connection closed: frame over {} bytes", room_,
                   state_->cfg.max_message_bytes);
    } else {
      spdlog::info("room {}: connection closed: WebSocket protocol error ({})", room_, code);
    }
    if (close_queued_) return finish();
    drop_unsent();
    queue_close(code);
    drain_after_close_ = true;
  }

  // Our close frame is written: our side is shut down and the client's bytes are read and
  // dropped until it closes, for max_drained_bytes and max_drain_time at most.
  void start_draining() {
    beast::error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_send, ignored);
    drain_timer_ = std::make_unique<net::steady_timer>(socket_.get_executor(), max_drain_time);
    drain_timer_->async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec || self->finished_) return;
      spdlog::debug("room {}: connection closed: still sending {} s after our close", self->room_,
                    max_drain_time.count());
      self->finish();
    });
    drain();
  }

  void drain() {
    if (drain_buffer_.empty()) drain_buffer_.resize(drain_read_bytes);
    socket_.async_read_some(net::buffer(drain_buffer_),
                            [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                              if (self->finished_) return;
                              self->drained_ += n;
                              if (ec || self->drained_ > max_drained_bytes) return self->finish();
                              self->drain();
                            });
  }

  bool within_rate() {
    const auto now = steady::now();
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
  void on(protocol::move_msg& m, const nlohmann::json& id);  // taken: the tree is not copied
  void on(const protocol::chat_msg& m, const nlohmann::json& id);
  void on(const protocol::snapshot_msg& m, const nlohmann::json& id);
  void on(const protocol::nonce_msg& m, const nlohmann::json& id);
  void on(const protocol::history_msg& m, const nlohmann::json& id);
  void on(const protocol::match_msg& m, const nlohmann::json& id);
  void on(const protocol::replay_msg& m, const nlohmann::json& id);
  void on(const protocol::add_bot_msg& m, const nlohmann::json& id);
  void on(const protocol::remove_bot_msg& m, const nlohmann::json& id);
  void on(const protocol::authenticate_msg& m, const nlohmann::json& id);
  void on(const protocol::competition_msg& m, const nlohmann::json& id);
  // A join or create_room refused because the server wants players signed in: true when it was.
  bool refused_for_no_account(const nlohmann::json& id);
  // Refusals that leave the connection as it is: not in a room, or in another one.
  bool in_room(const char* what, const nlohmann::json& id);
  bool not_elsewhere(const std::string& target, const nlohmann::json& id);
  // Posts `call` onto the strand of the room this connection is in, if any.
  template <class Call>
  void in_current_room(const char* what, const nlohmann::json& id, Call call);
  bool relayed_request(const char* what, const nlohmann::json& id);  // true: answered
  void watch_relayed(const std::string& room_id, const nlohmann::json& id);
  // located: the directory was asked already (a room this instance does not know).
  void replay(const protocol::replay_msg& m, const nlohmann::json& id, bool located = false);
  void create_room(const protocol::create_room_msg& m, const nlohmann::json& id);
  // Posts `call` onto the room's strand; `enter`: a join, spectate or resume, which may rebuild
  // a finished room from the store, and which finish() must undo even if it has not landed yet.
  template <class Call>
  void to_room(const std::string& room_id, const nlohmann::json& id, Call call, bool enter = false);
  // The lobby's entry of a room (null: none), the one this connection is in from room_entry_.
  std::shared_ptr<room_entry> find_room(const std::string& room_id);
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

  // A text frame for the client, unless the connection is closing.
  void enqueue(frame_ptr frame) {
    if (!closing()) push(ws::opcode::text, std::move(frame));
  }

  void push(ws::opcode op, frame_ptr payload) {
    queue_frame(op, std::move(payload));
    start_writing();
  }

  // Starts a write of what is queued, unless one is under way (on_write sends the rest).
  void start_writing() {
    if (!finished_ && !writing_ && !queue_.empty()) write_next();
  }

  // Queued for the next write; a connection whose queue grows past its limits is dropped.
  void queue_frame(ws::opcode op, frame_ptr payload) {
    if (finished_) return;
    queue_bytes_ += payload->size();
    queue_.push_back({std::move(payload), op});
    if (op != ws::opcode::close && (queue_.size() > state_->cfg.max_outbound_messages ||
                                    queue_bytes_ > state_->cfg.max_outbound_bytes)) {
      // A reader this slow would make the server hold unbounded memory: drop it. It can resume.
      state_->stats.dropped_slow.fetch_add(1);
      spdlog::info("room {}: connection dropped: slow reader ({} frames queued)", room_,
                   queue_.size());
      return finish();
    }
  }

  // Everything queued, up to a batch, in one write: each frame's header, then its payload.
  void write_next() {
    if (!batch_) batch_ = std::make_unique<write_batch>();
    auto& b = *batch_;
    b.frames = 0;
    std::size_t buffers = 0;
    bool has_close = false;
    for (const auto& f : queue_) {
      if (b.frames == write_batch::max_frames) break;
      auto& header = b.headers[b.frames++];
      b.buffers[buffers++] =
          net::buffer(header.data(), ws::write_header(header.data(), f.op, f.payload->size()));
      if (!f.payload->empty()) b.buffers[buffers++] = net::buffer(*f.payload);
      has_close = f.op == ws::opcode::close;
      if (has_close) break;  // nothing follows a close frame
    }
    writing_ = true;
    state_->stats.socket_writes.fetch_add(1, std::memory_order_relaxed);
    // Tried at once: a batch the socket takes whole (nearly all of them) needs no operation and
    // no completion handler, and on_write runs here. A batch with a close frame, and whatever is
    // left (the socket full, an error), go the asynchronous way: code that queues a close sets
    // what on_write reads only after queueing it.
    std::size_t first = 0;
    if (write_at_once_ && !has_close) {
      beast::error_code ec;
      std::size_t sent =
          socket_.write_some(std::span<const net::const_buffer>(b.buffers.data(), buffers), ec);
      if (!ec) {
        while (first < buffers && sent >= b.buffers[first].size())
          sent -= b.buffers[first++].size();
        if (first == buffers) return on_write({}, 0);
        b.buffers[first] += sent;  // the rest of a buffer sent in part
      }
    }
    net::async_write(socket_,
                     std::span<const net::const_buffer>(b.buffers.data() + first, buffers - first),
                     beast::bind_front_handler(&websocket_session::on_write, shared_from_this()));
  }

  void on_write(beast::error_code ec, std::size_t) {
    writing_ = false;
    if (finished_) return;
    if (ec) return finish();
    bool closed = false;
    for (std::size_t i = 0; i < batch_->frames; ++i) {
      const auto& f = queue_.front();
      if (f.op == ws::opcode::text) {
        state_->stats.messages_out.fetch_add(1, std::memory_order_relaxed);
        state_->stats.bytes_out.fetch_add(static_cast<std::int64_t>(f.payload->size()),
                                          std::memory_order_relaxed);
      }
      closed = closed || f.op == ws::opcode::close;
      queue_bytes_ -= f.payload->size();
      queue_.pop_front();
    }
    if (closed) {
      close_written_ = true;
      batch_.reset();
      if (end_after_close_) return finish();
      if (drain_after_close_) start_draining();
      return;  // otherwise the read loop waits for the client's close frame
    }
    if (!queue_.empty()) return write_next();
    batch_.reset();             // an idle connection keeps no batch,
    queue_ = fifo<outbound>();  // nor its queue's slots (a malloc a burst; 0.5 KB a room idle)
    maybe_close();
  }

  // No more text frames are queued: our close frame is, or the connection is gone.
  bool closing() const { return close_queued_ || finished_; }

  void maybe_close() {
    if (!close_after_queue_ || writing_ || !queue_.empty() || close_queued_) return;
    queue_close(close_code_);
  }

  void queue_close(std::uint16_t code) {
    close_queued_ = true;
    closing_since_ = steady::now();
    push(ws::opcode::close, std::make_shared<const std::string>(ws::close_payload(code)));
  }

  // Frames queued but not being written are dropped (a close frame goes next).
  void drop_unsent() {
    const std::size_t keep = writing_ ? batch_->frames : 0;
    queue_.keep_first(keep);
    queue_bytes_ = 0;
    for (const auto& f : queue_) queue_bytes_ += f.payload->size();
  }

  // The connection is gone: leave the room (the seat stays reserved) and forget the session.
  void finish() {
    if (finished_) return;
    finished_ = true;
    if (drain_timer_) drain_timer_->cancel();  // its handler holds the session
    beast::error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
    if (counted_) state_->stats.connections.fetch_sub(1);
    address_.reset();  // the address's connection slot is free again
    {
      std::lock_guard lock(state_->sessions_mutex);
      state_->sessions.erase(weak_from_this());
      if (player_) forget_player_session();
    }
    if (player_ && state_->competitions)
      state_->competitions->connection_closed(player_->id, serial_);
    // The room this connection is in, and the one it last asked to enter: that room may not
    // have told it yet (set_room is posted back), but it handles the disconnection after the
    // request, on the same strand, so a connection never stays in a room after it closed.
    if (relayed_) state_->relay->unwatch(room_, shared_from_this());
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

  struct outbound {
    frame_ptr payload;
    ws::opcode op;
  };
  // The headers and buffers of one write; it lives while the connection writes. 24 frames keep
  // it under 1 KB, which glibc's per-thread cache serves: at 32 (1.35 KB) every write's batch
  // went through malloc's slow path, about 1,000 instructions for the allocation alone.
  struct write_batch {
    static constexpr std::size_t max_frames = 24;
    std::array<std::array<unsigned char, ws::max_server_header>, max_frames> headers;
    std::array<net::const_buffer, 2 * max_frames> buffers;
    std::size_t frames = 0;
  };
  static_assert(sizeof(write_batch) <= 1024);

  tcp::socket socket_;
  std::shared_ptr<shared_state> state_;
  std::unique_ptr<address_limits::lease> address_;  // released when the connection finishes
  ws::frame_reader reader_;
  fifo<outbound> queue_;
  std::size_t queue_bytes_ = 0;
  std::unique_ptr<write_batch> batch_;  // while writing
  bool write_at_once_ = false;          // the socket is non-blocking: write_next tries at once
  std::string drain_buffer_;            // after a failure only
  std::size_t drained_ = 0;
  std::unique_ptr<net::steady_timer> drain_timer_;  // after a failure only: max_drain_time
  bool writing_ = false;
  bool close_after_queue_ = false;  // a close frame follows what is queued
  bool close_queued_ = false;       // our close frame is queued (or written)
  bool close_written_ = false;
  bool end_after_close_ = false;    // the client closed: end once our close frame is written
  bool drain_after_close_ = false;  // a failure: read and drop until the client closes
  bool finished_ = false;
  bool counted_ = false;
  bool ping_out_ = false;  // a keep-alive ping went out since the client last sent anything
  std::uint16_t close_code_ = ws::going_away;  // of our close frame when the queue is written
  steady::time_point last_heard_ = steady::now();
  steady::time_point closing_since_{};
  double tokens_;
  steady::time_point last_refill_ = steady::now();
  int strikes_ = 0;
  std::string room_;  // the room this connection is in ("" = none)
  // room_'s lobby entry, kept from its last lookup while the lobby holds it (room_entry::dropped):
  // a move then costs no lookup in the lobby's map of every room under its mutex.
  std::weak_ptr<room_entry> room_entry_;
  bool relayed_ = false;  // room_ is another instance's, watched through the relay
  std::string entering_;  // the room of the last join, spectate or resume sent to a room
  std::vector<std::weak_ptr<const room>> public_rooms_;  // public rooms this connection created
  bool bounced_ = false;  // the request being handled carries "moved": true
  // The player this connection signed in as (`authenticate`), and the session cookie its upgrade
  // request carried, for an `authenticate` without a token (the page's).
  std::optional<player_account> player_;
  std::string upgrade_session_;
  // This connection's number, for the service that runs quick play (its seek ends with it).
  const std::uint64_t serial_ = next_serial();
  static std::uint64_t next_serial() {
    static std::atomic<std::uint64_t> n{0};
    return ++n;
  }
  // Under sessions_mutex: player_'s entry in player_sessions goes.
  void forget_player_session() {
    auto [first, last] = state_->player_sessions.equal_range(player_->id);
    for (auto it = first; it != last; ++it)
      if (!it->second.owner_before(weak_from_this()) &&
          !weak_from_this().owner_before(it->second)) {
        state_->player_sessions.erase(it);
        return;
      }
  }
};

template <class Call>
void websocket_session::to_room(const std::string& room_id, const nlohmann::json& id, Call call,
                                bool enter) {
  bool unfinished_elsewhere = false, unreadable = false;
  auto entry = enter ? state_->rooms.find_or_load(room_id, &unfinished_elsewhere, &unreadable)
                     : find_room(room_id);
  if (!entry && unfinished_elsewhere && state_->cluster) {
    // A dead instance's room between its lease's lapse and its adoption (docs/scaling.md).
    state_->stats.rejected("room_unavailable");
    return send_json(protocol::error_message(
        {"room_unavailable",
         "room '" + room_id + "' is being taken over by another instance: try again in a second"},
        id));
  }
  if (!entry && enter && state_->rooms.awaiting_store(room_id)) {
    // Stopped by a failed write, rebuilt once the database answers (docs/hosting.md).
    state_->stats.rejected("room_unavailable");
    return send_json(protocol::error_message(
        {"room_unavailable", "room '" + room_id +
                                 "' waits for the server's database to answer again: try again "
                                 "in a few seconds"},
        id));
  }
  if (!entry && unreadable) {
    state_->stats.rejected("storage_failed");
    return send_json(protocol::error_message(
        {"storage_failed", "the database holds room '" + room_id +
                               "' but cannot give it back now (see the server's log)"},
        id));
  }
  if (!entry) {
    state_->stats.rejected("no_such_room");
    return send_json(protocol::error_message({"no_such_room", "no room '" + room_id + "'"}, id));
  }
  if (enter) entering_ = room_id;
  net::post(entry->strand, [entry, self = shared_from_this(), call = std::move(call)]() mutable {
    call(*entry->game_room, std::static_pointer_cast<client_link>(self));
  });
}

std::shared_ptr<room_entry> websocket_session::find_room(const std::string& room_id) {
  if (room_id != room_) return state_->rooms.find(room_id);
  auto entry = room_entry_.lock();
  if (entry && !entry->dropped) return entry;
  entry = state_->rooms.find(room_id);
  room_entry_ = entry;
  return entry;
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
    if (self->closing()) return;
    if (where.what != cluster_lobby::location::kind::here)
      return self->send_json(moved_answer(where, room_id, id, bounced, self->state_->stats));
    here();
  };
  state_->lobby_view->locate(room_id, [self = shared_from_this(), answer = std::move(answer)](
                                          cluster_lobby::location where) mutable {
    net::post(self->socket_.get_executor(),
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
  std::visit([&](auto& m) { on(m, id); }, parsed.value->message);
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
  if (in_room(what, id) && !relayed_request(what, id)) to_room(room_, id, std::move(call));
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
  if (refused_for_no_account(id)) return;
  auto seated = m;
  if (player_) {
    seated.name = player_->name;  // a player sits under their name
  } else if (seated.name.empty()) {
    state_->stats.rejected("bad_message");
    return send_json(protocol::error_message({"bad_message", "missing 'name'"}, id));
  }
  if (not_elsewhere(m.room, id))
    enter(m.room, id,
          [seated = std::move(seated), id, player = player_ ? player_->id : std::string()](
              room& r, const client_ptr& c) { r.join(c, seated, id, player); });
}

bool websocket_session::refused_for_no_account(const json& id) {
  if (player_ || !state_->cfg.require_account) return false;
  state_->stats.rejected("sign_in_required");
  send_json(protocol::error_message(
      {"sign_in_required", "this server seats players only: authenticate first"}, id));
  return true;
}

// The player of a session, checked against the database on the accounts' pool; the answer comes
// back on this connection's strand.
void websocket_session::on(const protocol::authenticate_msg& m, const json& id) {
  using namespace protocol;
  const auto refuse = [&](const std::string& code, const std::string& message) {
    state_->stats.rejected(code);
    send_json(error_message({code, message}, id));
  };
  if (!state_->players)
    return refuse("accounts_unavailable", "accounts need the server's database (journal off)");
  const std::string token = m.session ? *m.session : upgrade_session_;
  if (token.empty())
    return refuse("bad_session", "no session: send one, or sign in on the page first");
  const bool taken = state_->players->try_post([self = shared_from_this(), token, id] {
    auto who = self->state_->players->authenticate(token);
    net::post(self->socket_.get_executor(), [self, who = std::move(who), id]() mutable {
      if (!who) {
        self->state_->stats.rejected(who.error.code);
        return self->send_json(error_message({who.error.code, who.error.message}, id));
      }
      {
        std::lock_guard lock(self->state_->sessions_mutex);
        if (self->player_) self->forget_player_session();
        self->state_->player_sessions.emplace(who.value->id, self->weak_from_this());
      }
      self->player_ = std::move(*who.value);
      self->send_json(reply("authenticated", id, {{"player", player_json(*self->player_)}}));
    });
  });
  if (!taken) refuse("too_busy", "too many account requests are waiting: try again shortly");
}

// Quick play, series and tournaments: the competition service answers, on its own thread.
void websocket_session::on(const protocol::competition_msg& m, const json& id) {
  using namespace protocol;
  const auto refuse = [&](const std::string& code, const std::string& message) {
    state_->stats.rejected(code);
    send_json(error_message({code, message}, id));
  };
  if (!state_->competitions)
    return refuse("competition_unavailable",
                  "quick play and tournaments need the server's database (journal off)");
  if (!player_)
    return refuse("sign_in_required",
                  "quick play and tournaments are for players: authenticate first");
  state_->competitions->request(
      *player_, serial_, m, id, [self = shared_from_this()](nlohmann::json answer) {
        net::post(self->socket_.get_executor(), [self, answer = std::move(answer)] {
          if (answer.value("type", "") == "error")
            self->state_->stats.rejected(answer.value("code", "error"));
          self->send_json(answer);
        });
      });
}

void websocket_session::on(const protocol::spectate_msg& m, const json& id) {
  if (!not_elsewhere(m.room, id)) return;
  const auto here = [id](room& r, const client_ptr& c) { r.spectate(c, id); };
  if (!state_->relay || state_->rooms.find(m.room)) return enter(m.room, id, here);
  if (relayed_) {
    state_->stats.rejected("already_in_room");
    return send_json(
        protocol::error_message({"already_in_room", "you are already in this room"}, id));
  }
  // A room another instance holds is watched here, through the relay (docs/scaling.md); one
  // watched already needs no lookup.
  if (state_->relay->watches(m.room)) return watch_relayed(m.room, id);
  state_->lobby_view->locate(m.room, [self = shared_from_this(), room_id = m.room, id,
                                      here](cluster_lobby::location where) mutable {
    net::post(self->socket_.get_executor(), [self, room_id, id, here, where = std::move(where)] {
      if (self->closing() || !self->not_elsewhere(room_id, id)) return;
      using kind = cluster_lobby::location::kind;
      if (where.what == kind::here) return self->to_room(room_id, id, here, true);
      if (where.what != kind::elsewhere)
        return self->send_json(moved_answer(where, room_id, id, true, self->state_->stats));
      self->watch_relayed(room_id, id);
    });
  });
}

void websocket_session::watch_relayed(const std::string& room_id, const json& id) {
  if (relayed_) return;  // a second spectate answered meanwhile
  if (!state_->relay->watch(room_id, shared_from_this(), id)) {
    state_->stats.rejected("too_many_spectators");
    return send_json(protocol::error_message(
        {"too_many_spectators", "this room has as many spectators here as it takes"}, id));
  }
  relayed_ = true;
  room_ = room_id;
  room_entry_.reset();
}

// A spectator of a room held by another instance (relayed_): a leave and a snapshot go to the
// relay; requests that only a seat makes are refused as for any spectator, and the history is
// the owner's to give.
bool websocket_session::relayed_request(const char* what, const json& id) {
  if (!relayed_) return false;
  const std::string w = what;
  if (w == "snapshot") {
    state_->relay->snapshot(room_, shared_from_this(), id);
  } else if (w == "history") {
    state_->stats.rejected("room_unavailable");
    send_json(protocol::error_message(
        {"room_unavailable",
         "room '" + room_ + "' is held by another instance: ask its history there"},
        id));
  } else {
    state_->stats.rejected("not_seated");
    send_json(protocol::error_message(
        {"not_seated", w + ": a spectator watching from another instance only watches"}, id));
  }
  return true;
}

void websocket_session::on(const protocol::resume_msg& m, const json& id) {
  if (not_elsewhere(m.room, id))
    enter(m.room, id,
          [m, id, player = player_ ? player_->id : std::string()](room& r, const client_ptr& c) {
            r.resume(c, m, id, player);
          });
}

void websocket_session::on(const protocol::leave_msg&, const json& id) {
  if (!in_room("leave", id)) return;
  if (relayed_) {
    state_->relay->unwatch(room_, shared_from_this());
    relayed_ = false;
    const std::string left = std::exchange(room_, std::string());
    return send_json(protocol::reply("left", id, {{"room", left}}));
  }
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

void websocket_session::on(protocol::move_msg& m, const json& id) {
  in_current_room("move", id, [m = std::move(m), id](room& r, const client_ptr& c) mutable {
    r.move(c, std::move(m), id);
  });
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
  if (refused_for_no_account(id)) return;
  const auto refuse = [&](metrics::refusal why, proto_error e) {
    state_->stats.refused(why);
    state_->stats.rejected(e.code);
    send_json(error_message(e, id));
  };
  if (m.is_public) {
    std::erase_if(public_rooms_, [](const std::weak_ptr<const room>& w) {
      const auto r = w.lock();
      return !r || r->listing().summary().state != room_state::waiting;
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
  else if (status == lobby::record_status::unreadable)
    error = {"storage_failed",
             "the database holds room '" + m.room + "' but cannot give it back now"};
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

namespace {

std::vector<std::shared_ptr<websocket_session>> live_sessions(shared_state& state) {
  std::vector<std::shared_ptr<websocket_session>> live;
  std::lock_guard lock(state.sessions_mutex);
  live.reserve(state.sessions.size());
  for (const auto& w : state.sessions)
    if (auto s = w.lock()) live.push_back(std::move(s));
  return live;
}

}  // namespace

void start_websocket_session(beast::tcp_stream stream, http::request<http::string_body> request,
                             std::shared_ptr<shared_state> state,
                             std::unique_ptr<address_limits::lease> address) {
  // Beast checks the upgrade request and writes the 101 answer (or a 400 that says what is
  // wrong), within its handshake timeout; then the session takes the bare socket, and Beast's
  // stream, with its buffers and timers, is freed. The HTTP stream's timers are freed here.
  using upgrade_stream = websocket::stream<tcp::socket, false>;
  auto upgrade = std::make_shared<upgrade_stream>(stream.release_socket());
  auto timeouts = websocket::stream_base::timeout::suggested(beast::role_type::server);
  timeouts.idle_timeout = websocket::stream_base::none();  // the session keeps its own
  timeouts.keep_alive_pings = false;
  upgrade->set_option(timeouts);
  upgrade->set_option(websocket::stream_base::decorator(
      [](websocket::response_type& res) { res.set(http::field::server, "carcassonne"); }));
  std::string upgrade_session = cookie_value(request, session_cookie_name).value_or("");
  upgrade->async_accept(
      request, [upgrade, state = std::move(state), address = std::move(address),
                upgrade_session = std::move(upgrade_session)](beast::error_code ec) mutable {
        if (ec) return;
        std::make_shared<websocket_session>(std::move(upgrade->next_layer()), std::move(state),
                                            std::move(address), std::move(upgrade_session))
            ->run();
      });
}

void tell_player(shared_state& state, const std::string& player, const std::string& frame) {
  std::vector<std::shared_ptr<websocket_session>> found;
  {
    std::lock_guard lock(state.sessions_mutex);
    auto [first, last] = state.player_sessions.equal_range(player);
    for (auto it = first; it != last; ++it)
      if (auto s = it->second.lock()) found.push_back(std::move(s));
  }
  const auto shared = std::make_shared<const std::string>(frame);
  for (const auto& s : found) s->deliver(shared);
}

void close_all_sessions(shared_state& state) {
  for (const auto& s : live_sessions(state)) s->say_goodbye();
}

void sweep_sessions(shared_state& state) {
  for (const auto& s : live_sessions(state)) s->check_timeouts();
}

}  // namespace carcassonne::server
