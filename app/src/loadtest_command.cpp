// loadtest: its own WebSocket clients against a running server. Each room is a group of C
// clients on one thread: one creates the room (seeded, so that the group can follow the game with
// the engine: start the server with --allow-scripted true), all join, it starts, and the seat to
// act plays a random legal move computed by the group's own copy of the game. Clients only check
// the sequence numbers of their patches; one client per room, chosen at random, keeps a full view
// by applying every patch and checks it against a snapshot when the game ends and when the run
// stops. When a game ends the group starts another. Latency is move sent -> the room's last client
// has the resulting patch. The tool reports its own CPU, so that its cost can be told apart. At
// the end a group closes its clients only once its move in flight is answered. With
// --spectators S, S more clients per room watch it (and the group's next room) from their own
// threads (--spectator-threads), reading only each patch's head: the spectator latency is move
// sent -> the last spectator has the resulting patch.
#include <sys/resource.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <deque>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <thread>
#include <tuple>

#include "carcassonne/app/commands.hpp"
#include "carcassonne/app/patched_view.hpp"
#include "carcassonne/engine/game.hpp"
#include "carcassonne/engine/options.hpp"
#include "carcassonne/engine/rng.hpp"
#include "carcassonne/protocol/json_codec.hpp"
#include "carcassonne/protocol/json_text.hpp"
#include "carcassonne/protocol/record.hpp"

namespace carcassonne::app {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using json = nlohmann::json;
using clock_type = std::chrono::steady_clock;
// Each thread of the tool runs its own io_context and the groups given to it: a group's clients
// and timers share one thread, so no strand is needed and no completion crosses threads. The
// socket names the io_context's executor (no type-erased executor, no timeout layer): the tool
// pays per frame only for what it checks.
using executor_type = net::io_context::executor_type;
using socket_type = net::basic_stream_socket<tcp, executor_type>;

struct load_options {
  std::string host = "127.0.0.1", port = "8080";
  int rooms = 10, clients = 4, threads = 1;
  double duration = 10;
  // Expansions of every room, or "every": room r plays mix r of all 2^5 mixes in turn.
  std::vector<std::string> expansions;
  bool every_mix = false;
  json options = json::object();  // rule options, as in create_room's setup
  json match;                     // create_room's `match` (clocks, take-backs), when given
  bool idle = false;              // seat and start every room, then play no move (memory)
  // --rate: moves per second offered over all rooms (0: each room as fast as it can). Each
  // room then sends a move at most every rooms/rate seconds, so that latency is measured below
  // saturation instead of being queueing behind a closed loop.
  double rate = 0;
  // Rooms of bots only besides (--bot-rooms): each watched by one client that starts the game
  // and a new one when it ends; they load the server, their moves are not measured.
  int bot_rooms = 0, bot_seats = 4, bot_pause_ms = 1000;
  std::string bot_level = "strong";
  int spectators = 0, spectator_threads = 1;  // per room; their own threads
  int spectator_delay = 0;                    // the rooms' spectator delay, in moves
};

struct group;
class watch_client;

// A patch frame's head as the server writes it: {"type":"patch","room":"ID","seq":N,...
struct patch_head {
  std::string_view room;
  std::uint64_t seq = 0;
};
std::optional<patch_head> read_patch_head(std::string_view text) {
  constexpr std::string_view lead = R"({"type":"patch","room":")";
  if (!text.starts_with(lead)) return std::nullopt;
  text.remove_prefix(lead.size());
  const auto quote = text.find('"');
  if (quote == std::string_view::npos) return std::nullopt;
  patch_head h{text.substr(0, quote)};
  constexpr std::string_view seq = R"(,"seq":)";
  text.remove_prefix(quote + 1);
  if (!text.starts_with(seq)) return std::nullopt;
  text.remove_prefix(seq.size());
  if (std::from_chars(text.data(), text.data() + text.size(), h.seq).ec != std::errc())
    return std::nullopt;
  return h;
}

// A move message: the move's text and the last seq seen.
std::string move_message(std::string_view move_text, std::uint64_t seq) {
  std::string out;
  protocol::object_writer(out)
      .string("type", "move")
      .text("move", move_text)
      .number("seq", static_cast<long long>(seq))
      .close();
  return out;
}

// A member of an object, or null.
const json* member(const json& v, std::string_view key) {
  const auto it = v.find(key);  // end() unless an object
  return it == v.end() ? nullptr : &*it;
}

std::string_view game_status(const json& view) {
  const auto* game = member(view, "game");
  const auto* status = game ? member(*game, "status") : nullptr;
  return status && status->is_string() ? std::string_view(status->get_ref<const std::string&>())
                                       : "";
}

// A client's text frames, written one at a time in order on its thread; `keep` holds the client
// (and so this queue and its stream) alive while a write is under way.
struct frame_queue {
  std::deque<std::string> out;
  bool writing = false;

  template <class Stream>
  void push(Stream& ws, std::string text, std::shared_ptr<void> keep) {
    out.push_back(std::move(text));
    if (!writing) next(ws, std::move(keep));
  }
  template <class Stream>
  void next(Stream& ws, std::shared_ptr<void> keep) {
    writing = true;
    ws.async_write(net::buffer(out.front()), [this, &ws, keep](beast::error_code ec, std::size_t) {
      writing = false;
      if (ec) return;
      out.pop_front();
      if (!out.empty()) next(ws, keep);
    });
  }
};

