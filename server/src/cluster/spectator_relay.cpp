#include "cluster/spectator_relay.hpp"

#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "carcassonne/protocol/messages.hpp"
#include "cluster/redis_connection.hpp"
#include "cluster/relay_feed.hpp"
#include "lobby/lobby.hpp"

namespace carcassonne::server {

namespace {

using steady = std::chrono::steady_clock;
using json = nlohmann::json;

const std::string prefix = "carcassonne:";
const std::string audience_channel = prefix + "audience";
const std::string room_prefix = prefix + "spectate:";

std::string channel_of(const std::string& room) {
  return room_prefix + room;
}

// What waits to be published, from the rooms' links and the relay itself; bounded: past it a
// frame is dropped, and the watchers see the gap and ask for a snapshot.
struct publish_queue {
  static constexpr std::size_t limit = 8192;
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<std::pair<std::string, frame_ptr>> items;  // channel, message
  bool stopping = false;
  std::size_t dropped = 0;

  void push(std::string channel, frame_ptr message) {
    {
      std::lock_guard lock(mutex);
      if (stopping) return;
      if (items.size() >= limit) {
        ++dropped;
        return;
      }
      items.emplace_back(std::move(channel), std::move(message));
    }
    wake.notify_one();
  }
};

// The room's lease generation here, read as each frame goes (a new room's lease is claimed after
// it opens).
std::uint64_t generation_of(const room_entry& entry) {
  return entry.game_room->writes().generation();
}

frame_ptr tagged_frame_ptr(std::uint64_t generation, std::string_view frame) {
  return std::make_shared<const std::string>(tagged(generation, frame));
}

// The link a relayed room sends its spectators' frames to: they are published as they come,
// tagged with the room's lease generation here.
class relay_link : public client_link {
 public:
  relay_link(std::shared_ptr<publish_queue> q, std::string channel, std::weak_ptr<room_entry> e)
      : queue_(std::move(q)), channel_(std::move(channel)), entry_(std::move(e)) {}
  void deliver(frame_ptr frame) override {
    if (!relayed_type(head_of(*frame).type)) return;
    const auto entry = entry_.lock();
    if (entry) queue_->push(channel_, tagged_frame_ptr(generation_of(*entry), *frame));
  }
  void set_room(const std::string&, bool) override {}

 private:
  std::shared_ptr<publish_queue> queue_;
  std::string channel_;
  std::weak_ptr<room_entry> entry_;  // the room delivers while it lives
};

bool finished(const room_entry& entry) {
  return entry.game_room->listing().summary().state == room_state::finished;
}

// A snapshot as the answer to a request: the same frame with the request's id.
frame_ptr with_id(const frame_ptr& frame, const json& id) {
  if (id.is_null()) return frame;
  auto text = std::make_shared<std::string>();
  text->reserve(frame->size() + 32);
  *text += R"({"id":)";
  *text += id.dump();
  text->push_back(',');
  text->append(*frame, 1);
  return text;
}

}  // namespace

struct spectator_relay::impl {
  impl(options o, redis::address a, lobby& r)
      : opts(std::move(o)), address(std::move(a)), rooms(r) {}

  options opts;
  redis::address address;
  lobby& rooms;
  std::shared_ptr<publish_queue> queue = std::make_shared<publish_queue>();

  struct waiting_one {
    client_ptr c;
    json id;  // of a snapshot request, or null
  };
  // A room watched here for spectators of this instance.
  struct watched {
    relay_feed feed;
    std::vector<client_ptr> live;      // in step: they get every frame
    std::vector<waiting_one> waiting;  // they get the next snapshot
    bool subscribed = false;
    steady::time_point asked{};
    steady::time_point since{};  // of the wait for a snapshot (subscribed): opts.give_up
    // Someone is to wait for a snapshot: when nobody did, the wait starts now.
    void start_waiting() {
      if (feed.in_step() && waiting.empty()) since = steady::now();
    }
    std::size_t size() const { return live.size() + waiting.size(); }
    void forget(const client_ptr& c) {  // live or waiting
      std::erase(live, c);
      std::erase_if(waiting, [&](const waiting_one& one) { return one.c == c; });
    }
  };
  // A room held here that other instances watch.
  struct owned {
    std::weak_ptr<room_entry> entry;
    client_ptr link;
    std::map<std::string, std::pair<int, steady::time_point>> audience;  // instance: count, when
    int shown = -1;
    steady::time_point snapshot_at{};
    bool finished = false;         // as last seen
    std::uint64_t generation = 0;  // as last seen: the end mark's, once the room is gone
  };

