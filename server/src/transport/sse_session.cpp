// A room's public view as Server-Sent Events (GET /api/rooms/{id}/events, docs/protocol.md
// "Streams"): a read-only spectator. The connection spectates the room like a WebSocket
// spectator, through client_link, and every frame the room sends it (snapshot, patches, chat,
// the room's stop) leaves as one event named by the frame's type: the spectator delay applies as to
// any spectator. Runs on the connection's strand. It holds an address's connection slot and
// counts in the server's connections; its outgoing queue has the WebSocket sessions' limits (a
// client that does not read is dropped); a comment line keeps it alive at every sweep when it
// was silent.
#include <spdlog/spdlog.h>

#include <array>
#include <deque>
#include <string>
#include <utility>

#include "carcassonne/protocol/json_text.hpp"
#include "carcassonne/protocol/messages.hpp"
#include "transport/net.hpp"
#include "transport/sse_stream.hpp"

namespace carcassonne::server {

namespace {

using steady = std::chrono::steady_clock;

// What a stream client may send after its request before it is closed (it has nothing to say).
constexpr std::size_t max_bytes_in = 64 * 1024;
// How long the client is given to take a refusal (an HTTP error answer) before it is closed.
constexpr auto refusal_timeout = std::chrono::seconds(10);

const frame_ptr& event_end() {
  static const frame_ptr end = std::make_shared<const std::string>("\n\n");
  return end;
}

std::string http_head(const char* status, const char* type) {
  std::string head = "HTTP/1.1 ";
  head += status;
  head += "\r\nServer: carcassonne\r\nContent-Type: ";
  head += type;
  head += "\r\nCache-Control: no-store\r\n";
  return head;
}

// An HTTP error answer with a JSON body {"error","message"}, after which the connection closes.
std::string refusal_text(const char* status, const std::string& code, const std::string& message,
                         const std::string& extra_headers = {}) {
  const std::string body = nlohmann::json{{"error", code}, {"message", message}}.dump();
  std::string text = http_head(status, "application/json");
  text += extra_headers;
  text += "Access-Control-Allow-Origin: *\r\nConnection: close\r\nContent-Length: ";
  text += std::to_string(body.size());
  text += "\r\n\r\n";
  text += body;
  return text;
}

// The HTTP status of a refusal that came from the room: no such room, or none now (full,
// unavailable, its store failed).
const char* status_of(const std::string& code) {
  return code == "no_such_room" ? "404 Not Found" : "503 Service Unavailable";
}

}  // namespace

class sse_session : public client_link, public std::enable_shared_from_this<sse_session> {
 public:
  sse_session(tcp::socket socket, std::shared_ptr<shared_state> state,
              std::unique_ptr<address_limits::lease> address, std::string room)
      : socket_(std::move(socket)),
        state_(std::move(state)),
        address_(std::move(address)),
        room_(std::move(room)) {}

  void run() {
    state_->stats.connections.fetch_add(1);
    state_->stats.connections_total.fetch_add(1);
    {
      std::lock_guard lock(state_->sessions_mutex);
      state_->streams.insert(weak_from_this());
    }
    net::dispatch(socket_.get_executor(), [self = shared_from_this()] {
      self->read();
      self->locate();
    });
  }

  void deliver(frame_ptr frame) override {
    net::post(socket_.get_executor(),
              [self = shared_from_this(), frame = std::move(frame)] { self->on_frame(frame); });
  }

  void deliver_all(std::vector<frame_ptr> frames) override {
    net::post(socket_.get_executor(), [self = shared_from_this(), frames = std::move(frames)] {
      for (const auto& f : frames) self->on_frame(f);
    });
  }

  void set_room(const std::string& room_id, bool member) override {
    if (member) return;
    net::post(socket_.get_executor(), [self = shared_from_this(), room_id] {
      // The room let go of this spectator (it moved away, or stopped): the stream ends once what
      // is queued is written; the client reconnects.
      if (room_id != self->room_) return;
      self->close_after_queue_ = true;
      self->maybe_close();
    });
  }