class load_client : public std::enable_shared_from_this<load_client> {
 public:
  load_client(group& g, int index, executor_type ex) : ws_(ex), group_(g), index_(index) {}
  void start(const tcp::resolver::results_type& endpoints);
  void send(const json& j);
  void send_text(std::string text);
  void close() {
    if (!open_) return;
    open_ = false;
    ws_.async_close(websocket::close_code::normal,
                    [self = shared_from_this()](beast::error_code) {});
  }
  // Joins the group's newest room once this client is out of its previous one.
  void join_current();
  // The run is over: the checking client compares its view with a snapshot first.
  void stop();
  void leave_room();
  int seat() const { return seat_; }
  std::uint64_t seq() const { return seq_; }
  bool keeps_view = false;  // this room's checking client (or a bots room's watcher)

 private:
  void read();
  void on_frame(std::string_view text);
  void on_patch(const patch_head& h, std::string_view text);
  void on_message(const json& m, std::string_view text);
  void act_from_view();
  void check_view(std::string_view snapshot, std::uint64_t kept_seq);

  websocket::stream<socket_type> ws_;
  group& group_;
  int index_;
  beast::flat_buffer buffer_;
  frame_queue writes_;
  bool open_ = false;
  int seat_ = -1;
  int playing_generation_ = 0;
  std::string room_;
  patched_view view_;  // keeps_view only
  std::uint64_t seq_ = 0, acted_at_ = ~0ULL;
};

struct group {
  int size = 0;
  int index = 0;
  const load_options* opts = nullptr;
  net::io_context* io = nullptr;  // the thread of its clients and timer
  bool bots = false;              // a bots-only room's watcher
  // A server that refuses seeded rooms: every client keeps its view and plays from it (the
  // tool then costs several times more CPU per move).
  bool seeded = true;
  bool view_finished = false;      // unseeded: the game is over, as the views show
  load_client* checker = nullptr;  // the client whose view is compared with a snapshot
  rng chooser{0};
  std::vector<std::shared_ptr<load_client>> clients;
  std::string room;
  int generation = 0;  // how many rooms this group has created
  int joined = 0;
  json setup;                         // of the current room, as created
  std::vector<std::string> names;     // by seat
  std::optional<game_state> game;     // the group's own copy, one move behind at most
  std::optional<move> in_flight;      // sent, not yet accepted
  std::uint64_t in_flight_patch = 0;  // the seq its patch would have (its key in `pending`)
  std::uint64_t stale_moves = 0;      // refused as stale (the room changed first), sent again
  std::uint64_t awaited = 0;          // the seq the next mover must have seen
  std::vector<move> legal;
  std::optional<net::basic_waitable_timer<clock_type, net::wait_traits<clock_type>, executor_type>>
      pacer;                          // --rate: on the group's thread
  clock_type::time_point next_due{};  // --rate: the earliest time of the next move
  bool pacer_armed = false;
  struct pending_move {
    clock_type::time_point sent;
    int receipts = 0;
  };
  std::map<std::uint64_t, pending_move> pending;  // by the seq of the patch the move produces
  // --spectators: this room's watchers (on their own threads), and the measured moves' patches
  // (room generation, seq) with the time each move was sent.
  std::vector<std::shared_ptr<watch_client>> watchers;
  struct watched_move {
    int generation;
    std::uint64_t seq;
    clock_type::time_point sent;
  };
  std::vector<watched_move> watched;
  std::vector<double> latencies_ms;
  std::uint64_t moves = 0, games = 0, errors = 0, seq_gaps = 0, views_checked = 0,
                view_mismatches = 0;
  int unanswered = 0;  // moves sent, neither accepted nor refused yet
  bool stopping = false, closing = false;
  clock_type::time_point measure_from{}, measure_until{};
  std::string first_error;

  void error(const std::string& what) {
    ++errors;
    if (first_error.empty()) first_error = what;
  }

  // The run is over: no new move, and the clients close once every move sent is answered. A
  // seat's going is a change of the room (its seat no longer "connected", a new seq): reaching
  // the server before another seat's move in flight, it made that move stale_sequence.
  void stop() {
    stopping = true;
    close_when_answered();
  }
  void close_when_answered() {
    if (!stopping || unanswered > 0 || closing) return;
    closing = true;
    for (auto& c : clients) c->stop();
  }

  json room_setup() const {
    json s{{"options", opts->options}};
    if (seeded) s["seed"] = "load/" + std::to_string(index) + "/" + std::to_string(generation + 1);
    json e = json::array();
    if (opts->every_mix) {
      // The players' expansions only: tests' own sample modules are never offered.
      const int mix = (index + generation) % (1 << player_expansion_count);
      for (int i = 0; i < player_expansion_count; ++i)
        if (mix >> i & 1) e.push_back(std::string(expansion_name(static_cast<expansion>(i))));
    } else {
      for (const auto& x : opts->expansions) e.push_back(x);
    }
    s["expansions"] = e;
    return s;
  }

