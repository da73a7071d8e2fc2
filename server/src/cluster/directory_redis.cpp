// The room directory on Redis (directory.hpp), with hiredis's synchronous API. Compare-and-set
// steps are Lua scripts, so that each is atomic in Redis (a lease is never taken from a live
// owner, a lost one is never renewed).
#include <hiredis/hiredis.h>
#include <spdlog/spdlog.h>

#include <sys/socket.h>

#include <algorithm>
#include <mutex>
#include <nlohmann/json.hpp>

#include "cluster/directory.hpp"
#include "cluster/redis_connection.hpp"

namespace carcassonne::server {

namespace {

const std::string prefix = "carcassonne:";

const char* const acquire_script = R"lua(
local cur = redis.call('GET', KEYS[1])
if cur then
  local owner, gen = string.match(cur, '^(%S+) (%d+)$')
  if owner == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return {1, gen, owner} end
  return {0, gen, owner}
end
local gen = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. gen, 'PX', ARGV[2])
redis.call('SADD', KEYS[3], ARGV[3])
return {1, tostring(gen), ARGV[1]}
)lua";

const char* const renew_script = R"lua(
local lost = {}
for _, room in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local k = ARGV[3] .. 'lease:' .. room
  local cur = redis.call('GET', k)
  if cur and string.match(cur, '^(%S+) ') == ARGV[1] then
    redis.call('PEXPIRE', k, ARGV[2])
  else
    table.insert(lost, room)
    redis.call('SREM', KEYS[1], room)
  end
end
return lost
)lua";

const char* const release_script = R"lua(
local cur = redis.call('GET', KEYS[1])
if cur and string.match(cur, '^(%S+) ') == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('SREM', KEYS[2], ARGV[2])
return 0
)lua";

// Every lease this instance still holds is given up at once (a restart: the rooms it served are
// not in its memory any more), and its set of owned rooms emptied.
const char* const release_owned_script = R"lua(
for _, room in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local k = ARGV[2] .. 'lease:' .. room
  local cur = redis.call('GET', k)
  if cur and string.match(cur, '^(%S+) ') == ARGV[1] then redis.call('DEL', k) end
end
redis.call('DEL', KEYS[1])
return 0
)lua";

// A room's generation counter raised to at least ARGV[1] (never lowered).
const char* const raise_generation_script = R"lua(
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
if cur < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return 0
)lua";

}  // namespace

struct room_directory::impl {
  impl(options o, redis::address a) : opts(std::move(o)), conn(std::move(a)) {}
  options opts;
  std::mutex mutex;
  redis::connection conn;  // under `mutex`
  bool reachable = false;
  // The lobby's subscription (subscribe_lobby): its own connection, cut by stop_subscription.
  std::mutex sub_mutex;
  redisContext* sub = nullptr;
  bool sub_stopped = false;

  // One command; a null reply with `error` when it failed or Redis refused it.
  redis::reply run(const std::vector<std::string>& args, std::string& error) {
    auto r = conn.run(args, error);
    reachable = conn.connected();
    return r;
  }

  std::string key(const std::string& kind, const std::string& name) const {
    return prefix + kind + ":" + name;
  }
  std::string ttl_ms() const { return std::to_string(opts.ttl.count()); }
};

std::unique_ptr<room_directory> room_directory::open(const options& o, std::string& error) {
  redis::address address;
  if (!redis::parse_url(o.redis_url, address))
    return error = "redis: bad URL '" + o.redis_url + "' (redis://host:port/db)", nullptr;
  auto p = std::make_unique<impl>(o, address);
  std::string why;
  std::lock_guard lock(p->mutex);
  if (!p->run({"PING"}, why).r)
    return error = "redis " + address.host + ":" + std::to_string(address.port) +
                   ": cannot connect: " + why + " (is Redis running?)",
           nullptr;
  return std::unique_ptr<room_directory>(new room_directory(std::move(p)));
}

room_directory::room_directory(std::unique_ptr<impl> p) : impl_(std::move(p)) {}
room_directory::~room_directory() = default;

const std::string& room_directory::instance_id() const {
  return impl_->opts.instance_id;
}

bool room_directory::reachable() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->reachable;
}

std::vector<std::string> room_directory::heartbeat(std::int64_t rooms, std::string& error) {
  auto& p = *impl_;
  std::lock_guard lock(p.mutex);
  const auto& id = p.opts.instance_id;
  const std::string me = nlohmann::json{{"url", p.opts.public_url}, {"rooms", rooms}}.dump();
  std::vector<std::string> lost;
  if (!p.run({"SET", p.key("instance", id), me, "PX", p.ttl_ms()}, error).r ||
      !p.run({"SADD", prefix + "instances", id}, error).r)
    return lost;
  auto r = p.run({"EVAL", renew_script, "1", p.key("owned", id), id, p.ttl_ms(), prefix}, error);
  if (r.r && r.r->type == REDIS_REPLY_ARRAY)
    for (size_t i = 0; i < r.r->elements; ++i)
      lost.emplace_back(r.r->element[i]->str, r.r->element[i]->len);
  return lost;
}

