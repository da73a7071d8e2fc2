// The cluster's queue of seekers on Redis (seek_queue_redis.hpp), with hiredis's synchronous API.
#include "cluster/seek_queue_redis.hpp"

#include <spdlog/spdlog.h>

#include <sys/socket.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "cluster/redis_connection.hpp"

namespace carcassonne::server {

namespace {

const std::string seeks_key = "carcassonne:seeks";
const std::string leader_key = "carcassonne:matchmaker";
const std::string matches_channel = "carcassonne:matches";

// The lock taken when free, renewed when ours; 1 when ours after the call.
const char* const lead_script = R"lua(
local cur = redis.call('GET', KEYS[1])
if cur == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if cur then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
)lua";

// Every player's seek removed if every one is there, else none: 1 when removed.
const char* const take_script = R"lua(
for _, p in ipairs(ARGV) do
  if redis.call('HEXISTS', KEYS[1], p) == 0 then return 0 end
end
redis.call('HDEL', KEYS[1], unpack(ARGV))
return 1
)lua";

// The seeks whose instance is not one of ARGV (or that cannot be read) removed; their count.
const char* const prune_script = R"lua(
local live = {}
for _, i in ipairs(ARGV) do live[i] = true end
local all = redis.call('HGETALL', KEYS[1])
local gone = 0
for k = 1, #all, 2 do
  local ok, s = pcall(cjson.decode, all[k + 1])
  local instance = ok and type(s) == 'table' and s['instance']
  if type(instance) ~= 'string' or not live[instance] then
    redis.call('HDEL', KEYS[1], all[k])
    gone = gone + 1
  end
end
return gone
)lua";

std::string text_of(const redisReply* r) {
  return r && r->type == REDIS_REPLY_STRING ? std::string(r->str, r->len) : std::string();
}

class redis_seek_queue final : public competition::seek_queue {
 public:
  redis_seek_queue(redis::address a, std::string instance, std::chrono::milliseconds ttl)
      : address_(a), connection_(std::move(a)), instance_(std::move(instance)), ttl_(ttl) {}
  ~redis_seek_queue() override { stop(); }

  bool ping(std::string& error) { return run({"PING"}, error).r != nullptr; }

  added add(const competition::seek& s, std::string& error) override {
    auto stored = s;
    if (stored.instance.empty()) stored.instance = instance_;
    const auto r = run({"HSETNX", seeks_key, s.player, to_json(stored).dump()}, error);
    if (!r.r) return added::failed;
    return r.r->integer == 1 ? added::yes : added::already_seeking;
  }

  bool remove(const std::string& player, std::string& error) override {
    const auto r = run({"HDEL", seeks_key, player}, error);
    return r.r && r.r->integer == 1;
  }

  bool lead(std::string& error) override {
    const auto r =
        run({"EVAL", lead_script, "1", leader_key, instance_, std::to_string(ttl_.count())}, error);
    return r.r && r.r->integer == 1;
  }

