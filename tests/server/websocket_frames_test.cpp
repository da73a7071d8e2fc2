// The server's WebSocket framing (server/src/transport/websocket_frames.hpp): client frames read in
// any split, put together into messages, checked (RFC 6455 §5), and server frame headers.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "../e2e/client_frame.hpp"
#include "transport/websocket_frames.hpp"

namespace ws = carcassonne::server::ws;
using frame_event = ws::frame_reader::event;
using frame_kind = frame_event::kind;
using test_frames::client_frame;

namespace {

// Feeds `bytes` to the reader as a socket would, at most `piece` bytes a read, and collects
// every event until the bytes are used up or the reader stops.
std::vector<frame_event> feed(ws::frame_reader& r, const std::string& bytes, std::size_t piece) {
  std::vector<frame_event> events;
  std::size_t at = 0;
  for (;;) {
    for (auto e = r.next(); e.what != frame_kind::need_more; e = r.next())
      events.push_back(std::move(e));
    const auto into = r.buffer();
    if (into.empty() || at == bytes.size()) return events;
    const auto n = std::min({piece, into.size(), bytes.size() - at});
    std::copy_n(bytes.data() + at, n, into.data());
    at += n;
    r.received(n);
  }
}

std::vector<frame_event> read_all(const std::string& bytes, std::size_t piece = 1 << 20,
                                  std::size_t max_message = 16 * 1024) {
  ws::frame_reader r(max_message);
  return feed(r, bytes, piece);
}

}  // namespace

TEST_CASE("websocket frames: messages, fragments and control frames, in any split") {
  const std::string long_text(70000, 'x');  // a 64-bit length
  const std::string mid_text(300, 'y');     // a 16-bit length
  const std::string stream =
      client_frame(1, true, "{\"type\":\"ping\"}") + client_frame(9, true, "") +  // empty ping
      client_frame(1, false, "{\"a\":") + client_frame(10, true, "pong!") +       // between
      client_frame(0, false, "") + client_frame(0, true, "1}") + client_frame(2, true, "\x01\x02") +
      client_frame(1, true, mid_text) + client_frame(1, true, long_text) +
      client_frame(8, true, std::string("\x03\xe8", 2) + "bye");
  for (const std::size_t piece : {1, 2, 3, 7, 14, 100, 1 << 20}) {
    CAPTURE(piece);
    const auto events = read_all(stream, piece, 100000);
    REQUIRE(events.size() == 8);
    CHECK(events[0].what == frame_kind::message);
    CHECK(events[0].text);
    CHECK(events[0].payload == "{\"type\":\"ping\"}");
    CHECK(events[1].what == frame_kind::ping);
    CHECK(events[1].payload.empty());
    CHECK(events[2].what == frame_kind::pong);
    CHECK(events[2].payload == "pong!");
    CHECK(events[3].what == frame_kind::message);
    CHECK(events[3].payload == "{\"a\":1}");
    CHECK(events[4].what == frame_kind::message);
    CHECK_FALSE(events[4].text);
    CHECK(events[4].payload == "\x01\x02");
    CHECK(events[5].payload == mid_text);
    CHECK(events[6].payload == long_text);
    CHECK(events[7].what == frame_kind::close);
    CHECK(events[7].code == 1000);
    CHECK(events[7].payload == "bye");
  }
}

TEST_CASE("websocket frames: a short message comes in one read, header and payload together") {
  const std::string move(ws::read_ahead - 6, 'm');  // 6: a masked frame's shortest header
  const std::string two = client_frame(1, true, move) + client_frame(1, true, "{}");
  ws::frame_reader r(16 * 1024);
  auto into = r.buffer();
  REQUIRE(into.size() == ws::read_ahead);
  const auto n = std::min(into.size(), two.size());
  std::copy_n(two.data(), n, into.data());
  r.received(n);
  auto e = r.next();
  CHECK(e.what == frame_kind::message);
  CHECK(e.payload == move);
  CHECK(r.next().what == frame_kind::need_more);
  // The next read is for the next header again, whole.
  CHECK(r.buffer().size() == ws::read_ahead);
  CHECK(feed(r, two.substr(n), 1).at(0).payload == "{}");
}

TEST_CASE("websocket frames: nothing more is read after a close frame; no code is 1005") {
  ws::frame_reader r(1024);
  const auto events = feed(r, client_frame(8, true, "") + client_frame(1, true, "{}"), 1 << 20);
  REQUIRE(events.size() == 1);
  CHECK(events[0].what == frame_kind::close);
  CHECK(events[0].code == ws::no_status);
  CHECK(r.done());
  CHECK(r.buffer().empty());
}

TEST_CASE("websocket frames: the size limit counts a message's fragments together") {
  const std::string half(600, 'z');
  // Each fragment is under 1,000 bytes; together they are over: refused from the second header.
  for (const std::size_t piece : {1, 1 << 20}) {
    ws::frame_reader r(1000);
    const auto events = feed(r, client_frame(1, false, half) + client_frame(0, true, half), piece);
    REQUIRE(events.size() == 1);
    CHECK(events[0].what == frame_kind::fail);
    CHECK(events[0].code == ws::too_big);
    CHECK(r.message_size() == 0);  // the first fragment's bytes are given back
  }
  // Exactly at the limit is allowed; one byte over is not, even before its payload came.
  CHECK(read_all(client_frame(1, true, std::string(1000, 'a')), 1 << 20, 1000)[0].what ==
        frame_kind::message);
  ws::frame_reader r(1000);
  const auto header_only = client_frame(1, true, std::string(1001, 'a')).substr(0, 8);
  const auto events = feed(r, header_only, 1 << 20);
  REQUIRE(events.size() == 1);
  CHECK(events[0].code == ws::too_big);
}