  // Graceful shutdown: a goodbye event, then the end of the stream.
  void say_goodbye() {
    net::post(socket_.get_executor(), [self = shared_from_this()] {
      if (self->finished_ || self->close_after_queue_) return;
      if (!self->open_) return self->finish();
      std::string goodbye;
      protocol::object_writer(goodbye)
          .string("type", "goodbye")
          .string("reason", "the server is shutting down")
          .close();
      self->queue_event(std::make_shared<const std::string>(std::move(goodbye)));
      self->close_after_queue_ = true;
      self->start_writing();
    });
  }

  // The server's sweep (every sweep_period()): a comment line when the stream was silent for a
  // whole period, so that proxies and the client see it alive; a refusal the client does not
  // take ends after refusal_timeout.
  void check_timeouts() {
    net::post(socket_.get_executor(), [self = shared_from_this()] {
      if (self->finished_) return;
      const auto now = steady::now();
      if (self->refused_) {
        if (now - self->refused_at_ >= refusal_timeout) self->finish();
        return;
      }
      if (!self->open_ || self->close_after_queue_) return;
      if (now - self->last_write_ >= sweep_period(self->state_->cfg)) {
        static const frame_ptr comment = std::make_shared<const std::string>(": keep-alive\n\n");
        self->queue(nullptr, comment);
        self->start_writing();
      }
    });
  }

 private:
  // In a cluster, a room this instance does not hold is relayed from its owner (docs/scaling.md
  // "Spectators on every instance").
  void locate() {
    if (!state_->lobby_view || state_->rooms.find(room_)) return enter();
    if (state_->relay && state_->relay->watches(room_)) return watch();  // no lookup needed
    state_->lobby_view->locate(room_, [self = shared_from_this()](cluster_lobby::location where) {
      net::post(self->socket_.get_executor(), [self, where = std::move(where)] {
        if (self->finished_) return;
        using kind = cluster_lobby::location::kind;
        if (where.what == kind::here) return self->enter();
        if (where.what == kind::elsewhere && self->state_->relay) return self->watch();
        self->state_->stats.rejected("room_unavailable");
        self->refuse("503 Service Unavailable", "room_unavailable",
                     "the instance holding room '" + self->room_ +
                         "' is not answering: try again in a few seconds",
                     "Retry-After: 2\r\n");
      });
    });
  }

  // Spectates the room, as a WebSocket spectate does (a finished room may be rebuilt from the
  // store); the answer decides between the stream and a refusal (on_frame).
  void enter() {
    bool unfinished_elsewhere = false, unreadable = false;
    auto entry = state_->rooms.find_or_load(room_, &unfinished_elsewhere, &unreadable);
    if (!entry && unfinished_elsewhere && state_->cluster) {
      state_->stats.rejected("room_unavailable");
      return refuse(
          "503 Service Unavailable", "room_unavailable",
          "room '" + room_ + "' is being taken over by another instance: try again in a second",
          "Retry-After: 1\r\n");
    }
    if (!entry && state_->rooms.awaiting_store(room_)) {
      state_->stats.rejected("room_unavailable");
      return refuse("503 Service Unavailable", "room_unavailable",
                    "room '" + room_ +
                        "' waits for the server's database to answer again: try again in a few "
                        "seconds",
                    "Retry-After: 5\r\n");
    }
    if (!entry && unreadable) {
      state_->stats.rejected("storage_failed");
      return refuse("503 Service Unavailable", "storage_failed",
                    "the database holds room '" + room_ +
                        "' but cannot give it back now (see the server's log)");
    }
    if (!entry) {
      state_->stats.rejected("no_such_room");
      return refuse("404 Not Found", "no_such_room", "no room '" + room_ + "'");
    }
    entered_ = true;
    net::post(entry->strand, [entry, self = shared_from_this()] {
      entry->game_room->spectate(std::static_pointer_cast<client_link>(self), nullptr);
    });
  }

  // Spectates through the relay: its `spectating` opens the stream, as the room's would.
  void watch() {
    if (!state_->relay->watch(room_, shared_from_this(), nullptr)) {
      state_->stats.rejected("too_many_spectators");
      return refuse("503 Service Unavailable", "too_many_spectators",
                    "this room has as many spectators here as it takes", "Retry-After: 5\r\n");
    }
    relayed_ = true;
  }