  void new_room() {
    room.clear();
    joined = 0;
    pending.clear();
    game.reset();
    in_flight.reset();
    names.assign(static_cast<std::size_t>(size), "");
    if (stopping) return;
    view_finished = false;
    for (auto& c : clients) c->keeps_view = bots || !seeded;
    checker = clients[bots ? 0 : chooser.below(clients.size())].get();
    checker->keeps_view = true;
    if (bots) {
      clients[0]->send({{"type", "create_room"},
                        {"seats", opts->bot_seats},
                        {"public", false},
                        {"name", "load bots"},
                        {"bots", json(std::vector<std::string>(opts->bot_seats, opts->bot_level))},
                        {"bot_pause_ms", opts->bot_pause_ms}});
      return;
    }
    setup = room_setup();
    json create{{"type", "create_room"},
                {"seats", size},
                {"public", false},
                {"name", "load"},
                {"setup", setup}};
    if (!opts->match.is_null()) create["match"] = opts->match;
    if (opts->spectator_delay > 0) create["spectator_delay"] = opts->spectator_delay;
    clients[0]->send(create);
  }

  // The game as the server starts it: the same setup, seed and names, so the same deck.
  void start_game() {
    json s = setup;
    s["players"] = json::array();
    for (const auto& n : names) s["players"].push_back({{"name", n}});
    auto parsed = protocol::parse_setup(s);
    if (!parsed.ok()) return error("setup: " + parsed.error.message);
    auto g = new_game(parsed.value->setup);
    if (!g.ok()) return error("new game: " + g.err().message);
    game = std::move(g.value());
  }

  load_client* client_of_seat(int seat) {
    for (auto& c : clients)
      if (c->seat() == seat) return c.get();
    return nullptr;
  }

  // The seat to act moves once it has seen the patch of the last move.
  void try_act() {
    if (stopping || opts->idle || !game || in_flight || game->finished) return;
    auto* c = client_of_seat(to_act(*game));
    if (!c || c->seq() < awaited) return;
    if (opts->rate > 0 && !paced()) return;
    legal_actions(*game, legal);
    if (legal.empty()) return;
    in_flight = legal[chooser.below(legal.size())];
    ++unanswered;
    in_flight_patch = c->seq() + 1;
    pending[in_flight_patch] = {clock_type::now(), 0};
    c->send_text(move_message(protocol::move_text(*in_flight, *game), c->seq()));
  }

  // --rate: true when the next move may go now (and books the one after), else the pacer wakes
  // try_act at the due time.
  bool paced() {
    const auto now = clock_type::now();
    if (now < next_due) {
      if (!pacer_armed) {
        pacer_armed = true;
        pacer->expires_at(next_due);
        pacer->async_wait([this](beast::error_code ec) {
          pacer_armed = false;
          if (!ec) try_act();
        });
      }
      return false;
    }
    const auto interval = std::chrono::duration_cast<clock_type::duration>(
        std::chrono::duration<double>(opts->rooms / opts->rate));
    next_due = std::max(next_due, now - interval) + interval;  // no burst to catch up a stall
    return true;
  }

  void accepted(std::uint64_t seq) {
    if (unanswered > 0) --unanswered;
    if (in_flight && game) {
      if (!apply_in_place(*game, *in_flight)) error("own copy refused a move");
      in_flight.reset();
      awaited = seq;
      try_act();
    }
    close_when_answered();
  }

  // Every client has the patch `seq`: count the move, and after the last one start anew.
  void received(std::uint64_t seq) {
    auto it = pending.find(seq);
    if (it == pending.end() || ++it->second.receipts < size) return try_act();
    const auto now = clock_type::now();
    if (it->second.sent >= measure_from && now <= measure_until) {
      latencies_ms.push_back(
          std::chrono::duration<double, std::milli>(now - it->second.sent).count());
      ++moves;
      if (!watchers.empty()) watched.push_back({generation, seq, it->second.sent});
    }
    pending.erase(it);
    if (seeded ? game && game->finished && !in_flight : view_finished) {
      ++games;
      checker->send({{"type", "snapshot"}, {"id", "check"}});
      return;
    }
    try_act();
  }
};

// What the spectators of one thread saw: when each patch (room index, generation, seq) reached
// the last of them, and how many frames and bytes they read.
struct watch_log {
  std::map<std::tuple<int, int, std::uint64_t>, clock_type::time_point> last;
  std::uint64_t frames = 0, bytes = 0, watching = 0, ended = 0;
  // Admission: from the run's start to each spectator's TCP connection, its WebSocket upgrade
  // answered, and its first `spectating` answer (ms); the spectators that never got in.
  clock_type::time_point start{};
  std::vector<double> connected_ms, upgraded_ms, admitted_ms;
  std::uint64_t connect_failures = 0, handshake_failures = 0;
  std::string first_error;
  double since_start() const {
    return std::chrono::duration<double, std::milli>(clock_type::now() - start).count();
  }
};

// A spectator (--spectators): watches its group's room, then the group's next one.
class watch_client : public std::enable_shared_from_this<watch_client> {
 public:
  watch_client(int group, executor_type ex, watch_log& log) : ws_(ex), group_(group), log_(log) {}