TEST_CASE("websocket frames: protocol errors close with 1002, bad UTF-8 with 1007") {
  const auto code_of = [](const std::string& bytes) {
    const auto events = read_all(bytes);
    REQUIRE(!events.empty());
    CHECK(events.back().what == frame_kind::fail);
    return events.back().code;
  };
  CHECK(code_of(client_frame(1, true, "{}", {.rsv = 0x40})) == ws::protocol_error);  // RSV1
  CHECK(code_of(client_frame(3, true, "{}")) == ws::protocol_error);                 // opcode 3
  CHECK(code_of(client_frame(11, true, "")) == ws::protocol_error);                  // opcode 11
  CHECK(code_of(client_frame(1, true, "{}", {.masked = false})) == ws::protocol_error);  // unmasked
  CHECK(code_of(client_frame(9, false, "")) == ws::protocol_error);  // a fragmented ping
  CHECK(code_of(client_frame(9, true, std::string(126, 'p'))) == ws::protocol_error);
  CHECK(code_of(client_frame(0, true, "x")) == ws::protocol_error);  // continuation first
  CHECK(code_of(client_frame(1, false, "{") + client_frame(1, true, "}")) ==
        ws::protocol_error);  // a new message
  CHECK(code_of(client_frame(1, true, "{}", {.length_bytes = 2})) ==
        ws::protocol_error);  // 16 bits for 2
  CHECK(code_of(client_frame(1, true, std::string(200, 'a'), {.length_bytes = 8})) ==
        ws::protocol_error);
  CHECK(code_of(client_frame(8, true, "\x03")) == ws::protocol_error);  // 1-byte close
  CHECK(code_of(client_frame(8, true, std::string("\x03\xed", 2))) == ws::protocol_error);  // 1005
  CHECK(code_of(client_frame(8, true, std::string("\x03\xe8\xff", 3))) == ws::bad_payload);
  CHECK(code_of(client_frame(1, true, "\"\xc3\x28\"")) == ws::bad_payload);
  // Invalid UTF-8 split over fragments, each fragment alone harmless.
  CHECK(code_of(client_frame(1, false, "\xe2\x82") + client_frame(0, true, "\xff")) ==
        ws::bad_payload);
  // A binary message is not checked as text.
  CHECK(read_all(client_frame(2, true, "\xff\xfe"))[0].what == frame_kind::message);
  // The top bit of a 64-bit length must be clear.
  std::string huge = client_frame(1, true, "", {.length_bytes = 8});
  huge[2] = static_cast<char>(0x80);
  CHECK(code_of(huge) == ws::protocol_error);
}

TEST_CASE("websocket frames: UTF-8 as RFC 3629 has it") {
  CHECK(ws::valid_utf8(""));
  CHECK(ws::valid_utf8("plain ASCII, longer than eight bytes"));
  CHECK(ws::valid_utf8("\xc2\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf \xed\x9f\xbf"));
  CHECK(ws::valid_utf8("Hrab\xc4\x9b Karl\xc5\xa1tejn, 12345678\xc3\xa9"));
  CHECK_FALSE(ws::valid_utf8("\x80"));                   // a continuation byte first
  CHECK_FALSE(ws::valid_utf8("\xc0\xaf"));               // overlong '/'
  CHECK_FALSE(ws::valid_utf8("\xe0\x80\xaf"));           // overlong, three bytes
  CHECK_FALSE(ws::valid_utf8("\xf0\x80\x80\xaf"));       // overlong, four bytes
  CHECK_FALSE(ws::valid_utf8("\xed\xa0\x80"));           // a surrogate (U+D800)
  CHECK_FALSE(ws::valid_utf8("\xf4\x90\x80\x80"));       // above U+10FFFF
  CHECK_FALSE(ws::valid_utf8("\xf5\x80\x80\x80"));       // no such lead byte
  CHECK_FALSE(ws::valid_utf8("abcdefgh\xe2\x82"));       // cut short at the end
  CHECK_FALSE(ws::valid_utf8("\xe2\x28\xa1 12345678"));  // a bad continuation byte
}

TEST_CASE("websocket frames: server headers use the shortest length, FIN set, no mask") {
  unsigned char h[ws::max_server_header];
  CHECK(ws::write_header(h, ws::opcode::text, 125) == 2);
  CHECK(h[0] == 0x81);
  CHECK(h[1] == 125);
  CHECK(ws::write_header(h, ws::opcode::text, 126) == 4);
  CHECK(h[1] == 126);
  CHECK(h[2] == 0);
  CHECK(h[3] == 126);
  CHECK(ws::write_header(h, ws::opcode::pong, 65535) == 4);
  CHECK(h[0] == 0x8a);
  CHECK(h[2] == 0xff);
  CHECK(h[3] == 0xff);
  CHECK(ws::write_header(h, ws::opcode::close, 65536) == 10);
  CHECK(h[0] == 0x88);
  CHECK(h[1] == 127);
  CHECK(std::all_of(h + 2, h + 7, [](unsigned char b) { return b == 0; }));
  CHECK(h[7] == 1);
  CHECK(h[8] == 0);
  CHECK(h[9] == 0);
  CHECK(ws::close_payload(1009) == std::string("\x03\xf1", 2));
  CHECK(ws::close_payload(ws::no_status).empty());
}