  std::optional<std::vector<competition::seek>> all(std::string& error) override {
    const auto r = run({"HGETALL", seeks_key}, error);
    if (!r.r || r.r->type != REDIS_REPLY_ARRAY) return std::nullopt;
    std::vector<competition::seek> out;
    for (size_t k = 1; k < r.r->elements; k += 2) {
      const auto j = nlohmann::json::parse(text_of(r.r->element[k]), nullptr, false);
      if (auto s = competition::seek_from_json(j))
        out.push_back(std::move(*s));
      else
        spdlog::warn("seek queue: an unreadable seek for '{}' ignored",
                     text_of(r.r->element[k - 1]));
    }
    // Redis's hash order is its own.
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.player < b.player; });
    return out;
  }

  bool take(std::span<const std::string> players, std::string& error) override {
    if (players.empty()) return true;
    std::vector<std::string> args{"EVAL", take_script, "1", seeks_key};
    args.insert(args.end(), players.begin(), players.end());
    const auto r = run(args, error);
    return r.r && r.r->integer == 1;
  }

  void prune(std::span<const std::string> live, std::string& error) override {
    std::vector<std::string> args{"EVAL", prune_script, "1", seeks_key};
    args.insert(args.end(), live.begin(), live.end());
    run(args, error);
  }

  bool announce(const std::string& notice, std::string& error) override {
    return run({"PUBLISH", matches_channel, notice}, error).r != nullptr;
  }

  // Returns once subscribed (or after 2 s trying: the thread goes on trying).
  void on_notice(std::function<void(const std::string& notice)> listener) override {
    std::unique_lock lock(sub_mutex_);
    listener_ = std::move(listener);
    if (stopped_ || listening_.joinable()) return;
    listening_ = std::thread([this] { listen(); });
    changed_.wait_for(lock, std::chrono::seconds(2), [&] { return subscribed_ || stopped_; });
  }

  void stop() override {
    {
      std::lock_guard lock(sub_mutex_);
      stopped_ = true;
      if (sub_) ::shutdown(sub_->fd, SHUT_RDWR);  // its blocked read returns at once
    }
    changed_.notify_all();
    if (listening_.joinable() && listening_.get_id() != std::this_thread::get_id())
      listening_.join();
  }

 private:
  redis::reply run(const std::vector<std::string>& args, std::string& error) {
    std::lock_guard lock(mutex_);
    return connection_.run(args, error);
  }

  // The subscription's thread: subscribed, reading, and subscribing again after a failure.
  void listen() {
    std::string error;
    for (bool warned = false;;) {
      redisContext* c = redis::connect(address_, timeval{1, 0}, error);
      {
        std::lock_guard lock(sub_mutex_);
        if (stopped_) {
          if (c) redisFree(c);
          return;
        }
        sub_ = c;
      }
      if (c && redis::command(c, {"SUBSCRIBE", matches_channel}, error).r) {
        redisEnableKeepAlive(c);
        redisSetTimeout(c, timeval{0, 0});  // notices come when they come: no read timeout
        {
          std::lock_guard lock(sub_mutex_);
          subscribed_ = true;
        }
        changed_.notify_all();
        warned = false;
        read_notices(c);
        error = c->errstr;
      }
      std::unique_lock lock(sub_mutex_);
      subscribed_ = false;
      sub_ = nullptr;
      if (c) redisFree(c);
      if (stopped_) return;
      if (!warned) spdlog::warn("seek queue: match notices lost ({}), subscribing again", error);
      warned = true;
      changed_.wait_for(lock, std::chrono::milliseconds(200), [&] { return stopped_; });
      if (stopped_) return;
    }
  }

  void read_notices(redisContext* c) {
    for (;;) {
      void* raw = nullptr;
      if (redisGetReply(c, &raw) != REDIS_OK) return;
      redis::reply r;
      r.r = static_cast<redisReply*>(raw);
      if (!r.r || r.r->type != REDIS_REPLY_ARRAY || r.r->elements != 3 ||
          text_of(r.r->element[0]) != "message")
        continue;
      std::function<void(const std::string&)> listener;
      {
        std::lock_guard lock(sub_mutex_);
        listener = listener_;
      }
      if (listener) listener(text_of(r.r->element[2]));
    }
  }

  const redis::address address_;
  std::mutex mutex_;  // the commands' connection
  redis::connection connection_;
  const std::string instance_;
  const std::chrono::milliseconds ttl_;

  std::mutex sub_mutex_;  // what follows: the subscription
  std::condition_variable changed_;
  std::function<void(const std::string&)> listener_;
  redisContext* sub_ = nullptr;
  bool subscribed_ = false, stopped_ = false;
  std::thread listening_;
};

}  // namespace

std::unique_ptr<competition::seek_queue> make_redis_seek_queue(const std::string& redis_url,
                                                               const std::string& instance_id,
                                                               std::chrono::milliseconds lock_ttl,
                                                               std::string& error) {
  redis::address a;
  if (!redis::parse_url(redis_url, a))
    return error = "redis: bad URL '" + redis_url + "' (redis://host:port/db)", nullptr;
  auto q = std::make_unique<redis_seek_queue>(a, instance_id, lock_ttl);
  std::string why;
  if (!q->ping(why))
    return error = "redis " + a.host + ":" + std::to_string(a.port) + ": cannot connect: " + why +
                   " (is Redis running?)",
           nullptr;
  return q;
}

}  // namespace carcassonne::server