  void start(const tcp::resolver::results_type& endpoints) {
    net::async_connect(ws_.next_layer(), endpoints,
                       [self = shared_from_this()](beast::error_code ec, auto) {
                         if (ec) {
                           ++self->log_.connect_failures;
                           return self->fail("spectator connect: " + ec.message());
                         }
                         self->log_.connected_ms.push_back(self->log_.since_start());
                         self->ws_.next_layer().set_option(tcp::no_delay(true), ec);
                         self->ws_.async_handshake("127.0.0.1", "/ws", [self](beast::error_code e) {
                           if (e) {
                             ++self->log_.handshake_failures;
                             return self->fail("spectator handshake: " + e.message());
                           }
                           self->log_.upgraded_ms.push_back(self->log_.since_start());
                           self->open_ = true;
                           if (!self->wanted_.empty())
                             self->watch(self->wanted_, self->wanted_gen_);
                           self->read();
                         });
                       });
  }
  // On its thread: watch `room` (the group's generation `generation`), leaving the last one.
  void watch(const std::string& room, int generation) {
    wanted_ = room;
    wanted_gen_ = generation;
    if (!open_) return;
    if (!room_.empty()) send(json{{"type", "leave"}}.dump());
    room_ = room;
    generation_ = generation;
    send(json{{"type", "spectate"}, {"room", room}}.dump());
  }
  void close() {
    if (!open_) return;
    open_ = false;
    ws_.async_close(websocket::close_code::normal,
                    [self = shared_from_this()](beast::error_code) {});
  }
  executor_type get_executor() { return ws_.get_executor(); }

 private:
  void fail(const std::string& what) {
    if (log_.first_error.empty()) log_.first_error = what;
  }
  void send(std::string text) { writes_.push(ws_, std::move(text), shared_from_this()); }
  void read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t n) {
      if (ec) {
        if (self->open_) ++self->log_.ended;  // dropped by the server (a slow reader) or gone
        self->open_ = false;
        return;
      }
      const auto data = self->buffer_.cdata();
      self->on_frame({static_cast<const char*>(data.data()), n});
      self->buffer_.consume(self->buffer_.size());
      self->read();
    });
  }
  void on_frame(std::string_view text) {
    ++log_.frames;
    log_.bytes += text.size();
    if (auto h = read_patch_head(text)) {
      if (h->room != room_) return;
      auto& t = log_.last[{group_, generation_, h->seq}];
      t = std::max(t, clock_type::now());
    } else if (text.find(R"("type":"spectating")") != std::string_view::npos) {
      ++log_.watching;
      if (!admitted_) log_.admitted_ms.push_back(log_.since_start());
      admitted_ = true;
    } else if (text.find(R"("type":"error")") != std::string_view::npos) {
      fail(std::string("spectator: ") + std::string(text.substr(0, 200)));
    }
  }

  websocket::stream<socket_type> ws_;
  int group_;
  watch_log& log_;
  beast::flat_buffer buffer_;
  frame_queue writes_;
  bool open_ = false, admitted_ = false;
  std::string room_, wanted_;
  int generation_ = 0, wanted_gen_ = 0;
};

void load_client::start(const tcp::resolver::results_type& endpoints) {
  net::async_connect(
      ws_.next_layer(), endpoints, [self = shared_from_this()](beast::error_code ec, auto) {
        if (ec) return self->group_.error("connect: " + ec.message());
        self->ws_.next_layer().set_option(tcp::no_delay(true), ec);
        self->ws_.async_handshake("127.0.0.1", "/ws", [self](beast::error_code ec2) {
          if (ec2) return self->group_.error("handshake: " + ec2.message());
          self->open_ = true;
          self->send({{"type", "hello"}, {"protocol", 1}, {"client", "loadtest"}});
          if (self->index_ == 0)
            self->group_.new_room();
          else
            self->join_current();  // the room may have been created before this client was open
          self->read();
        });
      });
}

void load_client::join_current() {
  auto& g = group_;
  if (!open_ || playing_generation_ == g.generation || !room_.empty() || g.room.empty()) return;
  playing_generation_ = g.generation;
  send({{"type", "join"}, {"room", g.room}, {"name", "bot" + std::to_string(index_)}});
}

void load_client::stop() {
  if (this == group_.checker && view_.holds())
    return send({{"type", "snapshot"}, {"id", "final"}});  // closes on the answer
  close();
}

void load_client::send(const json& j) {
  send_text(j.dump());
}

void load_client::send_text(std::string text) {
  if (open_) writes_.push(ws_, std::move(text), shared_from_this());
}

void load_client::read() {
  ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t bytes) {
    if (ec) {
      self->open_ = false;
      return;
    }
    const auto data = self->buffer_.cdata();
    self->on_frame({static_cast<const char*>(data.data()), bytes});
    self->buffer_.consume(self->buffer_.size());
    self->read();
  });
}