  std::mutex mutex;  // the maps and the subscription's commands
  std::map<std::string, watched> watching;
  std::map<std::string, owned> owning;
  std::vector<std::vector<std::string>> commands;  // for the subscribed connection
  redisContext* sub = nullptr;                     // under `mutex`
  bool stopping = false;                           // under `mutex`
  int wake_fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  std::thread subscriber, publisher;

  void wake() {
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto n = ::write(wake_fd, &one, sizeof one);
  }

  // The audience message of `room`: its spectators here, and whether a snapshot is awaited.
  frame_ptr audience_message(const std::string& room, const watched& w, bool snapshot) const {
    return std::make_shared<const std::string>(json{
        {"room", room},
        {"instance", opts.instance_id},
        {"spectators", w.size()},
        {"snapshot", snapshot}}.dump());
  }

  // Under `mutex`: asks the owner for a snapshot (at most every 100 ms unless `now_anyway`).
  void ask(const std::string& room, watched& w, bool now_anyway) {
    const auto now = steady::now();
    if (!now_anyway && now - w.asked < std::chrono::milliseconds(100)) return;
    w.asked = now;
    queue->push(audience_channel, audience_message(room, w, true));
  }

  // Under `mutex`: the waiting spectators get `frame` (a snapshot) and are in step from now.
  static void release_waiting(watched& w, const frame_ptr& frame) {
    for (auto& one : w.waiting) {
      one.c->deliver(with_id(frame, one.id));
      w.live.push_back(std::move(one.c));
    }
    w.waiting.clear();
  }

  // Under `mutex`: the room is relayed no more (its owner let it go finished, or nobody answers):
  // each of its spectators here is told so as the spectators of a room that stops are
  // (room_moved, with `why`), and let go; spectating it again finds where it is now.
  void end_watch(std::map<std::string, watched>::iterator it, const std::string& why) {
    const auto room = it->first;
    std::string message = "room ";
    message += room;
    message += why;
    const auto moved = std::make_shared<const std::string>(
        protocol::error_message({"room_moved", std::move(message)}).dump());
    auto& w = it->second;
    std::vector<client_ptr> gone = std::move(w.live);
    for (auto& one : w.waiting) gone.push_back(std::move(one.c));
    watching.erase(it);
    for (const auto& c : gone) {
      c->deliver(moved);
      c->set_room(room, false);
    }
    commands.push_back({"UNSUBSCRIBE", channel_of(room)});
    wake();
  }

  // A frame of a watched room's channel (subscriber thread).
  void on_frame(const std::string& room, const char* data, std::size_t size) {
    const auto message = untag(std::string_view(data, size));
    if (!message) return;  // not a room's frame
    std::lock_guard lock(mutex);
    const auto it = watching.find(room);
    if (it == watching.end()) return;
    auto& w = it->second;
    const auto frame = std::make_shared<const std::string>(message->frame);
    switch (w.feed.take(head_of(*frame), message->generation)) {
      case relay_feed::action::drop:
        break;
      case relay_feed::action::to_live:
        for (const auto& c : w.live) c->deliver(frame);
        break;
      case relay_feed::action::snapshot_all:
        for (const auto& c : w.live) c->deliver(frame);
        release_waiting(w, frame);
        break;
      case relay_feed::action::snapshot_new:
        release_waiting(w, frame);
        break;
      case relay_feed::action::ask_snapshot:
        w.since = steady::now();
        for (auto& c : w.live) w.waiting.push_back({std::move(c), nullptr});
        w.live.clear();
        ask(room, w, true);
        break;
      case relay_feed::action::restart:  // the new link's snapshot comes next
        w.since = steady::now();
        for (auto& c : w.live) w.waiting.push_back({std::move(c), nullptr});
        w.live.clear();
        break;
      case relay_feed::action::end:
        end_watch(it, " is over and its instance let it go: spectate it again to see it");
        break;
    }
  }

