// Limits per client address (docs/hosting.md "Limits per address"): concurrent WebSocket
// connections, new connections per second, a message budget shared by all of an address's
// connections, and the rooms it creates. Thread-safe; every call is O(log addresses).
#pragma once
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/config.hpp"

namespace carcassonne::server {

class room;

// A token bucket: `rate` tokens a second up to `burst`. Not thread-safe by itself.
class token_bucket {
 public:
  using clock = std::chrono::steady_clock;
  token_bucket(double rate, double burst, clock::time_point now)
      : rate_(rate), burst_(burst), tokens_(burst), last_(now) {}
  bool take(clock::time_point now);
  bool full(clock::time_point now) const;

 private:
  double rate_, burst_, tokens_;
  clock::time_point last_;
};

class address_limits {
 public:
  using clock = token_bucket::clock;
  struct usage;  // one address's counters

  // Why an address was refused (the reason label of carcassonne_refused_total).
  enum class refusal { none, connections, connection_rate };

  // A connection's hold on its address: counts as one connection until destroyed. An exempt
  // address (config.exempt_addresses) gets a lease that limits nothing.
  class lease {
   public:
    lease(address_limits* owner, std::shared_ptr<usage> u, std::string address)
        : owner_(owner), usage_(std::move(u)), address_(std::move(address)) {}
    ~lease();
    lease(const lease&) = delete;
    lease& operator=(const lease&) = delete;
    const std::string& address() const { return address_; }
    bool exempt() const { return !usage_; }
    // One message from this address: false when the address's shared budget is spent.
    bool take_message(clock::time_point now = clock::now());
    // One room created: false when the address creates rooms faster than allowed.
    bool take_room(clock::time_point now = clock::now());
    // Public rooms this address has open (created, still waiting for their game): one more is
    // allowed while fewer than config.max_public_rooms_per_address are.
    bool may_open_public_room();
    void opened_public_room(std::weak_ptr<const room> r);

   private:
    address_limits* owner_;
    std::shared_ptr<usage> usage_;  // nullptr: exempt
    std::string address_;
  };

  explicit address_limits(const config& c) : config_(c) {}

  // A new WebSocket connection from `address`: a lease, or nothing with the reason.
  std::unique_ptr<lease> admit(const std::string& address, refusal& why,
                               clock::time_point now = clock::now());
  // Whether a connection from `address` is turned away as it is accepted, before any HTTP is
  // read: the address kept connecting while refused, faster than its connection rate (it
  // ignores Retry-After: a flood), and has not paused for shun_time since. Each connection it
  // makes meanwhile starts the pause again. Never an exempt address.
  bool shunned(const std::string& address, clock::time_point now = clock::now());
  static constexpr auto shun_time = std::chrono::seconds(1);
  bool exempt(const std::string& address) const;
  std::size_t tracked() const;  // addresses remembered (for tests)

 private:
  void release(const std::shared_ptr<usage>& u);
  void prune_some(clock::time_point now);  // under mutex_: forgets a few idle addresses

  const config& config_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<usage>> usage_;
  std::string prune_from_;  // where the next prune_some() resumes (round robin)
};

// The client's address of a request: the peer's, or behind a trusted proxy (a peer address in
// config.exempt_addresses, with config.trust_forwarded_for on) the last X-Forwarded-For entry.
std::string client_address(const config& c, const std::string& peer, std::string_view forwarded);

}  // namespace carcassonne::server
