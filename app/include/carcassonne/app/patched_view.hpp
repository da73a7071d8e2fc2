// The view a load-test client keeps (app/src/loadtest_command.cpp): a snapshot's "view" with
// every patch the server sends applied to it (RFC 6902 add, remove and replace, the operations
// the server writes). Runs for one client per room on every move.
// Not thread-safe: one per client, on the client's thread.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace carcassonne::app {

// Applies ops to doc in order, their values moved into doc. Returns "" on success, else what
// failed (doc then holds the ops before the failing one: the caller drops or resets it).
std::string apply_json_patch(nlohmann::json& doc, nlohmann::json& ops);

class patched_view {
 public:
  // Parses one frame (a whole message) into a value that lives until the next parse; discarded
  // when the text is not JSON.
  const nlohmann::json& parse(std::string_view frame);
  // The view becomes view (a snapshot's), or nothing when view is not an object.
  void reset(const nlohmann::json& view);
  void clear() { view_ = nullptr; }
  // Applies a patch frame's "patch": "" on success, else what failed (the view is then dropped).
  std::string apply_frame(std::string_view frame);
  bool holds() const { return view_.is_object(); }
  const nlohmann::json& value() const { return view_; }

 private:
  nlohmann::json view_;
  nlohmann::json frame_;  // the last frame parsed
};

}  // namespace carcassonne::app
