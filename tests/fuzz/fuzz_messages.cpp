// libFuzzer harness: the client message parser (protocol::parse_request), fed any bytes as one
// text frame. It must never crash, and every refusal carries a code; a message that parses
// survives the answer helpers (its id echoed). Whatever the plain JSON parser takes, nlohmann
// takes too, into the same tree (values and number types).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "carcassonne/protocol/messages.hpp"
#include "plain_json.hpp"

namespace {

// Equal values of equal types all the way down (== takes 1 and 1u as equal).
bool same_tree(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.type() != b.type() || a != b) return false;
  if (!a.is_structured()) return true;
  for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib)
    if (!same_tree(*ia, *ib)) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace carcassonne::protocol;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (const auto plain = parse_plain_json(text)) {
    const auto tree = nlohmann::json::parse(text, nullptr, false);
    if (tree.is_discarded() || !same_tree(*plain, tree)) std::abort();
  }
  auto parsed = parse_request(text);
  if (!parsed.value) {
    if (parsed.error.code.empty()) std::abort();  // every refusal has a stable code
    (void)error_message(parsed.error, parsed.id).dump();
    return 0;
  }
  (void)reply("ok", parsed.value->id).dump();
  return 0;
}
