// libFuzzer harness: the client message parser (protocol::parse_request), fed any bytes as one
// text frame. It must never crash, and every refusal carries a code; a message that parses
// survives the answer helpers (its id echoed).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "carcassonne/protocol/messages.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace carcassonne::protocol;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = parse_request(text);
  if (!parsed.value) {
    if (parsed.error.code.empty()) std::abort();  // every refusal has a stable code
    (void)error_message(parsed.error, parsed.id).dump();
    return 0;
  }
  (void)reply("ok", parsed.value->id).dump();
  return 0;
}