  // An audience message (subscriber thread): the room's owner relays it, if that is this
  // instance (also for its own watchers: a room adopted here that it watched).
  void on_audience(const char* data, std::size_t size) {
    const auto j = json::parse(std::string_view(data, size), nullptr, false);
    if (!j.is_object()) return;
    const auto room = j.value("room", std::string());
    const auto instance = j.value("instance", std::string());
    if (room.empty() || instance.empty()) return;
    auto entry = rooms.find(room);
    if (!entry) return;
    const auto now = steady::now();
    std::lock_guard lock(mutex);
    auto& o = owning[room];
    o.audience[instance] = {j.value("spectators", 0), now};
    if (o.entry.lock() != entry || !o.link) {
      o.entry = entry;
      o.link = std::make_shared<relay_link>(queue, channel_of(room), entry);
      o.generation = generation_of(*entry);
      // Before its first snapshot (the stream before it may be a dead owner's).
      queue->push(channel_of(room), tagged_frame_ptr(o.generation, relay_feed::start_mark));
      o.shown = -1;
      o.snapshot_at = now;
      boost::asio::post(entry->strand,
                        [entry, link = o.link] { entry->game_room->attach_relay(link); });
    } else if (j.value("snapshot", false) &&
               now - o.snapshot_at >= std::chrono::milliseconds(100)) {
      o.snapshot_at = now;
      boost::asio::post(entry->strand,
                        [entry, link = o.link] { entry->game_room->snapshot(link, nullptr); });
    }
  }

  // Every period (publisher thread): this instance's audiences told; on the owner's side, the
  // relayed counts passed to the rooms and the links of rooms nobody watches any more removed.
  std::vector<frame_ptr> tick() {
    std::vector<frame_ptr> out;
    const auto now = steady::now();
    std::lock_guard lock(mutex);
    for (auto it = watching.begin(); it != watching.end();) {
      auto& w = it->second;
      const bool awaiting = !w.feed.in_step() || !w.waiting.empty();
      if (awaiting && w.subscribed && now - w.since > opts.give_up) {
        spdlog::info("spectator relay: no snapshot of room {} for {} ms: its spectators let go",
                     it->first, opts.give_up.count());
        end_watch(it++, ": nobody relays it now; spectate it again");
        continue;
      }
      if (awaiting) w.asked = now;
      out.push_back(audience_message(it->first, w, awaiting));
      ++it;
    }
    for (auto it = owning.begin(); it != owning.end();) {
      auto& o = it->second;
      std::erase_if(o.audience,
                    [&](const auto& a) { return now - a.second.second > opts.audience_ttl; });
      auto entry = o.entry.lock();
      if (entry) o.finished = finished(*entry), o.generation = generation_of(*entry);
      if (!entry || rooms.find(it->first) != entry) {
        // A finished room is adopted by nobody: its watchers are told (an unfinished one goes
        // on at its adopter, whose link starts with its mark).
        if (o.finished && !o.audience.empty())
          queue->push(channel_of(it->first), tagged_frame_ptr(o.generation, relay_feed::end_mark));
        it = owning.erase(it);
        continue;
      }
      if (o.audience.empty()) {
        // The room may leave memory now, as when its last spectator here leaves.
        boost::asio::post(entry->strand, [entry, link = o.link, r = &rooms] {
          entry->game_room->detach_relay(link);
          r->room_left(entry->game_room->id());
        });
        it = owning.erase(it);
        continue;
      }
      int total = 0;
      for (const auto& a : o.audience) total += a.second.first;
      if (total != o.shown) {
        o.shown = total;
        boost::asio::post(entry->strand,
                          [entry, total] { entry->game_room->set_relayed_spectators(total); });
      }
      ++it;
    }
    return out;
  }

