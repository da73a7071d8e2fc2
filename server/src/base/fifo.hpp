// A first-in first-out queue over one vector. Unlike std::deque (which allocates a map and a
// 512-byte block as soon as it is constructed), an empty fifo owns no memory: the server keeps
// one per connection and several per room, most of them empty most of the time.
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

namespace carcassonne::server {

template <class T>
class fifo {
 public:
  bool empty() const { return head_ == items_.size(); }
  std::size_t size() const { return items_.size() - head_; }

  T& front() { return items_[head_]; }
  const T& front() const { return items_[head_]; }

  template <class... Args>
  T& emplace_back(Args&&... args) {
    return items_.emplace_back(std::forward<Args>(args)...);
  }
  void push_back(T item) { items_.push_back(std::move(item)); }

  void pop_front() {
    items_[head_] = T();  // release what the item holds now, not when the slot is reused
    if (++head_ == items_.size()) {
      clear();
    } else if (head_ >= 16 && head_ * 2 >= items_.size()) {  // compact: amortised O(1)
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }

  // Keeps the first n items, drops the rest.
  void keep_first(std::size_t n) {
    if (n >= size()) return;
    if (n == 0) return clear();
    items_.resize(head_ + n);
  }

  // Empty again: a burst's capacity is given back, a few slots are kept for the next one.
  void clear() {
    if (items_.capacity() > kept_capacity)
      std::vector<T>().swap(items_);
    else
      items_.clear();
    head_ = 0;
  }

  auto begin() { return items_.begin() + static_cast<std::ptrdiff_t>(head_); }
  auto end() { return items_.end(); }
  auto begin() const { return items_.begin() + static_cast<std::ptrdiff_t>(head_); }
  auto end() const { return items_.end(); }

 private:
  static constexpr std::size_t kept_capacity = 16;
  std::vector<T> items_;
  std::size_t head_ = 0;
};

}  // namespace carcassonne::server
