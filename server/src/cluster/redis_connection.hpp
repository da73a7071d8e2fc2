// What the cluster's Redis clients share (directory_redis.cpp, seek_queue_redis.cpp): the URL's
// parts and one synchronous hiredis connection that answers within a timeout and reconnects at
// the next command after an error. Not thread-safe: its owner holds a mutex around it.
#pragma once
#include <hiredis/hiredis.h>

#include <cerrno>
#include <cstdlib>
#include <string>
#include <vector>

namespace carcassonne::server::redis {

// A reply freed at the end of its scope; null on error.
struct reply {
  redisReply* r = nullptr;
  reply() = default;
  reply(const reply&) = delete;
  reply& operator=(const reply&) = delete;
  reply(reply&& o) noexcept : r(o.r) { o.r = nullptr; }
  ~reply() {
    if (r) freeReplyObject(r);
  }
};

struct address {
  std::string host = "127.0.0.1", password;
  int port = 6379, db = 0;
};

// redis://[[user:]password@]host[:port][/db]
inline bool parse_url(const std::string& url, address& a) {
  const std::string scheme = "redis://";
  if (!url.starts_with(scheme)) return false;
  std::string rest = url.substr(scheme.size());
  if (const auto slash = rest.find('/'); slash != std::string::npos) {
    const auto db = rest.substr(slash + 1);
    if (!db.empty()) a.db = std::atoi(db.c_str());
    rest.resize(slash);
  }
  if (const auto at = rest.rfind('@'); at != std::string::npos) {
    const auto auth = rest.substr(0, at);
    const auto colon = auth.find(':');
    a.password = colon == std::string::npos ? auth : auth.substr(colon + 1);
    rest = rest.substr(at + 1);
  }
  if (const auto colon = rest.rfind(':'); colon != std::string::npos) {
    a.port = std::atoi(rest.substr(colon + 1).c_str());
    rest.resize(colon);
  }
  if (!rest.empty()) a.host = rest;
  return a.port > 0 && a.port < 65536;
}

// One command on `c` (connected); a null reply with `error` when it failed or Redis refused it.
inline reply command(redisContext* c, const std::vector<std::string>& args, std::string& error) {
  std::vector<const char*> argv;
  std::vector<size_t> lengths;
  for (const auto& a : args) {
    argv.push_back(a.data());
    lengths.push_back(a.size());
  }
  reply out;
  out.r = static_cast<redisReply*>(
      redisCommandArgv(c, static_cast<int>(argv.size()), argv.data(), lengths.data()));
  if (!out.r) {
    error = c->errstr[0] ? c->errstr : "no answer";
  } else if (out.r->type == REDIS_REPLY_ERROR) {
    error = std::string(out.r->str, out.r->len);
    freeReplyObject(out.r);
    out.r = nullptr;
  }
  return out;
}

// A new connection, authenticated and on its database, commands timing out after `timeout`;
// null with `error` when Redis cannot be reached.
inline redisContext* connect(const address& a, timeval timeout, std::string& error) {
  redisContext* c = redisConnectWithTimeout(a.host.c_str(), a.port, timeout);
  if (!c || c->err) {
    error = c ? c->errstr : "out of memory";
    if (c) redisFree(c);
    return nullptr;
  }
  redisSetTimeout(c, timeout);
  if ((!a.password.empty() && !command(c, {"AUTH", a.password}, error).r) ||
      (a.db != 0 && !command(c, {"SELECT", std::to_string(a.db)}, error).r)) {
    redisFree(c);
    return nullptr;
  }
  return c;
}

// The connection commands go through: made at the first command, made again after an error.
class connection {
 public:
  explicit connection(address a) : address_(std::move(a)) {}
  ~connection() {
    if (c_) redisFree(c_);
  }
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;

  // A connection the server closed while it was idle (Redis restarted) is made again and the
  // command sent once more: the first one never reached a live server. Not after a timeout,
  // where it may have been carried out.
  reply run(const std::vector<std::string>& args, std::string& error) {
    for (int attempt = 0;; ++attempt) {
      if (c_ && c_->err) redisFree(c_), c_ = nullptr;
      const bool reused = c_ != nullptr;
      if (!c_) c_ = connect(address_, timeval{1, 0}, error);
      if (!c_) return {};
      auto r = command(c_, args, error);
      const bool closed = c_->err == REDIS_ERR_EOF ||
                          (c_->err == REDIS_ERR_IO && (errno == EPIPE || errno == ECONNRESET));
      if (r.r || !reused || !closed || attempt > 0) return r;
    }
  }
  const address& where() const { return address_; }
  // Whether the last command reached Redis (its answer may still have been an error).
  bool connected() const { return c_ && !c_->err; }

 private:
  address address_;
  redisContext* c_ = nullptr;
};

}  // namespace carcassonne::server::redis
