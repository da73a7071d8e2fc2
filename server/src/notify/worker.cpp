#include "notify/worker.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "base/background_thread.hpp"
#include "notify/messages.hpp"

namespace carcassonne::server::notify {

namespace {

using json = nlohmann::json;

// Games whose clock runs in seconds: the players sit at the table.
bool real_time(const outbox_notice& n) {
  const auto clock = n.data.value("clock", std::string());
  return clock == "fischer" || clock == "per_decision";
}

// Scheme, host and port of a URL: what a cap on sends to one place counts.
std::string origin_of(const std::string& url) {
  const auto host = url.find("://");
  if (host == std::string::npos) return url;
  return url.substr(0, url.find_first_of("/?#", host + 3));
}

}  // namespace

worker::worker(notify_store& db, senders s, worker_options o)
    : db_(db), senders_(std::move(s)), options_(std::move(o)) {
  if (!options_.now_ms)
    options_.now_ms = [] {
      return std::chrono::duration_cast<std::chrono::milliseconds>(
                 std::chrono::system_clock::now().time_since_epoch())
          .count();
    };
  options_.send_threads = std::max(1, options_.send_threads);
  options_.per_origin = std::max(1, options_.per_origin);
  senders_pool_ = std::make_unique<boost::asio::thread_pool>(options_.send_threads);
}

worker::~worker() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  senders_pool_->join();  // sends under way end (each has its deadline) and are recorded
}

void worker::start(std::chrono::milliseconds interval) {
  thread_ = std::thread([this, interval] {
    run_in_background("notifications");
    std::unique_lock lock(mutex_);
    while (!stop_) {
      lock.unlock();
      const bool more = step();
      lock.lock();
      if (!more) cv_.wait_for(lock, interval, [&] { return stop_ || woken_; });
      woken_ = false;
    }
  });
}

void worker::wake() {
  {
    std::lock_guard lock(mutex_);
    woken_ = true;
  }
  cv_.notify_all();
}

int worker::round() {
  std::string error;
  if (options_.before_round) options_.before_round();
  if (!batch_due(error)) spdlog::warn("notifications: batching: {}", error);
  error.clear();
  const int claimed = dispatch(error);
  if (!error.empty()) spdlog::warn("notifications: sending: {}", error);
  std::unique_lock lock(sending_mutex_);
  sending_cv_.wait(lock, [&] { return sending_ == 0; });
  return claimed;
}

bool worker::step() {
  std::string error;
  if (options_.before_round) options_.before_round();
  if (!batch_due(error)) spdlog::warn("notifications: batching: {}", error);
  error.clear();
  dispatch(error);
  if (!error.empty()) spdlog::warn("notifications: sending: {}", error);
  // Now and then, the rows nobody needs any more.
  if (const auto now = options_.now_ms(); now - last_prune_ms_ > 3'600'000) {
    last_prune_ms_ = now;
    error.clear();
    if (!db_.prune(now - options_.keep_ms, error))
      spdlog::warn("notifications: pruning: {}", error);
  }
  return batch_full_ && error.empty();
}

bool worker::batch_due(std::string& error) {
  const auto now = options_.now_ms();
  constexpr int page = 256;
  const auto players = db_.due_players(now - options_.batch_ms, page, error);
  batch_full_ = players && players->size() == page;
  if (!players) return false;
  return players->empty() || db_.batch_players(
                                 *players, now,
                                 [&](sql::connection& c, const std::vector<outbox_notice>& notices,
                                     const preferences& p, const std::vector<subscription>& subs) {
                                   return plan(c, notices, p, subs);
                                 },
                                 error);
}