// The answer to a move without an id, as the server writes it: {"seq":N,"type":"move_accepted"}.
std::optional<std::uint64_t> read_move_accepted(std::string_view text) {
  constexpr std::string_view lead = R"({"seq":)", tail = R"(,"type":"move_accepted"})";
  if (!text.starts_with(lead) || !text.ends_with(tail)) return std::nullopt;
  std::uint64_t seq = 0;
  const char* from = text.data() + lead.size();
  if (std::from_chars(from, text.data() + text.size(), seq).ec != std::errc()) return std::nullopt;
  return seq;
}

void load_client::on_frame(std::string_view text) {
  if (auto head = read_patch_head(text)) return on_patch(*head, text);
  if (auto seq = read_move_accepted(text)) return group_.accepted(*seq);
  const json m = json::parse(text, nullptr, false);
  if (!m.is_discarded()) on_message(m, text);
}

// A passive client reads a patch's head only: its room and that its seq follows the last one.
void load_client::on_patch(const patch_head& h, std::string_view text) {
  if (h.room != room_) return;  // frames of a room just left
  if (h.seq != seq_ + 1) ++group_.seq_gaps;
  seq_ = h.seq;
  if (keeps_view && view_.holds()) {
    if (auto failed = view_.apply_frame(text); !failed.empty())
      return group_.error("unreadable patch: " + failed);
    // Seeded rooms know the game's end from their engine copy: no lookup in the view then.
    const bool over = (group_.bots || !group_.seeded) && game_status(view_.value()) == "finished";
    if (group_.bots && over) {
      ++group_.games;
      return leave_room();
    }
    if (over) group_.view_finished = true;
  }
  if (!group_.seeded) act_from_view();
  group_.received(seq_);
}

// Unseeded: a random move of the view's legal moves, once per sequence number.
void load_client::act_from_view() {
  if (group_.stopping || group_.opts->idle || seat_ < 0 || !view_.holds()) return;
  const auto* game = member(view_.value(), "game");
  const auto* legal = game ? member(*game, "legal_moves") : nullptr;
  if (!legal || !legal->is_array() || acted_at_ == seq_) return;
  const auto& moves = *legal;
  if (moves.empty()) return;
  acted_at_ = seq_;
  ++group_.unanswered;
  group_.pending[seq_ + 1] = {clock_type::now(), 0};
  send_text(move_message(moves[group_.chooser.below(moves.size())].dump(), seq_));
}

// The snapshot frame against the view this client kept by applying every patch: the same seq
// (the snapshot's, now seq_) and the same view.
void load_client::check_view(std::string_view snapshot, std::uint64_t kept_seq) {
  const auto* view = member(view_.parse(snapshot), "view");
  if (kept_seq == seq_ && view && view_.holds() && *view == view_.value())
    ++group_.views_checked;
  else
    ++group_.view_mismatches;
}

void load_client::leave_room() {
  auto& g = group_;
  seat_ = -1;
  view_.clear();
  room_.clear();
  seq_ = 0;
  send({{"type", "leave"}});
  if (g.bots) return g.new_room();
  if (index_ == 0)
    g.new_room();
  else
    join_current();  // the next room may already exist
}

void load_client::on_message(const json& m, std::string_view text) {
  const std::string type = m.value("type", "");
  auto& g = group_;
  if (type == "room_created" && g.bots) {
    send({{"type", "spectate"}, {"room", m["room"]}});
  } else if (type == "spectating") {
    room_ = m["room"];
    send({{"type", "start"}});
  } else if (type == "room_created") {
    g.room = m["room"];
    ++g.generation;
    for (auto& c : g.clients) c->join_current();
    for (auto& w : g.watchers)
      net::post(w->get_executor(), [w, room = g.room, gen = g.generation] { w->watch(room, gen); });
  } else if (type == "joined") {
    seat_ = m["seat"];
    room_ = m["room"];
    g.names[static_cast<std::size_t>(seat_)] = "bot" + std::to_string(index_);
    if (++g.joined == g.size) g.clients[0]->send({{"type", "start"}});
  } else if (type == "started" && g.seeded && !g.bots) {
    // Every patch of the joins came before this answer: the game's first patch is the next.
    g.start_game();
    g.awaited = seq_ + 1;
    g.try_act();
  } else if (type == "snapshot") {
    if (m["room"] != room_) return;
    const std::uint64_t kept = seq_;  // the seq of the last patch applied
    seq_ = m["seq"];
    const auto id = m.value("id", "");
    if (id == "check" || id == "final") {
      check_view(text, kept);
      if (id == "final") return close();
      for (auto& c : g.clients) c->leave_room();  // the game is over: the next one
      return;
    }
    if (keeps_view) {
      const auto* view = member(view_.parse(text), "view");
      view ? view_.reset(*view) : view_.clear();
    }
    if (!g.bots && g.seeded) g.try_act();
    if (!g.bots && !g.seeded) act_from_view();
  } else if (type == "move_accepted") {
    g.accepted(m["seq"]);
  } else if (type == "error") {
    if (m.value("code", "") == "bad_setup" && g.generation == 0 && g.seeded) {
      g.seeded = false;  // the server takes no seed: play from the views
      return g.new_room();
    }
    if (m.value("code", "") == "stale_sequence" && g.in_flight) {
      // The room changed before the move arrived (a spectators' count, say): the mover has
      // seen that patch by now (it came before this answer); the move goes again.
      ++g.stale_moves;
      g.pending.erase(g.in_flight_patch);
      g.in_flight.reset();
      if (g.unanswered > 0) --g.unanswered;
      g.try_act();
      return g.close_when_answered();
    }
    g.error(m.dump());
    if (g.in_flight && m.value("code", "") != "rate_limited") g.in_flight.reset();
    if (g.unanswered > 0) --g.unanswered;  // in play, only moves are refused
    g.close_when_answered();
  }
}

