// One WebSocket frame as a client sends it (RFC 6455 §5.2), encoded by hand for tests that must
// send what no library would: fragments split anywhere, reserved bits, longer length encodings
// than needed, unmasked frames. Used by the frame reader's tests and the end-to-end framing tests.
#pragma once
#include <cstdint>
#include <string>

namespace test_frames {

struct frame_shape {
  int length_bytes = 0;  // 0: the shortest length encoding; 2 or 8 to force a longer one
  std::uint8_t rsv = 0;  // reserved bits of the first byte (0x70 at most)
  bool masked = true;    // a client must mask every frame
};

inline std::string client_frame(std::uint8_t op, bool fin, const std::string& payload,
                                frame_shape shape = {}) {
  std::string f;
  f += static_cast<char>((fin ? 0x80 : 0) | shape.rsv | op);
  const std::uint64_t n = payload.size();
  const int bytes = shape.length_bytes ? shape.length_bytes : n < 126 ? 0 : n < 65536 ? 2 : 8;
  const char mask_bit = shape.masked ? static_cast<char>(0x80) : 0;
  if (bytes == 0) f += static_cast<char>(mask_bit | static_cast<char>(n));
  if (bytes == 2) f += static_cast<char>(mask_bit | 126);
  if (bytes == 8) f += static_cast<char>(mask_bit | 127);
  for (int i = bytes - 1; i >= 0; --i) f += static_cast<char>((n >> (8 * i)) & 0xff);
  const char key[4] = {0x12, 0x34, 0x56, 0x78};
  if (shape.masked) f.append(key, 4);
  for (std::size_t i = 0; i < n; ++i)
    f += shape.masked ? static_cast<char>(payload[i] ^ key[i % 4]) : payload[i];
  return f;
}

}  // namespace test_frames
