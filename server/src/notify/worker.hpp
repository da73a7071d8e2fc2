// The notification worker (docs/hosting.md "Notifications"): on a thread of its own, it turns the
// outbox that rooms write (store/notify_rows.hpp) into deliveries and sends them. Each round:
//   1. batch: for each player whose oldest pending notice waited the batch window, in one
//      transaction, drop the stale ones (a your_turn whose seat moved since) and those the player
//      does not want, and make one delivery per channel (and push subscription) of the rest;
//   2. dispatch: claim due deliveries, at most claim_batch under way (cluster-safe: a claim runs
//      out if its instance dies), and hand them to a pool of send_threads threads, which send each
//      through `senders` and record the outcome: done, or again after an exponential backoff, or a
//      dead letter after max_attempts; a push subscription its service says is gone is removed.
// Rounds never wait for sends: a slow endpoint holds one sender until its deadline, and at most
// `per_origin` senders go to one origin at a time (a delivery to a busy origin waits for one of
// them, or, past `origin_queue` waiting, a second in the table; never counted as an attempt),
// so one slow webhook cannot hold up everyone else's.
// A delivery's id is a digest of its notices' keys and channel: it goes out as the webhook's
// X-Carcassonne-Delivery, the mail's Message-ID and the push Topic, so that a delivery sent
// again (an instance died after sending, before recording it) is recognised as the same.
// Rooms and I/O threads never wait for it. Tests drive round() (which waits for its sends) with a
// fake clock and fake senders.
#pragma once
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "notify/channels.hpp"
#include "notify/notify_store.hpp"

namespace boost::asio {
class thread_pool;
}

namespace carcassonne::server::notify {

// How each channel sends: N1's functions in the server (real_senders.cpp), fakes in tests. A
// missing function: the channel is off (its deliveries are not made).
struct senders {
  std::function<delivery(const push_subscription&, const push_message&)> push;
  std::function<delivery(const std::string& url, const std::string& secret, const webhook_message&)>
      webhook;
  std::function<delivery(const mail&)> email;
};

struct worker_options {
  std::int64_t batch_ms = 60'000;    // --notify-batch-s
  int max_attempts = 8;              // --notify-max-attempts: then a dead letter
  std::int64_t backoff_ms = 30'000;  // the first retry's wait, doubled each time
  std::int64_t max_backoff_ms = 3'600'000;
  std::int64_t claim_ms = 120'000;          // a claim's life: longer than a send's deadline
  std::int64_t keep_ms = 7 * 86'400'000LL;  // done rows kept (replays find their keys)
  int claim_batch = 64;
  int send_threads = 16;  // deliveries under way at once
  int per_origin = 4;     // of them, at most this many to one origin (scheme, host, port)
  int origin_queue = 16;  // deliveries waiting in memory for a busy origin, then in the table
  std::int64_t defer_ms = 1000;    // how long one waits in the table
  std::string instance = "local";  // claimed_by
  std::string page_url;  // the page's origin for links in mails and webhooks ("" relative)
  std::function<std::int64_t()> now_ms;  // the wall clock (tests: a fake one)
  std::function<void()> before_round;    // SQLite: the store's guard of its -shm file
  std::function<std::string(const std::string& player, const std::string& channel,
                            const std::string& kind, const std::string& subscription)>
      unsubscribe_token;
};

class worker {
 public:
  worker(notify_store& db, senders s, worker_options o);
  ~worker();  // stops the thread (a round under way ends first)
  worker(const worker&) = delete;
  worker& operator=(const worker&) = delete;

  // Runs rounds on its own thread, every `interval` or sooner when woken.
  void start(std::chrono::milliseconds interval = std::chrono::milliseconds(1000));
  void wake();
  // One round (batch, then send what is due, and wait for those sends); the number of
  // deliveries claimed.
  int round();
  // Its first half: the due players' notices become deliveries (tests, and round()).
  bool batch_due(std::string& error);

  std::atomic<std::int64_t> delivered{0}, retried{0}, dead{0}, gone{0}, dropped{0}, deferred{0};

 private:
  // One delivery made ready: an outcome already known, or the origin it goes to and its send.
  struct prepared {
    delivery known;
    std::string origin;
    std::function<delivery()> send;  // empty: `known` is the outcome
  };
  bool step();  // before_round, batch, dispatch, prune; true when more is due at once
  int dispatch(std::string& error);
  void sent_one();
  // Sends `p` to its origin, whose slot it holds, and records the outcome.
  void transmit(const delivery_row& d, prepared p);
  notify_store::plan_result plan(sql::connection& db, const std::vector<outbox_notice>& notices,
                                 const preferences& p, const std::vector<subscription>& subs);
  void send_one(const delivery_row& d);
  prepared prepare(const delivery_row& d);
  void record(const delivery_row& d, const delivery& r);

  notify_store& db_;
  senders senders_;
  worker_options options_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false, woken_ = false;
  bool batch_full_ = false;  // the last batch took a whole page of players: more may be due
  std::int64_t last_prune_ms_ = 0;
  std::thread thread_;

  std::mutex sending_mutex_;
  std::condition_variable sending_cv_;
  int sending_ = 0;                         // handed to the senders, not yet recorded
  bool claim_full_ = false;                 // the last claim took every free sender
  std::map<std::string, int> origin_load_;  // sends under way per origin
  struct parked {
    delivery_row row;
    prepared ready;
  };
  std::map<std::string, std::deque<parked>> waiting_;  // per busy origin, for its next free slot
  std::unique_ptr<boost::asio::thread_pool> senders_pool_;
};

}  // namespace carcassonne::server::notify
