#include "transport/websocket_frames.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace carcassonne::server::ws {

namespace {

bool is_control(opcode op) {
  return static_cast<std::uint8_t>(op) >= 8;
}

bool known_opcode(std::uint8_t op) {
  return op <= 2 || (op >= 8 && op <= 10);
}

// The codes a close frame may carry (RFC 6455 §7.4; 1012-1014 registered since).
bool valid_close_code(std::uint16_t code) {
  return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) ||
         (code >= 3000 && code <= 4999);
}

}  // namespace

std::size_t write_header(unsigned char* out, opcode op, std::size_t payload_size) {
  out[0] = static_cast<unsigned char>(0x80 | static_cast<std::uint8_t>(op));  // FIN, no RSV bits
  if (payload_size < 126) {
    out[1] = static_cast<unsigned char>(payload_size);
    return 2;
  }
  const int bytes = payload_size < 65536 ? 2 : 8;
  out[1] = bytes == 2 ? 126 : 127;
  for (int i = 0; i < bytes; ++i)
    out[2 + i] = static_cast<unsigned char>(payload_size >> (8 * (bytes - 1 - i)));
  return 2 + static_cast<std::size_t>(bytes);
}

bool valid_utf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* const end = p + s.size();
  while (p < end) {
    // JSON is mostly ASCII: eight bytes a step while no byte has its high bit set.
    std::uint64_t eight;
    if (end - p >= 8 && (std::memcpy(&eight, p, 8), (eight & 0x8080808080808080ull) == 0)) {
      p += 8;
      continue;
    }
    const unsigned c = *p;
    if (c < 0x80) {
      ++p;
      continue;
    }
    int follow;  // continuation bytes; the first of them within [low, high]
    unsigned low = 0x80, high = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) {
      follow = 1;
    } else if (c >= 0xe0 && c <= 0xef) {
      follow = 2;
      if (c == 0xe0) low = 0xa0;   // no overlong form
      if (c == 0xed) high = 0x9f;  // no surrogate
    } else if (c >= 0xf0 && c <= 0xf4) {
      follow = 3;
      if (c == 0xf0) low = 0x90;   // no overlong form
      if (c == 0xf4) high = 0x8f;  // nothing above U+10FFFF
    } else {
      return false;  // a continuation byte first, an overlong lead (0xc0, 0xc1) or 0xf5..0xff
    }
    if (end - p <= follow || p[1] < low || p[1] > high) return false;
    for (int i = 2; i <= follow; ++i)
      if ((p[i] & 0xc0) != 0x80) return false;
    p += follow + 1;
  }
  return true;
}

std::string close_payload(std::uint16_t code) {
  if (code == no_status) return {};
  return {static_cast<char>(code >> 8), static_cast<char>(code & 0xff)};
}

std::span<char> frame_reader::buffer() {
  switch (state_) {
    case state::header:
      return {header_.data() + header_bytes_, header_.size() - header_bytes_};
    case state::payload: {
      auto& target = is_control(op_) ? control_ : message_;
      return {target.data() + target.size() - payload_left_,
              static_cast<std::size_t>(payload_left_)};
    }
    case state::done:
      break;
  }
  return {};
}

void frame_reader::received(std::size_t n) {
  if (state_ == state::header)
    header_bytes_ = static_cast<std::uint8_t>(header_bytes_ + n);
  else if (state_ == state::payload)
    payload_left_ -= n;
}

