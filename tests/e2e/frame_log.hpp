// The end-to-end clients' traffic, for the wire schema's check (tests/schema/e2e_frames_test.mjs,
// ctest e2e_wire_schema, which runs after e2e_tests). When CARCASSONNE_E2E_FRAME_LOG names a
// file (ctest sets it for e2e_tests), every text frame a client sends or receives is appended
// to it once per distinct text, as a JSON line:
//   {"d":"server","f":TEXT}                         a frame received
//   {"d":"client","f":TEXT,"a":ANSWER}              a frame sent; ANSWER: the type of the server's
//                                                   answer ("error:CODE" for errors), or null
//                                                   when no answer was read
//   {"d":"view","f":TEXT}                           a client's last view, patched together
//   {"d":"totals",...}                              counts, at the end of the process
// A frame sent is paired with its answer by id (the answer carries it, docs/protocol.md §2);
// one without a valid id, or not JSON, with the next error without an id. Frames that are not
// text (binary, hand-encoded bytes beneath WebSocket) are counted in the totals, not logged.
// The file is truncated when the process starts. Without the variable nothing is done.
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <deque>
#include <map>
#include <string>

namespace e2e::frame_log {

// Frames of sockets other than ws_client's (a test's own Beast stream).
void server_frame(const std::string& text);
void binary_sent(std::size_t frames);

// One connection's traffic: pairs each request with its answer. Used by one thread at a time
// (its client's); the file is shared under a lock.
class connection {
 public:
  connection() = default;
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;
  // Requests whose answer never came are logged unanswered.
  ~connection();

  void sent(const std::string& text);
  // Bytes written or read beneath WebSocket (frames a test encoded itself, or their answers).
  void raw_sent(std::size_t bytes);
  void raw_received(std::size_t bytes);
  void received_binary(std::size_t bytes);
  // A text frame received, with its parse.
  void received(const std::string& text, const nlohmann::json& frame);
  void last_view(const nlohmann::json& view);

 private:
  std::map<std::string, std::deque<std::string>> by_id_;  // id (dumped) -> frames awaiting it
  std::deque<std::string> without_id_;  // frames with no valid id, or not JSON, in order
};

}  // namespace e2e::frame_log
