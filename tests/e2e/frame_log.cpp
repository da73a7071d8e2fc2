// The end-to-end clients' traffic log (frame_log.hpp).
#include "frame_log.hpp"

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <string_view>
#include <unordered_set>

namespace e2e::frame_log {

namespace {

using json = nlohmann::json;

// The file and what it already holds, shared by every client's thread.
class writer {
 public:
  explicit writer(std::FILE* file) : file_(file) {}

  // A line for a text not logged before in the same direction with the same answer.
  // answer: a frame sent's answer (answer_of), empty when none was read.
  void frame(const char* direction, const std::string& text, const std::string& answer = {}) {
    const std::size_t key = std::hash<std::string_view>{}(text) ^
                            (std::hash<std::string_view>{}(answer)*31 + direction[0]);
    std::lock_guard lock(mutex_);
    ++counts_[direction];
    if (!seen_.insert(key).second) return;
    ++counts_[std::string("distinct_") + direction];
    json line{{"d", direction}, {"f", text}};
    if (direction[0] == 'c') line["a"] = answer.empty() ? json(nullptr) : json(answer);
    write(line);
  }
  void count(const char* what, std::size_t n = 1) {
    std::lock_guard lock(mutex_);
    counts_[what] += n;
  }
  void finish() {
    std::lock_guard lock(mutex_);
    json totals = counts_;
    totals["d"] = "totals";
    write(totals);
    std::fclose(file_);
    file_ = nullptr;
  }

 private:
  void write(const json& line) {
    if (!file_) return;
    // Invalid UTF-8 (a test's broken frame) is written with replacement characters.
    const auto text = line.dump(-1, ' ', false, json::error_handler_t::replace);
    std::fwrite(text.data(), 1, text.size(), file_);
    std::fputc('\n', file_);
  }

  std::mutex mutex_;
  std::FILE* file_;
  std::unordered_set<std::size_t> seen_;
  std::map<std::string, std::size_t> counts_;
};

writer* open_from_environment();

// Opened (and truncated) when the process starts, never destroyed: the totals are written and
// the file closed at exit.
writer* const the_writer = open_from_environment();

writer* open_from_environment() {
  const char* path = std::getenv("CARCASSONNE_E2E_FRAME_LOG");
  if (!path || !*path) return nullptr;
  std::FILE* file = std::fopen(path, "w");
  if (!file) {
    std::fprintf(stderr, "e2e: cannot write the frame log %s\n", path);
    return nullptr;
  }
  std::setvbuf(file, nullptr, _IOFBF, 1 << 20);
  std::atexit([] { the_writer->finish(); });
  return new writer(file);
}

// An id the server copies into its answer: a string of at most 64 characters, or an integer.
bool valid_id(const json& id) {
  return id.is_number_integer() ||
         (id.is_string() && id.get_ref<const std::string&>().size() <= 64);
}

// The answer as logged: its type, and an error's code ("error:bad_message").
std::string answer_of(const json& m) {
  if (!m.contains("type") || !m["type"].is_string()) return "?";
  auto type = m["type"].get<std::string>();
  if (type == "error" && m.contains("code") && m["code"].is_string()) {
    type += ':';
    type += m["code"].get_ref<const std::string&>();
  }
  return type;
}

}  // namespace

void server_frame(const std::string& text) {
  if (the_writer) the_writer->frame("server", text);
}

void binary_sent(std::size_t frames) {
  if (the_writer) the_writer->count("binary_frames_sent", frames);
}

connection::~connection() {
  if (!the_writer) return;
  for (const auto& [id, frames] : by_id_)
    for (const auto& text : frames) the_writer->frame("client", text);
  for (const auto& text : without_id_) the_writer->frame("client", text);
}

void connection::sent(const std::string& text) {
  if (!the_writer) return;
  const json m = json::parse(text, nullptr, false);
  if (m.is_object() && m.contains("id") && valid_id(m["id"]))
    by_id_[m["id"].dump()].push_back(text);
  else
    without_id_.push_back(text);
}

void connection::raw_sent(std::size_t bytes) {
  if (the_writer) the_writer->count("raw_bytes_sent", bytes);
}

void connection::raw_received(std::size_t bytes) {
  if (the_writer) the_writer->count("raw_bytes_received", bytes);
}

void connection::received_binary(std::size_t) {
  if (the_writer) the_writer->count("binary_frames_received");
}

void connection::received(const std::string& text, const json& frame) {
  if (!the_writer) return;
  the_writer->frame("server", text);
  if (!frame.is_object()) return;
  if (frame.contains("id")) {
    const auto waiting = by_id_.find(frame["id"].dump());
    if (waiting == by_id_.end()) return;
    the_writer->frame("client", waiting->second.front(), answer_of(frame));
    waiting->second.pop_front();
    if (waiting->second.empty()) by_id_.erase(waiting);
  } else if (const auto answer = answer_of(frame);
             answer.starts_with("error") && !without_id_.empty()) {
    // An error without an id answers a frame that had none (or is not JSON).
    the_writer->frame("client", without_id_.front(), answer);
    without_id_.pop_front();
  }
}

void connection::last_view(const json& view) {
  if (the_writer)
    the_writer->frame("view", view.dump(-1, ' ', false, json::error_handler_t::replace));
}

}  // namespace e2e::frame_log