  void publish_loop() {
    redis::connection conn(address);
    auto next_tick = steady::now() + opts.period;
    std::string error;
    bool failing = false;
    for (;;) {
      std::deque<std::pair<std::string, frame_ptr>> batch;
      std::size_t dropped = 0;
      bool last = false;
      {
        std::unique_lock lock(queue->mutex);
        queue->wake.wait_until(lock, next_tick,
                               [&] { return queue->stopping || !queue->items.empty(); });
        last = queue->stopping;
        batch.swap(queue->items);
        dropped = std::exchange(queue->dropped, 0);
      }
      if (last) {
        // The relay stops: what is queued (the end marks among it) goes while Redis answers.
        for (const auto& [channel, message] : batch)
          if (!conn.run({"PUBLISH", channel, *message}, error).r) break;
        return;
      }
      if (dropped) spdlog::warn("spectator relay: {} frames dropped (Redis too slow)", dropped);
      const auto publish = [&](const std::string& channel, const std::string& message) {
        const bool ok = conn.run({"PUBLISH", channel, message}, error).r != nullptr;
        if (ok == failing) {
          failing = !ok;
          if (failing) spdlog::warn("spectator relay: cannot publish: {}", error);
        }
      };
      for (const auto& [channel, message] : batch) publish(channel, *message);
      if (steady::now() >= next_tick) {
        next_tick = steady::now() + opts.period;
        for (const auto& m : tick()) publish(audience_channel, *m);
      }
    }
  }

  // One subscribed connection's life: false once it fails (a new one is made), true to stop.
  bool serve_subscription(redisContext* c) {
    for (;;) {
      std::vector<std::vector<std::string>> todo;
      {
        std::lock_guard lock(mutex);
        if (stopping) return true;
        todo.swap(commands);
      }
      for (const auto& args : todo) {
        std::vector<const char*> argv;
        std::vector<size_t> lengths;
        for (const auto& a : args) argv.push_back(a.data()), lengths.push_back(a.size());
        if (redisAppendCommandArgv(c, static_cast<int>(argv.size()), argv.data(), lengths.data()) !=
            REDIS_OK)
          return false;
      }
      for (int done = todo.empty(); !done;)
        if (redisBufferWrite(c, &done) != REDIS_OK) return false;
      for (;;) {
        void* raw = nullptr;
        if (redisGetReplyFromReader(c, &raw) != REDIS_OK) return false;
        if (!raw) break;
        redis::reply r;
        r.r = static_cast<redisReply*>(raw);
        on_reply(*r.r);
      }
      pollfd fds[2] = {{c->fd, POLLIN, 0}, {wake_fd, POLLIN, 0}};
      if (::poll(fds, 2, 500) < 0 && errno != EINTR) return false;
      if (fds[1].revents & POLLIN) {
        std::uint64_t n = 0;
        [[maybe_unused]] const auto got = ::read(wake_fd, &n, sizeof n);
      }
      if ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) && redisBufferRead(c) != REDIS_OK)
        return false;
    }
  }

  void on_reply(const redisReply& r) {
    if (r.type != REDIS_REPLY_ARRAY || r.elements != 3 ||
        r.element[0]->type != REDIS_REPLY_STRING || r.element[1]->type != REDIS_REPLY_STRING)
      return;
    const std::string_view kind(r.element[0]->str, r.element[0]->len);
    const std::string channel(r.element[1]->str, r.element[1]->len);
    const auto* payload = r.element[2];
    if (kind == "message" && payload->type == REDIS_REPLY_STRING) {
      if (channel == audience_channel) return on_audience(payload->str, payload->len);
      if (channel.starts_with(room_prefix))
        on_frame(channel.substr(room_prefix.size()), payload->str, payload->len);
    } else if (kind == "subscribe" && channel.starts_with(room_prefix)) {
      std::lock_guard lock(mutex);
      const auto room = channel.substr(room_prefix.size());
      if (auto it = watching.find(room); it != watching.end()) {
        it->second.subscribed = true;
        it->second.since = steady::now();
        ask(room, it->second, true);
      }
    }
  }

  void subscribe_loop() {
    bool said = false;
    for (;;) {
      std::string error;
      redisContext* c = redis::connect(address, timeval{1, 0}, error);
      {
        std::lock_guard lock(mutex);
        if (stopping) {
          if (c) redisFree(c);
          return;
        }
        if (c) {
          sub = c;
          // A new connection: every watched room again, each waiting for a snapshot (what was
          // published meanwhile is lost).
          commands.clear();
          commands.push_back({"SUBSCRIBE", audience_channel});
          for (auto& [room, w] : watching) {
            w.subscribed = false;
            w.feed.lost();
            for (auto& one : w.live) w.waiting.push_back({std::move(one), nullptr});
            w.live.clear();
            commands.push_back({"SUBSCRIBE", channel_of(room)});
          }
        }
      }
      if (c) {
        if (said) spdlog::info("spectator relay: subscribed again");
        said = false;
        const bool stop = serve_subscription(c);
        {
          std::lock_guard lock(mutex);
          sub = nullptr;
          // Until subscribed again, no wait counts towards opts.give_up.
          for (auto& [room, w] : watching) w.subscribed = false;
        }
        if (!stop && !said) spdlog::warn("spectator relay: subscription lost: {}", c->errstr);
        redisFree(c);
        if (stop) return;
        said = true;
      }
      std::unique_lock lock(queue->mutex);
      if (queue->wake.wait_for(lock, std::chrono::milliseconds(500),
                               [&] { return queue->stopping; }))
        return;
    }
  }
};

