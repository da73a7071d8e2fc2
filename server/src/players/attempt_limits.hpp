// Failed sign-ins, counted per address and per name, so that a guesser runs out of tries long
// before a password falls (docs/hosting.md "Accounts"). A name is counted whether or not a player
// has it: the answer must not tell which names exist. In memory, per instance: a cluster of N
// instances allows N times the tries, which the argon2id cost still makes hopeless.
#pragma once
#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>

namespace carcassonne::server {

class attempt_limits {
 public:
  using clock = std::chrono::steady_clock;
  struct budget {
    int tries = 10;                   // failures allowed at once
    std::chrono::seconds refill{60};  // one more try after each
  };
  attempt_limits(budget per_address, budget per_name, std::size_t max_keys = 100'000)
      : per_address_(per_address), per_name_(per_name), max_keys_(max_keys) {}

  // Seconds to wait before a try from `address` for `name_key` may be made; 0: now.
  long long wait(const std::string& address, const std::string& name_key, clock::time_point now);
  // A try failed: it counts against both.
  void failed(const std::string& address, const std::string& name_key, clock::time_point now);

 private:
  struct bucket {
    double spent = 0;  // tries used and not yet given back
    clock::time_point at;
  };
  double spent_now(const bucket& b, const budget& k, clock::time_point now) const;
  long long wait_of(const std::map<std::string, bucket>& m, const std::string& key, const budget& k,
                    clock::time_point now) const;
  void spend(std::map<std::string, bucket>& m, const std::string& key, const budget& k,
             clock::time_point now);

  budget per_address_, per_name_;
  std::size_t max_keys_;
  std::mutex mutex_;
  std::map<std::string, bucket> addresses_, names_;
};

}  // namespace carcassonne::server