std::optional<std::uint64_t> room_directory::acquire(const std::string& room, room_lease& holder,
                                                     std::string& error) {
  auto& p = *impl_;
  std::lock_guard lock(p.mutex);
  const auto& id = p.opts.instance_id;
  auto r = p.run({"EVAL", acquire_script, "3", p.key("lease", room), p.key("generation", room),
                  p.key("owned", id), id, p.ttl_ms(), room},
                 error);
  if (!r.r || r.r->type != REDIS_REPLY_ARRAY || r.r->elements != 3) {
    if (error.empty()) error = "unexpected answer to the lease script";
    return std::nullopt;
  }
  const auto text = [&](size_t i) {
    const auto* e = r.r->element[i];
    return e->type == REDIS_REPLY_STRING ? std::string(e->str, e->len) : std::string();
  };
  holder.generation = std::strtoull(text(1).c_str(), nullptr, 10);
  holder.owner = text(2);
  if (r.r->element[0]->integer != 1) return std::nullopt;
  return holder.generation;
}

void room_directory::release(const std::string& room) {
  auto& p = *impl_;
  std::lock_guard lock(p.mutex);
  std::string error;
  p.run({"EVAL", release_script, "2", p.key("lease", room), p.key("owned", p.opts.instance_id),
         p.opts.instance_id, room},
        error);
}

std::optional<room_lease> room_directory::lease_of(const std::string& room, std::string& error) {
  auto& p = *impl_;
  std::lock_guard lock(p.mutex);
  auto r = p.run({"GET", p.key("lease", room)}, error);
  if (!r.r || r.r->type != REDIS_REPLY_STRING) return std::nullopt;
  const std::string v(r.r->str, r.r->len);
  const auto space = v.find(' ');
  if (space == std::string::npos) return std::nullopt;
  return room_lease{v.substr(0, space), std::strtoull(v.c_str() + space + 1, nullptr, 10)};
}

