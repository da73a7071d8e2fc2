#include "notify/worker.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>

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
}

worker::~worker() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void worker::start(std::chrono::milliseconds interval) {
  thread_ = std::thread([this, interval] {
    run_in_background("notifications");
    std::unique_lock lock(mutex_);
    while (!stop_) {
      lock.unlock();
      round();
      lock.lock();
      cv_.wait_for(lock, interval, [&] { return stop_ || woken_; });
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
  if (options_.before_round) options_.before_round();
  std::string error;
  if (!batch_due(error)) spdlog::warn("notifications: batching: {}", error);
  error.clear();
  const int sent = send_due(error);
  if (!error.empty()) spdlog::warn("notifications: sending: {}", error);
  // Now and then, the rows nobody needs any more.
  if (const auto now = options_.now_ms(); now - last_prune_ms_ > 3'600'000) {
    last_prune_ms_ = now;
    error.clear();
    if (!db_.prune(now - options_.keep_ms, error))
      spdlog::warn("notifications: pruning: {}", error);
  }
  return sent;
}

bool worker::batch_due(std::string& error) {
  const auto now = options_.now_ms();
  const auto players = db_.due_players(now - options_.batch_ms, 256, error);
  if (!players) return false;
  for (const auto& player : *players)
    if (!db_.batch_player(
            player, now,
            [&](sql::connection& c, const std::vector<outbox_notice>& notices, const preferences& p,
                const std::vector<subscription>& subs) { return plan(c, notices, p, subs); },
            error))
      return false;
  return true;
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

int worker::send_due(std::string& error) {
  const auto now = options_.now_ms();
  const auto claimed =
      db_.claim(options_.instance, now, now + options_.claim_ms, options_.claim_batch, error);
  if (!claimed) return 0;
  // A few at a time: a slow endpoint holds up one thread, not the others.
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < claimed->size();) send_one((*claimed)[i]);
  };
  const auto threads =
      std::min<std::size_t>(static_cast<std::size_t>(options_.send_threads), claimed->size());
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  return static_cast<int>(claimed->size());
}

delivery worker::attempt(const delivery_row& d) {
  const std::string kind =
      d.notices.empty() ? std::string() : d.notices[0].value("kind", std::string());
  const auto token = [&](const std::string& target) {
    return options_.unsubscribe_token
               ? "/api/unsubscribe?token=" +
                     options_.unsubscribe_token(d.player, d.channel, kind, target)
               : std::string();
  };
  std::string error;
  if (d.channel == "push") {
    const auto sub = db_.subscription_by_id(d.target, error);
    if (!error.empty()) return {delivery::outcome::retry, 0, error};
    if (!sub) return {delivery::outcome::gone, 0, "the subscription was removed"};
    return senders_.push({sub->endpoint, sub->p256dh, sub->auth},
                         push_of(d.id, d.notices, token(d.target)));
  }
  const auto p = db_.prefs(d.player, error);
  if (!p) return {delivery::outcome::retry, 0, error};
  const long long now_s = options_.now_ms() / 1000;
  if (d.channel == "webhook") {
    if (p->webhook_url.empty()) return {delivery::outcome::gone, 0, "the webhook was removed"};
    return senders_.webhook(
        p->webhook_url, p->webhook_secret,
        webhook_of(d.id, d.player, d.notices, options_.page_url, token(""), now_s));
  }
  if (p->email.empty()) return {delivery::outcome::gone, 0, "the address was removed"};
  return senders_.email(mail_of(d.id, p->email, d.notices, options_.page_url, token("")));
}

void worker::send_one(const delivery_row& d) {
  delivery r;
  try {
    r = attempt(d);
  } catch (const std::exception& e) {  // a sender's bug: retried, never the thread's end
    r = {delivery::outcome::retry, 0, e.what()};
  }
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
