// loadtest: its own WebSocket clients against a running server. Each room is a group of C
// clients on one strand: one creates the room, all join, it starts, and each seat plays random
// legal moves from its own view (kept by applying every patch). When a game ends the group
// starts another. Latency is move sent -> the room's last client has the resulting patch.
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <deque>
#include <iostream>
#include <map>
#include <memory>
#include <thread>

#include "carcassonne/app/commands.hpp"
#include "carcassonne/engine/rng.hpp"

namespace carcassonne::app {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using json = nlohmann::json;
using clock_type = std::chrono::steady_clock;

struct load_options {
  std::string host = "127.0.0.1", port = "8080";
  int rooms = 10, clients = 4, threads = 1;
  double duration = 10;
  // Rooms of bots only besides (--bot-rooms): each watched by one client that starts the game
  // and a new one when it ends; they load the server, their moves are not measured.
  int bot_rooms = 0, bot_seats = 4, bot_pause_ms = 1000;
  std::string bot_level = "strong";
};

struct group;

class load_client : public std::enable_shared_from_this<load_client> {
 public:
  load_client(group& g, int index, net::strand<net::io_context::executor_type> strand,
              std::uint64_t seed)
      : ws_(strand), group_(g), index_(index), chooser_(seed) {}
  void start(const tcp::resolver::results_type& endpoints);
  void send(const json& j);
  void close() {
    if (!open_) return;
    open_ = false;
    ws_.async_close(websocket::close_code::normal,
                    [self = shared_from_this()](beast::error_code) {});
  }
  int index() const { return index_; }
  // Joins the group's newest room once this client is out of its previous one.
  void join_current() {
    if (playing_generation_ == group_generation() || !room_.empty() || group_room().empty()) return;
    playing_generation_ = group_generation();
    send({{"type", "join"}, {"room", group_room()}, {"name", "bot" + std::to_string(index_)}});
  }

 private:
  void read();
  void on_message(const json& m);
  void act();
  void write_next();

  websocket::stream<beast::tcp_stream> ws_;
  group& group_;
  int index_;
  rng chooser_;
  beast::flat_buffer buffer_;
  std::deque<std::string> out_;
  bool writing_ = false, open_ = false;
  int group_generation() const;
  const std::string& group_room() const;
  int seat_ = -1;
  int playing_generation_ = 0;
  std::string room_;
  json view_;
  std::uint64_t seq_ = 0, acted_at_ = ~0ULL;
};

struct group {
  int size = 0;
  const load_options* bots = nullptr;  // a bots-only room's watcher
  std::vector<std::shared_ptr<load_client>> clients;
  std::string room;
  int generation = 0;  // how many rooms this group has created
  int joined = 0;
  struct pending_move {
    clock_type::time_point sent;
    int receipts = 0;
  };
  std::map<std::uint64_t, pending_move> pending;  // by the seq of the patch the move produces
  std::vector<double> latencies_ms;
  std::uint64_t moves = 0, games = 0, errors = 0;
  bool stopping = false;
  clock_type::time_point measure_from{}, measure_until{};
  std::string first_error;

  void new_room() {
    room.clear();
    joined = 0;
    pending.clear();
    if (stopping) return;
    if (bots)
      clients[0]->send({{"type", "create_room"},
                        {"seats", bots->bot_seats},
                        {"public", false},
                        {"name", "load bots"},
                        {"bots", json(std::vector<std::string>(bots->bot_seats, bots->bot_level))},
                        {"bot_pause_ms", bots->bot_pause_ms}});
    else
      clients[0]->send(
          {{"type", "create_room"}, {"seats", size}, {"public", false}, {"name", "load"}});
  }
};

int load_client::group_generation() const {
  return group_.generation;
}
const std::string& load_client::group_room() const {
  return group_.room;
}

void load_client::start(const tcp::resolver::results_type& endpoints) {
  beast::get_lowest_layer(ws_).async_connect(
      endpoints, [self = shared_from_this()](beast::error_code ec, auto) {
        if (ec) return void(++self->group_.errors);
        beast::get_lowest_layer(self->ws_).expires_never();
        beast::get_lowest_layer(self->ws_).socket().set_option(tcp::no_delay(true), ec);
        self->ws_.async_handshake("127.0.0.1", "/ws", [self](beast::error_code ec2) {
          if (ec2) return void(++self->group_.errors);
          self->open_ = true;
          self->send({{"type", "hello"}, {"protocol", 1}, {"client", "loadtest"}});
          if (self->index_ == 0) self->group_.new_room();
          self->read();
        });
      });
}

void load_client::send(const json& j) {
  if (!open_) return;
  out_.push_back(j.dump());
  if (!writing_) write_next();
}

void load_client::write_next() {
  writing_ = true;
  ws_.async_write(net::buffer(out_.front()),
                  [self = shared_from_this()](beast::error_code ec, std::size_t) {
                    self->writing_ = false;
                    if (ec) return;
                    self->out_.pop_front();
                    if (!self->out_.empty()) self->write_next();
                  });
}

void load_client::read() {
  ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
    if (ec) {
      self->open_ = false;
      return;
    }
    const json m = json::parse(beast::buffers_to_string(self->buffer_.data()), nullptr, false);
    self->buffer_.consume(self->buffer_.size());
    if (!m.is_discarded()) self->on_message(m);
    self->read();
  });
}