std::unique_ptr<spectator_relay> spectator_relay::open(const options& o, lobby& rooms,
                                                       std::string& error) {
  redis::address address;
  if (!redis::parse_url(o.redis_url, address))
    return error = "redis: bad URL '" + o.redis_url + "' (redis://host:port/db)", nullptr;
  auto p = std::make_unique<impl>(o, address, rooms);
  auto* raw = p.get();
  raw->subscriber = std::thread([raw] { raw->subscribe_loop(); });
  raw->publisher = std::thread([raw] { raw->publish_loop(); });
  return std::unique_ptr<spectator_relay>(new spectator_relay(std::move(p)));
}

spectator_relay::spectator_relay(std::unique_ptr<impl> p) : impl_(std::move(p)) {}

spectator_relay::~spectator_relay() {
  auto& p = *impl_;
  {
    std::lock_guard lock(p.mutex);
    // The finished rooms relayed from here leave with this instance: their watchers are told.
    for (const auto& [room, o] : p.owning)
      if (const auto entry = o.entry.lock(); entry && !o.audience.empty() && finished(*entry))
        p.queue->push(channel_of(room),
                      tagged_frame_ptr(generation_of(*entry), relay_feed::end_mark));
    p.stopping = true;
  }
  {
    std::lock_guard lock(p.queue->mutex);
    p.queue->stopping = true;
  }
  p.queue->wake.notify_all();
  p.wake();
  p.subscriber.join();
  p.publisher.join();
  ::close(p.wake_fd);
}

bool spectator_relay::watch(const std::string& room, const client_ptr& c, const json& id) {
  auto& p = *impl_;
  std::lock_guard lock(p.mutex);
  const auto found = p.watching.find(room);
  const bool created = found == p.watching.end();
  if ((created ? 0 : found->second.size()) >= p.opts.max_spectators) return false;
  auto& w = created ? p.watching[room] : found->second;
  c->set_room(room, true);
  c->deliver(std::make_shared<const std::string>(
      protocol::reply("spectating", id, {{"room", room}}).dump()));
  w.start_waiting();
  w.waiting.push_back({c, nullptr});
  if (created) {
    p.commands.push_back({"SUBSCRIBE", channel_of(room)});
    p.wake();
  } else if (w.subscribed) {
    p.ask(room, w, false);
  }
  return true;
}

bool spectator_relay::watches(const std::string& room) const {
  auto& p = *impl_;
  std::lock_guard lock(p.mutex);
  return p.watching.contains(room);
}

void spectator_relay::unwatch(const std::string& room, const client_ptr& c) {
  auto& p = *impl_;
  std::lock_guard lock(p.mutex);
  const auto it = p.watching.find(room);
  if (it == p.watching.end()) return;
  auto& w = it->second;
  w.forget(c);
  if (w.size() != 0) return;
  p.watching.erase(it);
  p.commands.push_back({"UNSUBSCRIBE", channel_of(room)});
  p.wake();
}

void spectator_relay::snapshot(const std::string& room, const client_ptr& c, const json& id) {
  auto& p = *impl_;
  std::lock_guard lock(p.mutex);
  const auto it = p.watching.find(room);
  if (it == p.watching.end()) return;
  auto& w = it->second;
  w.forget(c);
  w.start_waiting();
  w.waiting.push_back({c, id});
  p.ask(room, w, true);
}

}  // namespace carcassonne::server