  // A frame from the room. The first one answers the spectate: `spectating` opens the stream
  // (it is not an event: the client asked nothing), an error becomes the HTTP answer.
  void on_frame(const frame_ptr& frame) {
    if (finished_ || refused_ || close_after_queue_) return;
    const auto type = typed_frame(frame).type;
    if (!open_) {
      if (type == "spectating") return open();
      std::string code = "room_unavailable", message = "the room refused the stream";
      if (type == "error") {
        const auto j = nlohmann::json::parse(*frame, nullptr, false);
        if (j.is_object()) {
          code = j.value("code", code);
          message = j.value("message", message);
        }
      }
      return refuse(status_of(code), code, message,
                    code == "too_many_spectators" ? "Retry-After: 5\r\n" : "");
    }
    queue_event(frame);
    start_writing();
    // The stream asks nothing: an error is the room's stop (room_moved), after which the room
    // lets go of it (set_room). The stream ends; the client reconnects.
    if (type == "error") {
      close_after_queue_ = true;
      maybe_close();
    }
  }

  void open() {
    open_ = true;
    std::string head = http_head("200 OK", "text/event-stream; charset=utf-8");
    // No length and no chunks: the stream ends when the connection does. Proxies that buffer
    // (nginx) are asked not to.
    // Public, read-only, without cookies: any site may read it (an overlay on another origin,
    // or redirected to the room's instance in a cluster).
    head += "Access-Control-Allow-Origin: *\r\n";
    head += "Connection: close\r\nX-Accel-Buffering: no\r\n\r\n";
    head += "retry: 2000\n\n";
    queue(nullptr, std::make_shared<const std::string>(std::move(head)));
    start_writing();
  }

  void refuse(const char* status, const std::string& code, const std::string& message,
              const std::string& extra_headers = {}) {
    refused_ = true;
    refused_at_ = steady::now();
    queue(nullptr,
          std::make_shared<const std::string>(refusal_text(status, code, message, extra_headers)));
    close_after_queue_ = true;
    start_writing();
  }

  // A room hands the same frame to each of its streams: the last frame's type and prefix are
  // kept on the thread, so that ten thousand streams read a patch's type once per thread, not
  // once each. The frame is held, so that its address cannot be another frame's meanwhile.
  struct typed {
    frame_ptr frame, prefix;
    std::string_view type;
  };
  static const typed& typed_frame(const frame_ptr& frame) {
    thread_local typed last;
    if (last.frame != frame) {
      last.frame = frame;
      last.type = frame_type(*frame);
      last.prefix = std::make_shared<const std::string>(event_prefix(last.type));
    }
    return last;
  }

  void queue_event(const frame_ptr& frame) { queue(typed_frame(frame).prefix, frame); }

  // Queued for the next write; past the outgoing queue's limits the client is dropped.
  void queue(frame_ptr prefix, frame_ptr body) {
    if (finished_) return;
    const bool event = prefix != nullptr;
    queue_bytes_ += body->size() + (event ? prefix->size() + 2 : 0);
    queue_.push_back({std::move(prefix), std::move(body)});
    if (queue_.size() > state_->cfg.max_outbound_messages ||
        queue_bytes_ > state_->cfg.max_outbound_bytes) {
      state_->stats.dropped_slow.fetch_add(1);
      spdlog::info("room {}: event stream dropped: slow reader ({} events queued)", room_,
                   queue_.size());
      finish();
    }
  }

  void start_writing() {
    if (finished_ || writing_ || queue_.empty()) return maybe_close();
    buffers_.clear();
    batch_ = 0;
    for (const auto& o : queue_) {
      if (batch_ == max_batch) break;
      ++batch_;
      if (o.prefix) buffers_.push_back(net::buffer(*o.prefix));
      buffers_.push_back(net::buffer(*o.body));
      if (o.prefix) buffers_.push_back(net::buffer(*event_end()));
    }
    writing_ = true;
    net::async_write(
        socket_, buffers_,
        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_write(ec); });
  }