void load_client::on_message(const json& m) {
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
  } else if (type == "joined") {
    seat_ = m["seat"];
    room_ = m["room"];
    if (++g.joined == g.size) g.clients[0]->send({{"type", "start"}});
  } else if (type == "snapshot") {
    if (m["room"] != room_) return;
    view_ = m["view"];
    seq_ = m["seq"];
    act();
  } else if (type == "patch") {
    if (m["room"] != room_ || !view_.is_object()) return;  // frames of a room just left
    view_.patch_inplace(m["patch"]);
    seq_ = m["seq"];
    if (auto it = g.pending.find(seq_); it != g.pending.end() && ++it->second.receipts == g.size) {
      const auto now = clock_type::now();
      if (it->second.sent >= g.measure_from && now <= g.measure_until) {
        g.latencies_ms.push_back(
            std::chrono::duration<double, std::milli>(now - it->second.sent).count());
        ++g.moves;
      }
      g.pending.erase(it);
    }
    const auto& game = view_["game"];
    if (game.is_object() && game["status"] == "finished" && g.bots) {
      ++g.games;
      view_ = nullptr;
      room_.clear();
      send({{"type", "leave"}});
      return g.new_room();
    }
    if (game.is_object() && game["status"] == "finished") {
      if (index_ == 0) ++g.games;
      seat_ = -1;
      view_ = nullptr;
      room_.clear();
      send({{"type", "leave"}});
      if (index_ == 0)
        g.new_room();
      else
        join_current();  // the next room may already exist
      return;
    }
    act();
  } else if (type == "error") {
    ++g.errors;
    if (g.first_error.empty()) g.first_error = m.dump();
  }
}

void load_client::act() {
  if (group_.stopping || seat_ < 0 || !view_.is_object()) return;
  const auto& game = view_["game"];
  if (!game.is_object() || !game.contains("legal_moves") || acted_at_ == seq_) return;
  const auto& legal = game["legal_moves"];
  if (legal.empty()) return;
  acted_at_ = seq_;
  group_.pending[seq_ + 1] = {clock_type::now(), 0};
  send({{"type", "move"}, {"move", legal[chooser_.below(legal.size())]}, {"seq", seq_}});
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
      else if (args[i] == "--clients-per-room" && has)
        o.clients = std::stoi(args[++i]);
      else if (args[i] == "--duration" && has)
        o.duration = std::stod(args[++i]);
      else if (args[i] == "--threads" && has)
        o.threads = std::stoi(args[++i]);
      else if (args[i] == "--bot-rooms" && has)
        o.bot_rooms = std::stoi(args[++i]);
      else if (args[i] == "--bot-seats" && has)
        o.bot_seats = std::stoi(args[++i]);
      else if (args[i] == "--bot-level" && has)
        o.bot_level = args[++i];
      else if (args[i] == "--bot-pause-ms" && has)
        o.bot_pause_ms = std::stoi(args[++i]);
      else
        throw std::invalid_argument(args[i]);
    } catch (...) {
      err << "usage: carcassonne loadtest [--host H] [--port P] --rooms R --clients-per-room C "
             "--duration S [--threads T] [--bot-rooms N [--bot-seats S] [--bot-level L] "
             "[--bot-pause-ms MS]]\n";
      return false;
    }
  }
  if (o.rooms < 1 || o.clients < 2 || o.clients > 6 || o.duration <= 0 || o.threads < 1 ||
      o.bot_rooms < 0 || o.bot_seats < 2 || o.bot_seats > 6 || o.bot_pause_ms < 0) {
    err << "carcassonne loadtest: rooms >= 1, clients-per-room 2..6, duration > 0, threads >= 1\n";
    return false;
  }
  return true;
}

double percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  const auto k = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

}  // namespace

int run_loadtest(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  load_options o;
  if (!parse_options(args, o, err)) return 1;
  net::io_context io;
  tcp::resolver resolver(io);
  beast::error_code ec;
  const auto endpoints = resolver.resolve(o.host, o.port, ec);
  if (ec) {
    err << "carcassonne loadtest: cannot resolve " << o.host << ":" << o.port << "\n";
    return 1;
  }
  std::vector<std::unique_ptr<group>> groups;
  std::vector<net::strand<net::io_context::executor_type>> strands;
  const auto start = clock_type::now();
  // The first seconds open connections and rooms; measure the steady part after them.
  const auto warmup = std::chrono::duration<double>(std::min(2.0, o.duration / 5));
  for (int r = 0; r < o.rooms; ++r) {
    auto g = std::make_unique<group>();
    g->size = o.clients;
    g->measure_from = start + std::chrono::duration_cast<clock_type::duration>(warmup);
    g->measure_until = start + std::chrono::duration_cast<clock_type::duration>(
                                   std::chrono::duration<double>(o.duration));
    auto strand = net::make_strand(io);
    for (int c = 0; c < o.clients; ++c)
      g->clients.push_back(
          std::make_shared<load_client>(*g, c, strand, static_cast<std::uint64_t>(r) * 16 + c));
    strands.push_back(strand);
    groups.push_back(std::move(g));
  }
  for (int r = 0; r < o.bot_rooms; ++r) {
    auto g = std::make_unique<group>();
    g->size = 1;
    g->bots = &o;
    auto strand = net::make_strand(io);
    g->clients.push_back(std::make_shared<load_client>(*g, 0, strand, 0));
    strands.push_back(strand);
    groups.push_back(std::move(g));
  }
  for (std::size_t r = 0; r < groups.size(); ++r)
    net::post(strands[r], [g = groups[r].get(), &endpoints] {
      for (auto& c : g->clients) c->start(endpoints);
    });
  net::steady_timer stop_timer(io, std::chrono::duration_cast<clock_type::duration>(
                                       std::chrono::duration<double>(o.duration)));
  stop_timer.async_wait([&](beast::error_code) {
    for (std::size_t r = 0; r < groups.size(); ++r)
      net::post(strands[r], [g = groups[r].get()] {
        g->stopping = true;
        for (auto& c : g->clients) c->close();
      });
  });
  std::vector<std::thread> threads;
  for (int t = 1; t < o.threads; ++t) threads.emplace_back([&] { io.run(); });
  io.run();
  for (auto& t : threads) t.join();

  std::vector<double> latencies;
  std::uint64_t moves = 0, games = 0, errors = 0, bot_games = 0;
  std::string first_error;
  for (auto& g : groups) {
    errors += g->errors;
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
      {"clients", o.rooms * o.clients},
      {"duration_s", o.duration},
      {"measured_s", measured},
      {"moves", moves},
      {"moves_per_second", moves / measured},
      {"games_finished", games},
      {"bot_rooms", o.bot_rooms},
      {"bot_games_finished", bot_games},
      {"errors", errors},
      {"latency_ms",
       {{"p50", percentile(latencies, 0.50)},
        {"p95", percentile(latencies, 0.95)},
        {"p99", percentile(latencies, 0.99)},
        {"max", latencies.empty() ? 0.0 : *std::max_element(latencies.begin(), latencies.end())}}}};
  if (!first_error.empty()) result["first_error"] = json::parse(first_error);
  out << result.dump() << '\n';
  return moves > 0 ? 0 : 2;
}

}  // namespace carcassonne::app