const char* const usage =
    "usage: carcassonne loadtest [--host H] [--port P] --rooms R --clients-per-room C "
    "--duration S [--threads T] [--rate MOVES_PER_S] [--expansions a,b|every] [--options JSON] "
    "[--match JSON] "
    "[--idle] [--bot-rooms N "
    "[--bot-seats S] [--bot-level L] [--bot-pause-ms MS]] [--spectators S "
    "[--spectator-threads T] [--spectator-delay MOVES]]\n";

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::size_t from = 0;
  while (from <= text.size()) {
    const auto comma = std::min(text.find(',', from), text.size());
    if (comma > from) out.push_back(text.substr(from, comma - from));
    from = comma + 1;
  }
  return out;
}

bool parse_options(std::span<const std::string> args, load_options& o, std::ostream& err) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const bool has = i + 1 < args.size();
    try {
      if (args[i] == "--host" && has)
        o.host = args[++i];
      else if (args[i] == "--port" && has)
        o.port = args[++i];
      else if (args[i] == "--rooms" && has)
        o.rooms = std::stoi(args[++i]);
      else if ((args[i] == "--clients-per-room" || args[i] == "--players") && has)
        o.clients = std::stoi(args[++i]);
      else if (args[i] == "--duration" && has)
        o.duration = std::stod(args[++i]);
      else if (args[i] == "--threads" && has)
        o.threads = std::stoi(args[++i]);
      else if (args[i] == "--rate" && has)
        o.rate = std::stod(args[++i]);
      else if (args[i] == "--expansions" && has) {
        o.expansions = split_list(args[++i]);
        o.every_mix = o.expansions == std::vector<std::string>{"every"};
        for (const auto& e : o.expansions)
          if (!o.every_mix && !find_expansion(e)) throw std::invalid_argument(e);
      } else if (args[i] == "--options" && has) {
        o.options = json::parse(args[++i], nullptr, false);
        if (!o.options.is_object()) throw std::invalid_argument("--options");
      } else if (args[i] == "--match" && has) {
        o.match = json::parse(args[++i], nullptr, false);
        if (!o.match.is_object()) throw std::invalid_argument("--match");
      } else if (args[i] == "--idle")
        o.idle = true;
      else if (args[i] == "--bot-rooms" && has)
        o.bot_rooms = std::stoi(args[++i]);
      else if (args[i] == "--bot-seats" && has)
        o.bot_seats = std::stoi(args[++i]);
      else if (args[i] == "--bot-level" && has)
        o.bot_level = args[++i];
      else if (args[i] == "--spectators" && has)
        o.spectators = std::stoi(args[++i]);
      else if (args[i] == "--spectator-delay" && has)
        o.spectator_delay = std::stoi(args[++i]);
      else if (args[i] == "--spectator-threads" && has)
        o.spectator_threads = std::stoi(args[++i]);
      else if (args[i] == "--bot-pause-ms" && has)
        o.bot_pause_ms = std::stoi(args[++i]);
      else
        throw std::invalid_argument(args[i]);
    } catch (...) {
      err << usage;
      return false;
    }
  }
  if (o.rooms < 1 || o.clients < 2 || o.clients > 6 || o.duration <= 0 || o.threads < 1 ||
      o.rate < 0 || o.bot_rooms < 0 || o.bot_seats < 2 || o.bot_seats > 6 || o.bot_pause_ms < 0 ||
      o.spectators < 0 || o.spectator_threads < 1) {
    err << "carcassonne loadtest: rooms >= 1, clients-per-room 2..6, duration > 0, threads >= 1, "
           "rate >= 0, spectators >= 0, spectator-threads >= 1\n";
    return false;
  }
  return true;
}

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  const auto sec = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return sec(u.ru_utime) + sec(u.ru_stime);
}

double percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  const auto k = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

double most(const std::vector<double>& v) {
  return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
}

// How the spectators got in, timed from the run's start (all of them open at once): each one's
// `spectating` answer, and on the way its TCP connection and its WebSocket upgrade.
json admission(std::vector<double>& admitted, std::vector<double>& connected,
               std::vector<double>& upgraded, int spectators, std::uint64_t connect_failures,
               std::uint64_t handshake_failures) {
  const double all_in = most(admitted);
  const auto n = static_cast<double>(admitted.size());
  return {{"spectators", admitted.size()},
          {"of", spectators},
          {"connect_failures", connect_failures},
          {"handshake_failures", handshake_failures},
          {"p50_ms", percentile(admitted, 0.50)},
          {"p99_ms", percentile(admitted, 0.99)},
          {"max_ms", all_in},
          {"per_second", all_in > 0 ? n * 1000 / all_in : 0.0},
          {"connected_ms",
           {{"p50", percentile(connected, 0.50)},
            {"p99", percentile(connected, 0.99)},
            {"max", most(connected)}}},
          {"upgraded_ms",
           {{"p50", percentile(upgraded, 0.50)},
            {"p99", percentile(upgraded, 0.99)},
            {"max", most(upgraded)}}}};
}

}  // namespace