notify_store::plan_result worker::plan(sql::connection& db,
                                       const std::vector<outbox_notice>& notices,
                                       const preferences& p,
                                       const std::vector<subscription>& subs) {
  notify_store::plan_result out;
  // (channel, target) -> the notices it carries, in order.
  std::map<std::pair<std::string, std::string>, std::vector<const outbox_notice*>> groups;
  for (const auto& n : notices) {
    bool keep = !(n.kind == "your_turn" && real_time(n) && !p.realtime_turns);
    if (keep && n.kind == "your_turn") {
      std::string why;
      bool current = false;
      // Unreadable: sent rather than lost (the player may be told a turn already taken).
      if (notify_store::turn_is_current(db, n, why, current)) keep = current;
    }
    bool any = false;
    if (keep) {
      if (p.wants(n.kind, "push") && senders_.push)
        for (const auto& s : subs)
          if (!s.kinds_off.count(n.kind)) groups[{"push", s.id}].push_back(&n), any = true;
      if (p.wants(n.kind, "webhook") && senders_.webhook && !p.webhook_url.empty())
        groups[{"webhook", ""}].push_back(&n), any = true;
      if (p.wants(n.kind, "email") && senders_.email && !p.email.empty())
        groups[{"email", ""}].push_back(&n), any = true;
    }
    if (!any) {
      out.dropped.insert(n.key);
      dropped.fetch_add(1, std::memory_order_relaxed);
    }
  }
  for (const auto& [where, list] : groups) {
    delivery_row d;
    d.player = list.front()->player;
    d.channel = where.first;
    d.target = where.second;
    d.notices = json::array();
    std::vector<std::string> keys;
    for (const auto* n : list) {
      keys.push_back(n->key);
      d.notices.push_back(
          {{"key", n->key}, {"kind", n->kind}, {"room", n->room}, {"data", n->data}});
    }
    d.id = delivery_id(d.channel, d.target, keys);
    out.deliveries.push_back(std::move(d));
  }
  return out;
}

int worker::dispatch(std::string& error) {
  int free = 0;
  {
    std::lock_guard lock(sending_mutex_);
    free = options_.claim_batch - sending_;  // claimed and not yet recorded: at most a batch
    claim_full_ = free <= 0;
  }
  if (free <= 0) return 0;  // a sender that finishes wakes the worker
  const auto now = options_.now_ms();
  const auto claimed = db_.claim(options_.instance, now, now + options_.claim_ms, free, error);
  if (!claimed || claimed->empty()) return 0;
  {
    std::lock_guard lock(sending_mutex_);
    sending_ += static_cast<int>(claimed->size());
    claim_full_ = static_cast<int>(claimed->size()) == free;
  }
  for (const auto& d : *claimed) boost::asio::post(*senders_pool_, [this, d] { send_one(d); });
  return static_cast<int>(claimed->size());
}

void worker::sent_one() {
  bool more = false;
  {
    std::lock_guard lock(sending_mutex_);
    --sending_;
    more = std::exchange(claim_full_, false);
  }
  sending_cv_.notify_all();
  if (more) wake();  // the claim was cut short by the senders: more may be due
}

worker::prepared worker::prepare(const delivery_row& d) {
  const std::string kind =
      d.notices.empty() ? std::string() : d.notices[0].value("kind", std::string());
  const auto token = [this, d, kind](const std::string& target) {
    return options_.unsubscribe_token
               ? "/api/unsubscribe?token=" +
                     options_.unsubscribe_token(d.player, d.channel, kind, target)
               : std::string();
  };
  const auto known = [](delivery::outcome o, std::string why) {
    return prepared{{o, 0, std::move(why)}, {}, {}};
  };
  std::string error;
  if (d.channel == "push") {
    const auto sub = db_.subscription_by_id(d.target, error);
    if (!error.empty()) return known(delivery::outcome::retry, error);
    if (!sub) return known(delivery::outcome::gone, "the subscription was removed");
    return {{}, origin_of(sub->endpoint), [this, d, s = *sub, token] {
              return senders_.push({s.endpoint, s.p256dh, s.auth},
                                   push_of(d.id, d.notices, token(d.target)));
            }};
  }
  const auto p = db_.prefs(d.player, error);
  if (!p) return known(delivery::outcome::retry, error);
  if (d.channel == "webhook") {
    if (p->webhook_url.empty()) return known(delivery::outcome::gone, "the webhook was removed");
    return {{},
            origin_of(p->webhook_url),
            [this, d, url = p->webhook_url, secret = p->webhook_secret, token] {
              return senders_.webhook(url, secret,
                                      webhook_of(d.id, d.player, d.notices, options_.page_url,
                                                 token(""), options_.now_ms() / 1000));
            }};
  }
  if (p->email.empty()) return known(delivery::outcome::gone, "the address was removed");
  // Every mail goes to the host's one relay.
  return {{}, "smtp", [this, d, to = p->email, token] {
            return senders_.email(mail_of(d.id, to, d.notices, options_.page_url, token("")));
          }};
}