  void on_write(beast::error_code ec) {
    writing_ = false;
    if (finished_) return;
    if (ec) return finish();
    last_write_ = steady::now();
    for (std::size_t i = 0; i < batch_; ++i) {
      const auto& o = queue_.front();
      const std::size_t n = o.body->size() + (o.prefix ? o.prefix->size() + 2 : 0);
      queue_bytes_ -= n;
      if (o.prefix) {
        state_->stats.messages_out.fetch_add(1, std::memory_order_relaxed);
        state_->stats.bytes_out.fetch_add(static_cast<std::int64_t>(n), std::memory_order_relaxed);
      }
      queue_.pop_front();
    }
    start_writing();
  }

  void maybe_close() {
    if (!close_after_queue_ || writing_ || !queue_.empty() || finished_) return;
    finish();
  }

  // Whatever the client sends is read and dropped; its end (or an error) ends the stream.
  void read() {
    socket_.async_read_some(net::buffer(read_buffer_),
                            [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                              if (self->finished_) return;
                              self->bytes_in_ += n;
                              if (ec || self->bytes_in_ > max_bytes_in) return self->finish();
                              self->read();
                            });
  }

  // The connection is gone: leave the room, free the address's slot, forget the stream.
  void finish() {
    if (finished_) return;
    finished_ = true;
    address_.reset();  // before the socket closes: a client that saw the end may come back
    state_->stats.connections.fetch_sub(1);
    beast::error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
    {
      std::lock_guard lock(state_->sessions_mutex);
      state_->streams.erase(weak_from_this());
    }
    if (relayed_) state_->relay->unwatch(room_, shared_from_this());
    // The spectate was posted to the room before anything that ends the stream: the room
    // handles the disconnection after it, on the same strand.
    if (!entered_) return;
    if (auto entry = state_->rooms.find(room_)) {
      net::post(entry->strand, [entry, self = shared_from_this(), st = state_] {
        entry->game_room->disconnected(self);
        st->rooms.room_left(entry->game_room->id());
      });
    }
  }

  struct outbound {
    frame_ptr prefix;  // "event: …\ndata: " (then "\n\n" after the body); null: raw bytes
    frame_ptr body;
  };
  static constexpr std::size_t max_batch = 24;

  tcp::socket socket_;
  std::shared_ptr<shared_state> state_;
  std::unique_ptr<address_limits::lease> address_;  // released when the stream finishes
  const std::string room_;
  std::deque<outbound> queue_;
  std::size_t queue_bytes_ = 0;
  std::vector<net::const_buffer> buffers_;  // of the write under way
  std::size_t batch_ = 0;                   // entries of queue_ in that write
  std::array<char, 512> read_buffer_{};
  std::size_t bytes_in_ = 0;
  bool writing_ = false;
  bool entered_ = false;  // the spectate was posted to the room
  bool relayed_ = false;  // watched through the relay (another instance holds the room)
  bool open_ = false;     // the 200 answer is queued: events follow
  bool refused_ = false;  // an HTTP error answer is queued: the connection closes after it
  bool close_after_queue_ = false;
  bool finished_ = false;
  steady::time_point last_write_ = steady::now();
  steady::time_point refused_at_{};
};

void start_sse_session(beast::tcp_stream stream, std::shared_ptr<shared_state> state,
                       std::unique_ptr<address_limits::lease> address, std::string room) {
  std::make_shared<sse_session>(stream.release_socket(), std::move(state), std::move(address),
                                std::move(room))
      ->run();
}

namespace {

std::vector<std::shared_ptr<sse_session>> live_streams(shared_state& state) {
  std::vector<std::shared_ptr<sse_session>> live;
  std::lock_guard lock(state.sessions_mutex);
  live.reserve(state.streams.size());
  for (const auto& w : state.streams)
    if (auto s = w.lock()) live.push_back(std::move(s));
  return live;
}

}  // namespace

void close_all_streams(shared_state& state) {
  for (const auto& s : live_streams(state)) s->say_goodbye();
}

void sweep_streams(shared_state& state) {
  for (const auto& s : live_streams(state)) s->check_timeouts();
}

}  // namespace carcassonne::server
