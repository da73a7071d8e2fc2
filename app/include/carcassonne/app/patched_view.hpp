// The view a load-test client keeps (app/src/loadtest_command.cpp): a snapshot's "view" with
// every patch the server sends applied to it (RFC 6902 add, remove and replace, the operations
// protocol/src/view_doc.cpp writes), held as a Boost.JSON value: its parser and flat objects cost
// a fraction of an nlohmann tree per frame, and this runs for one client per room on every move.
// Not thread-safe: one per client, on the client's thread.
#pragma once

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/parser.hpp>
#include <boost/json/value.hpp>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace carcassonne::app {

// Applies ops to doc in order, their values moved into doc (copied when in another storage).
// Returns "" on success, else what failed (doc then holds the ops before the failing one: the
// caller drops or resets it).
std::string apply_json_patch(boost::json::value& doc, boost::json::array& ops);

// Freed blocks kept by size (multiples of 16 bytes, up to 1 KB) and handed out again: a view's
// members come and go with every move (the legal moves of the seat to act, the last tile), so
// most of its allocations are a pop from a list instead of a trip through malloc.
class block_pool final : public boost::json::memory_resource {
 public:
  block_pool() = default;
  block_pool(const block_pool&) = delete;
  block_pool& operator=(const block_pool&) = delete;
  ~block_pool() override;

 private:
  static constexpr std::size_t grain = 16, largest = 1024;
  void* do_allocate(std::size_t bytes, std::size_t align) override;
  void do_deallocate(void* p, std::size_t bytes, std::size_t align) override;
  bool do_is_equal(const boost::json::memory_resource& other) const noexcept override {
    return this == &other;
  }
  std::vector<void*> free_[largest / grain + 1];
};

class patched_view {
 public:
  // Parses one frame (a whole message) into a value that lives until the next parse; null when
  // the text is not JSON.
  const boost::json::value& parse(std::string_view frame);
  // The view becomes a copy of view (a snapshot's), or nothing when view is not an object.
  void reset(const boost::json::value& view);
  void clear() { view_.emplace_null(); }
  // Applies a patch frame's "patch": "" on success, else what failed (the view is then dropped).
  std::string apply_frame(std::string_view frame);
  bool holds() const { return view_.is_object(); }
  const boost::json::value& value() const { return view_; }

 private:
  boost::json::value& parse_frame(std::string_view frame);

  block_pool pool_;  // the view's memory: declared first, so that it outlives the view
  boost::json::value view_ = boost::json::value(boost::json::storage_ptr(&pool_));
  // Each frame is parsed into a scratch arena over one buffer, made anew by the next parse: no
  // malloc per node. The buffer is made on the first parse (most clients never parse one).
  std::unique_ptr<unsigned char[]> buffer_;
  std::optional<boost::json::monotonic_resource> scratch_;
  std::optional<boost::json::parser> parser_;
  // Optional, not assigned: assigning a value of another storage would copy it to the heap.
  std::optional<boost::json::value> frame_;
};

}  // namespace carcassonne::app