frame_reader::event frame_reader::next() {
  for (;;) {
    if (state_ == state::done) return {};
    if (state_ == state::payload) {
      if (payload_left_ > 0) return {};
      auto e = frame_complete();
      if (e.what != event::kind::need_more) return e;
      continue;  // a fragment of a message: its next frame may be buffered already
    }
    // A frame header (RFC 6455 §5.2), from the bytes buffered so far.
    const auto* h = reinterpret_cast<const unsigned char*>(header_.data());
    if (header_bytes_ < 2) return {};
    const bool fin = (h[0] & 0x80) != 0;
    const std::uint8_t op = h[0] & 0x0f;
    if ((h[0] & 0x70) != 0 || !known_opcode(op)) return fail(protocol_error);  // no extensions
    if ((h[1] & 0x80) == 0) return fail(protocol_error);  // a client masks every frame
    const std::uint8_t length7 = h[1] & 0x7f;
    const std::size_t length_bytes = length7 == 126 ? 2 : length7 == 127 ? 8 : 0;
    const std::size_t header_size = 2 + length_bytes + 4;
    if (header_bytes_ < header_size) return {};
    std::uint64_t length = length7;
    if (length_bytes > 0) {
      length = 0;
      for (std::size_t i = 0; i < length_bytes; ++i) length = (length << 8) | h[2 + i];
      // The shortest encoding only, and the top bit clear.
      if ((length_bytes == 2 && length < 126) || (length_bytes == 8 && length < 65536) ||
          (length >> 63) != 0)
        return fail(protocol_error);
    }
    const auto code = static_cast<opcode>(op);
    if (is_control(code)) {
      if (!fin || length > 125) return fail(protocol_error);
    } else {
      if ((code == opcode::continuation) != in_message_) return fail(protocol_error);
      // From the header, before its payload is read (as Beast did).
      if (length > max_message_ - std::min(max_message_, message_.size())) return fail(too_big);
    }
    std::copy_n(h + 2 + length_bytes, 4, mask_.begin());
    op_ = code;
    fin_ = fin;
    auto& target = is_control(code) ? control_ : message_;
    if (code == opcode::text || code == opcode::binary) {
      in_message_ = true;
      message_text_ = code == opcode::text;
    }
    payload_start_ = is_control(code) ? 0 : message_.size();
    target.resize(payload_start_ + static_cast<std::size_t>(length));
    // What came after the header in the same read: this payload, then maybe the next frame.
    const std::size_t after = header_bytes_ - header_size;
    const auto take = static_cast<std::size_t>(std::min<std::uint64_t>(after, length));
    std::memcpy(target.data() + payload_start_, header_.data() + header_size, take);
    payload_left_ = length - take;
    keep_from(header_size + take);
    state_ = state::payload;
  }
}

frame_reader::event frame_reader::frame_complete() {
  state_ = state::header;
  auto& target = is_control(op_) ? control_ : message_;
  for (std::size_t i = payload_start_, k = 0; i < target.size(); ++i, ++k)
    target[i] = static_cast<char>(target[i] ^ mask_[k % 4]);
  event e;
  switch (op_) {
    case opcode::ping:
    case opcode::pong:
      e.what = op_ == opcode::ping ? event::kind::ping : event::kind::pong;
      e.payload = std::exchange(control_, std::string());
      return e;
    case opcode::close: {
      const std::string p = std::exchange(control_, std::string());
      if (p.size() == 1) return fail(protocol_error);
      e.what = event::kind::close;
      e.code = no_status;
      if (p.size() >= 2) {
        e.code = static_cast<std::uint16_t>((static_cast<unsigned char>(p[0]) << 8) |
                                            static_cast<unsigned char>(p[1]));
        if (!valid_close_code(e.code)) return fail(protocol_error);
        e.payload = p.substr(2);
        if (!valid_utf8(e.payload)) return fail(bad_payload);
      }
      state_ = state::done;
      message_ = std::string();
      return e;
    }
    default:
      break;
  }
  if (!fin_) return e;  // more fragments follow
  in_message_ = false;
  if (message_text_ && !valid_utf8(message_)) return fail(bad_payload);
  e.what = event::kind::message;
  e.text = message_text_;
  e.payload = std::exchange(message_, std::string());
  return e;
}

frame_reader::event frame_reader::fail(std::uint16_t code) {
  state_ = state::done;
  message_ = std::string();
  control_ = std::string();
  event e;
  e.what = event::kind::fail;
  e.code = code;
  return e;
}

void frame_reader::keep_from(std::size_t from) {
  const std::size_t rest = header_bytes_ - from;
  std::memmove(header_.data(), header_.data() + from, rest);
  header_bytes_ = static_cast<std::uint8_t>(rest);
}

}  // namespace carcassonne::server::ws