std::vector<instance_info> room_directory::instances(std::string& error) {
  auto& p = *impl_;
  std::lock_guard lock(p.mutex);
  std::vector<instance_info> out;
  auto ids = p.run({"SMEMBERS", prefix + "instances"}, error);
  if (!ids.r || ids.r->type != REDIS_REPLY_ARRAY) return out;
  for (size_t i = 0; i < ids.r->elements; ++i) {
    const std::string id(ids.r->element[i]->str, ids.r->element[i]->len);
    auto v = p.run({"GET", p.key("instance", id)}, error);
    if (!v.r) return {};
    if (v.r->type != REDIS_REPLY_STRING) continue;  // its heartbeat expired
    const auto j = nlohmann::json::parse(std::string(v.r->str, v.r->len), nullptr, false);
    if (!j.is_object()) continue;
    out.push_back({id, j.value("url", ""), j.value("rooms", std::int64_t{0})});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return out;
}

std::optional<instance_info> room_directory::least_loaded(std::string& error) {
  const auto all = instances(error);
  if (all.empty()) return std::nullopt;
  return *std::min_element(all.begin(), all.end(), [](const auto& a, const auto& b) {
    return a.rooms != b.rooms ? a.rooms < b.rooms : a.id < b.id;
  });
}

std::optional<std::string> room_directory::url_of(const std::string& instance, std::string& error) {
  for (const auto& i : instances(error))
    if (i.id == instance) return i.url;
  return std::nullopt;
}

bool room_directory::publish_room(const std::string& room, const std::string& summary,
                                  std::string& error) {
  auto& p = *impl_;
  std::lock_guard lock(p.mutex);
  return p.run({"HSET", p.key("lobby", p.opts.instance_id), room, summary}, error).r &&
         p.run({"PUBLISH", prefix + "lobby", room}, error).r;
}

bool room_directory::unpublish_room(const std::string& room, std::string& error) {
  auto& p = *impl_;
  std::lock_guard lock(p.mutex);
  return p.run({"HDEL", p.key("lobby", p.opts.instance_id), room}, error).r &&
         p.run({"PUBLISH", prefix + "lobby", room}, error).r;
}

std::vector<std::string> room_directory::lobby(std::string& error) {
  std::vector<std::string> out;
  for (const auto& i : instances(error)) {
    auto& p = *impl_;
    std::lock_guard lock(p.mutex);
    auto r = p.run({"HGETALL", p.key("lobby", i.id)}, error);
    if (!r.r) return {};
    for (size_t k = 1; k < r.r->elements; k += 2)
      out.emplace_back(r.r->element[k]->str, r.r->element[k]->len);
  }
  std::sort(out.begin(), out.end());  // Redis's hash order is its own
  return out;
}

std::vector<room_directory::lobby_entry> room_directory::lobby_entries(std::string& error) {
  std::vector<lobby_entry> out;
  for (const auto& i : instances(error)) {
    auto& p = *impl_;
    std::lock_guard lock(p.mutex);
    auto r = p.run({"HGETALL", p.key("lobby", i.id)}, error);
    if (!r.r) return {};
    for (size_t k = 1; k < r.r->elements; k += 2)
      out.push_back({i.id, i.url, std::string(r.r->element[k - 1]->str, r.r->element[k - 1]->len),
                     std::string(r.r->element[k]->str, r.r->element[k]->len)});
  }
  return out;
}

std::optional<std::string> room_directory::lobby_entry_of(const std::string& instance,
                                                          const std::string& room,
                                                          std::string& error) {
  auto& p = *impl_;
  std::lock_guard lock(p.mutex);
  auto r = p.run({"HGET", p.key("lobby", instance), room}, error);
  if (!r.r || r.r->type != REDIS_REPLY_STRING) return std::nullopt;
  return std::string(r.r->str, r.r->len);
}

bool room_directory::subscribe_lobby(const std::function<void(const std::string&)>& on_room,
                                     std::string& error) {
  auto& p = *impl_;
  redisContext* c = redis::connect(p.conn.where(), timeval{1, 0}, error);
  if (!c) return false;
  {
    std::lock_guard lock(p.sub_mutex);
    if (p.sub_stopped) return redisFree(c), false;
    p.sub = c;
  }
  std::string why;
  bool ok = redis::command(c, {"SUBSCRIBE", prefix + "lobby"}, why).r != nullptr;
  // Messages arrive when they arrive: no read timeout on this connection.
  const timeval forever{0, 0};
  if (ok) redisSetTimeout(c, forever);
  while (ok) {
    redis::reply r;
    void* raw = nullptr;
    if (redisGetReply(c, &raw) != REDIS_OK) break;
    r.r = static_cast<redisReply*>(raw);
    if (r.r && r.r->type == REDIS_REPLY_ARRAY && r.r->elements == 3 &&
        r.r->element[2]->type == REDIS_REPLY_STRING)
      on_room(std::string(r.r->element[2]->str, r.r->element[2]->len));
  }
  error = c->err ? c->errstr : "the subscription was refused";
  std::lock_guard lock(p.sub_mutex);
  p.sub = nullptr;
  redisFree(c);
  return false;
}

void room_directory::stop_subscription() {
  auto& p = *impl_;
  std::lock_guard lock(p.sub_mutex);
  p.sub_stopped = true;
  if (p.sub) ::shutdown(p.sub->fd, SHUT_RDWR);  // the blocked read returns at once
}

std::vector<std::string> room_directory::unleased(const std::vector<std::string>& rooms,
                                                  std::string& error) {
  auto& p = *impl_;
  std::lock_guard lock(p.mutex);
  std::vector<std::string> out;
  constexpr std::size_t chunk = 256;  // keys per MGET: bounded commands, whatever the rooms
  for (std::size_t first = 0; first < rooms.size(); first += chunk) {
    std::vector<std::string> args{"MGET"};
    const auto last = std::min(rooms.size(), first + chunk);
    for (auto i = first; i < last; ++i) args.push_back(p.key("lease", rooms[i]));
    auto r = p.run(args, error);
    if (!r.r || r.r->type != REDIS_REPLY_ARRAY || r.r->elements != last - first) {
      if (error.empty()) error = "unexpected answer to MGET";
      return {};
    }
    for (auto i = first; i < last; ++i)
      if (r.r->element[i - first]->type == REDIS_REPLY_NIL) out.push_back(rooms[i]);
  }
  return out;
}

bool room_directory::raise_generation(const std::string& room, std::uint64_t at_least,
                                      std::string& error) {
  auto& p = *impl_;
  std::lock_guard lock(p.mutex);
  return p.run({"EVAL", raise_generation_script, "1", p.key("generation", room),
                std::to_string(at_least)},
               error)
             .r != nullptr;
}

bool room_directory::release_owned(std::string& error) {
  auto& p = *impl_;
  std::lock_guard lock(p.mutex);
  const auto& id = p.opts.instance_id;
  return p.run({"EVAL", release_owned_script, "1", p.key("owned", id), id, prefix}, error).r !=
         nullptr;
}

}  // namespace carcassonne::server