void worker::send_one(const delivery_row& d) {
  prepared p;
  try {
    p = prepare(d);
  } catch (const std::exception& e) {  // a bug: retried, never the thread's end
    p.known = {delivery::outcome::retry, 0, e.what()};
  }
  if (!p.send) {
    record(d, p.known);
    return sent_one();
  }
  {
    std::lock_guard lock(sending_mutex_);
    auto& load = origin_load_[p.origin];
    if (load < options_.per_origin) {
      ++load;
    } else {
      // Enough of ours are on their way there: this one waits for one of them to end, or, when
      // too many wait already, a second in the table (not an attempt).
      const auto it = waiting_.find(p.origin);
      if ((it == waiting_.end() ? 0 : static_cast<int>(it->second.size())) <
          options_.origin_queue) {
        waiting_[p.origin].push_back({d, std::move(p)});
        return;
      }
      p.send = nullptr;
    }
  }
  if (p.send) return transmit(d, std::move(p));
  deferred.fetch_add(1, std::memory_order_relaxed);
  std::string error, why = "waiting for ";
  why += p.origin;
  if (!db_.finish(d, options_.instance, "pending", d.attempts,
                  options_.now_ms() + options_.defer_ms, why, error))
    spdlog::warn("notifications: recording {}: {}", d.id, error);
  sent_one();
}

void worker::transmit(const delivery_row& d, prepared p) {
  delivery r;
  try {
    r = p.send();
  } catch (const std::exception& e) {  // a sender's bug: retried, never the thread's end
    r = {delivery::outcome::retry, 0, e.what()};
  }
  record(d, r);
  // The origin's next waiting delivery takes this one's place.
  std::optional<parked> next;
  {
    std::lock_guard lock(sending_mutex_);
    if (const auto it = waiting_.find(p.origin); it != waiting_.end()) {
      next = std::move(it->second.front());
      it->second.pop_front();
      if (it->second.empty()) waiting_.erase(it);
    } else if (--origin_load_[p.origin] <= 0) {
      origin_load_.erase(p.origin);
    }
  }
  sent_one();
  if (next)
    boost::asio::post(*senders_pool_, [this, n = std::move(*next)]() mutable {
      transmit(n.row, std::move(n.ready));
    });
}

void worker::record(const delivery_row& d, const delivery& r) {
  const int attempts = d.attempts + 1;
  std::string state = "done";
  std::int64_t next = 0;
  if (r.result == delivery::outcome::delivered) {
    delivered.fetch_add(1, std::memory_order_relaxed);
  } else if (r.result == delivery::outcome::gone) {
    state = "gone";
    gone.fetch_add(1, std::memory_order_relaxed);
    spdlog::info("notifications: {} {} of {}: gone ({})", d.channel, d.id, d.player, r.error);
  } else if (attempts >= options_.max_attempts) {
    state = "dead";
    dead.fetch_add(1, std::memory_order_relaxed);
    spdlog::warn("notifications: {} {} of {}: a dead letter after {} attempts ({})", d.channel,
                 d.id, d.player, attempts, r.error);
  } else {
    state = "pending";
    retried.fetch_add(1, std::memory_order_relaxed);
    std::int64_t wait = options_.backoff_ms;
    for (int i = 1; i < attempts && wait < options_.max_backoff_ms; ++i) wait *= 2;
    next = options_.now_ms() + std::min(wait, options_.max_backoff_ms);
  }
  std::string error;
  if (!db_.finish(d, options_.instance, state, attempts, next, r.error, error))
    spdlog::warn("notifications: recording {}: {}", d.id, error);
}

}  // namespace carcassonne::server::notify