int run_loadtest(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  load_options o;
  if (!parse_options(args, o, err)) return 1;
  // One io_context per thread. The hint 1 says one thread runs it: Asio then queues the handlers
  // that thread posts itself without taking its lock (posts from other threads still lock).
  std::vector<std::unique_ptr<net::io_context>> ios;
  for (int t = 0; t < o.threads; ++t) ios.push_back(std::make_unique<net::io_context>(1));
  auto& io = *ios[0];
  tcp::resolver resolver(io);
  beast::error_code ec;
  const auto endpoints = resolver.resolve(o.host, o.port, ec);
  if (ec) {
    err << "carcassonne loadtest: cannot resolve " << o.host << ":" << o.port << "\n";
    return 1;
  }
  // --spectators: their own threads, so that reading their frames never delays a player's move.
  // Declared before the groups that hold the watchers: destroyed after them (their logs last).
  std::vector<std::unique_ptr<watch_log>> watch_logs;
  std::vector<std::unique_ptr<net::io_context>> watch_ios;
  std::vector<std::unique_ptr<group>> groups;
  for (int t = 0; o.spectators > 0 && t < o.spectator_threads; ++t) {
    watch_ios.push_back(std::make_unique<net::io_context>(1));
    watch_logs.push_back(std::make_unique<watch_log>());
  }
  int next_watcher = 0;
  const auto start = clock_type::now();
  for (auto& l : watch_logs) l->start = start;
  // The first seconds open connections and rooms; measure the steady part after them.
  const auto warmup = std::chrono::duration<double>(std::min(2.0, o.duration / 5));
  for (int r = 0; r < o.rooms; ++r) {
    auto g = std::make_unique<group>();
    g->size = o.clients;
    g->index = r;
    g->opts = &o;
    g->chooser = rng(static_cast<std::uint64_t>(r) + 1);
    g->measure_from = start + std::chrono::duration_cast<clock_type::duration>(warmup);
    g->measure_until = start + std::chrono::duration_cast<clock_type::duration>(
                                   std::chrono::duration<double>(o.duration));
    g->io = ios[static_cast<std::size_t>(r % o.threads)].get();
    g->pacer.emplace(g->io->get_executor());
    // Rooms start their paced moves spread over one interval, not all at once.
    if (o.rate > 0)
      g->next_due =
          start + std::chrono::duration_cast<clock_type::duration>(
                      std::chrono::duration<double>(o.rooms / o.rate * (r + 0.5) / o.rooms));
    for (int c = 0; c < o.clients; ++c)
      g->clients.push_back(std::make_shared<load_client>(*g, c, g->io->get_executor()));
    for (int w = 0; w < o.spectators; ++w) {
      const auto t = static_cast<std::size_t>(next_watcher++ % o.spectator_threads);
      g->watchers.push_back(
          std::make_shared<watch_client>(r, watch_ios[t]->get_executor(), *watch_logs[t]));
    }
    groups.push_back(std::move(g));
  }
  for (int r = 0; r < o.bot_rooms; ++r) {
    auto g = std::make_unique<group>();
    g->size = 1;
    g->bots = true;
    g->opts = &o;
    g->io = ios[static_cast<std::size_t>((o.rooms + r) % o.threads)].get();
    g->clients.push_back(std::make_shared<load_client>(*g, 0, g->io->get_executor()));
    groups.push_back(std::move(g));
  }
  for (auto& g : groups) {
    for (auto& w : g->watchers)
      net::post(w->get_executor(), [w, &endpoints] { w->start(endpoints); });
    net::post(*g->io, [g = g.get(), &endpoints] {
      for (auto& c : g->clients) c->start(endpoints);
    });
  }
  // The tool's own CPU over the measured part, to tell its cost from the server's.
  double cpu_from = 0, cpu_until = 0;
  net::steady_timer warm_timer(io, std::chrono::duration_cast<clock_type::duration>(warmup));
  warm_timer.async_wait([&](beast::error_code) { cpu_from = cpu_seconds(); });
  net::steady_timer stop_timer(io, std::chrono::duration_cast<clock_type::duration>(
                                       std::chrono::duration<double>(o.duration)));
  // Groups wait for the answers to their moves in flight, checking clients for their final
  // snapshot; a server that does not answer is left.
  net::steady_timer give_up(io);
  stop_timer.async_wait([&](beast::error_code) {
    cpu_until = cpu_seconds();
    for (auto& g : groups) {
      net::post(*g->io, [g = g.get()] { g->stop(); });
      for (auto& w : g->watchers) net::post(w->get_executor(), [w] { w->close(); });
    }
    give_up.expires_after(std::chrono::seconds(5));
    give_up.async_wait([&](beast::error_code e) {
      if (!e)
        for (auto& i : ios) i->stop();
    });
  });
  std::vector<std::thread> threads;
  for (int t = 1; t < o.threads; ++t) threads.emplace_back([&ios, t] { ios[t]->run(); });
  std::vector<std::thread> watch_threads;
  std::vector<net::executor_work_guard<net::io_context::executor_type>> watch_work;
  for (auto& w : watch_ios) {
    watch_work.push_back(net::make_work_guard(*w));
    watch_threads.emplace_back([w = w.get()] { w->run(); });
  }
  io.run();
  for (auto& t : threads) t.join();
  for (auto& w : watch_ios) w->stop();
  for (auto& t : watch_threads) t.join();

  std::vector<double> latencies;
  std::uint64_t moves = 0, games = 0, errors = 0, bot_games = 0, gaps = 0, checked = 0,
                mismatched = 0, stale = 0;
  std::string first_error;
  for (auto& g : groups) {
    errors += g->errors;
    stale += g->stale_moves;
    gaps += g->seq_gaps;
    checked += g->views_checked;
    mismatched += g->view_mismatches;
    if (first_error.empty()) first_error = g->first_error;
    if (g->bots) {
      bot_games += g->games;
      continue;
    }
    latencies.insert(latencies.end(), g->latencies_ms.begin(), g->latencies_ms.end());
    moves += g->moves;
    games += g->games;
  }
  const double measured = o.duration - warmup.count();
  json result{
      {"rooms", o.rooms},
      {"rate", o.rate},
      {"clients", o.rooms * o.clients},
      {"duration_s", o.duration},
      {"measured_s", measured},
      {"moves", moves},
      {"moves_per_second", moves / measured},
      {"games_finished", games},
      {"bot_rooms", o.bot_rooms},
      {"bot_games_finished", bot_games},
      {"errors", errors},
      {"stale_moves_sent_again", stale},
      {"seq_gaps", gaps},
      {"views_checked", checked},
      {"view_mismatches", mismatched},
      {"loadtest_threads", o.threads},
      {"loadtest_cpu_s", cpu_until - cpu_from},
      {"loadtest_cpu_us_per_move", moves ? (cpu_until - cpu_from) * 1e6 / moves : 0.0},
      {"latency_ms",
       {{"p50", percentile(latencies, 0.50)},
        {"p95", percentile(latencies, 0.95)},
        {"p99", percentile(latencies, 0.99)},
        {"max", latencies.empty() ? 0.0 : *std::max_element(latencies.begin(), latencies.end())}}}};
  if (o.spectators > 0) {
    // Each measured move's patch: when the last spectator had it, over every spectator thread.
    std::vector<double> watch_ms;
    std::uint64_t frames = 0, bytes = 0, answers = 0, ended = 0, missed = 0;
    std::uint64_t connect_failures = 0, handshake_failures = 0;
    std::vector<double> connected_ms, upgraded_ms, admitted_ms;
    for (const auto& l : watch_logs) {
      frames += l->frames;
      bytes += l->bytes;
      answers += l->watching;
      ended += l->ended;
      connect_failures += l->connect_failures;
      handshake_failures += l->handshake_failures;
      connected_ms.insert(connected_ms.end(), l->connected_ms.begin(), l->connected_ms.end());
      upgraded_ms.insert(upgraded_ms.end(), l->upgraded_ms.begin(), l->upgraded_ms.end());
      admitted_ms.insert(admitted_ms.end(), l->admitted_ms.begin(), l->admitted_ms.end());
      if (first_error.empty()) first_error = l->first_error;
    }
    for (const auto& g : groups)
      for (const auto& m : g->watched) {
        std::optional<clock_type::time_point> last;
        for (const auto& l : watch_logs)
          if (auto it = l->last.find({g->index, m.generation, m.seq}); it != l->last.end())
            last = last ? std::max(*last, it->second) : it->second;
        if (!last) {
          ++missed;
          continue;
        }
        watch_ms.push_back(std::chrono::duration<double, std::milli>(*last - m.sent).count());
      }
    result["spectators"] = {
        {"per_room", o.spectators},
        {"threads", o.spectator_threads},
        {"spectating_answers", answers},
        {"ended_by_server", ended},
        {"frames", frames},
        {"bytes", bytes},
        {"moves_seen_by_none", missed},
        {"admitted", admission(admitted_ms, connected_ms, upgraded_ms, o.rooms * o.spectators,
                               connect_failures, handshake_failures)},
        {"latency_to_last_ms",
         {{"p50", percentile(watch_ms, 0.50)},
          {"p99", percentile(watch_ms, 0.99)},
          {"max", watch_ms.empty() ? 0.0 : *std::max_element(watch_ms.begin(), watch_ms.end())}}}};
  }
  if (!first_error.empty()) result["first_error"] = first_error;
  const bool seeded =
      std::all_of(groups.begin(), groups.end(), [](const auto& g) { return g->bots || g->seeded; });
  result["clients_keep_views"] = seeded ? "one per room" : "all";
  if (!seeded)
    err << "carcassonne loadtest: the server refuses seeded rooms (serve --allow-scripted true): "
           "every client kept its view, which costs the tool several times more CPU\n";
  out << result.dump() << '\n';
  return (moves > 0 || o.idle) && mismatched == 0 && gaps == 0 ? 0 : 2;
}

}  // namespace carcassonne::app
