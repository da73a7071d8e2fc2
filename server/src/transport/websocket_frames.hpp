// The server's side of RFC 6455 framing, without I/O: client frames parsed, checked and put
// together into messages (frame_reader), server frames' headers written. Beast still answers the
// upgrade request; after it websocket_session.cpp reads and writes the socket itself, so that an
// idle connection holds a few dozen bytes here instead of Beast's 2.5 KB stream, and the frames
// queued on a connection leave in one write (docs/performance.md, "What makes it fast").
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace carcassonne::server::ws {

enum class opcode : std::uint8_t {
  continuation = 0,
  text = 1,
  binary = 2,
  close = 8,
  ping = 9,
  pong = 10
};

// Close codes (RFC 6455 §7.4.1).
enum close_code : std::uint16_t {
  normal = 1000,
  going_away = 1001,
  protocol_error = 1002,
  no_status = 1005,  // a close frame without a code: never sent in one
  bad_payload = 1007,
  policy_error = 1008,
  too_big = 1009
};

// The longest header of a server frame (unmasked, 64-bit length) and of a client frame (masked).
inline constexpr std::size_t max_server_header = 10;
inline constexpr std::size_t max_client_header = 14;
// What one read between frames takes: a header and, for the short messages clients mostly send
// (a move is about 90 bytes), its whole payload, so that a message costs one read instead of two
// (the header, then the rest). 114 bytes more per connection than the header alone.
inline constexpr std::size_t read_ahead = 128;
static_assert(read_ahead >= max_client_header && read_ahead <= 255);  // counted in a byte

// Writes the header of an unfragmented server frame into `out`; returns its size: 2, 4 or 10.
std::size_t write_header(unsigned char* out, opcode op, std::size_t payload_size);

// True when `s` is well-formed UTF-8 (RFC 3629: no overlong forms, surrogates or code points
// above U+10FFFF), as a text message must be.
bool valid_utf8(std::string_view s);

// A close frame's payload: the code, big-endian (nothing for no_status).
std::string close_payload(std::uint16_t code);

// Reads a client's frames. The caller reads the socket into buffer(), tells received() how many
// bytes came, then takes events from next() until it says need_more. Between messages it holds
// no heap memory; a message's payload is read straight into the string handed over with it.
class frame_reader {
 public:
  struct event {
    enum class kind { need_more, message, ping, pong, close, fail } what = kind::need_more;
    bool text = false;     // message: a text message (else binary)
    std::string payload;   // message, ping, pong: the payload; close: the reason
    std::uint16_t code{};  // close: the client's code (no_status if none); fail: the code to send
  };

  explicit frame_reader(std::size_t max_message) : max_message_(max_message) {}

  // Where the next bytes from the socket go: the rest of a payload (exactly), or a frame header
  // (at most read_ahead bytes; what follows the header in them is taken as the next bytes). Empty
  // once the reader has failed or seen a close frame: nothing more is read as frames.
  std::span<char> buffer();
  void received(std::size_t n);
  event next();

  bool done() const { return state_ == state::done; }
  // Bytes of the message under way (0 between messages).
  std::size_t message_size() const { return message_.size(); }

 private:
  enum class state : std::uint8_t { header, payload, done };
  event fail(std::uint16_t code);
  event frame_complete();
  // Moves what the header buffer holds after `from` to its front.
  void keep_from(std::size_t from);

  std::size_t max_message_;
  std::string message_;  // the data message under way, its frames' payloads unmasked
  std::string control_;  // the control frame under way
  std::uint64_t payload_left_ = 0;
  std::size_t payload_start_ = 0;  // where the current frame's payload starts in its target
  std::array<unsigned char, 4> mask_{};
  std::array<char, read_ahead> header_{};  // a frame header, and what came after it
  std::uint8_t header_bytes_ = 0;
  state state_ = state::header;
  opcode op_ = opcode::continuation;  // the current frame's
  bool fin_ = false;
  bool in_message_ = false;  // a data frame without FIN came: continuations follow
  bool message_text_ = false;
};

}  // namespace carcassonne::server::ws
