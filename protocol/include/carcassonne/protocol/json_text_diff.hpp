// nlohmann's json::diff, worked out on two JSON texts instead of two trees. The room part of a
// view is kept as text (a few hundred bytes a room); parsing both texts to diff them cost about
// 150,000 instructions whenever it changed (every join, leave, start and end).
#pragma once
#include <string>
#include <string_view>

namespace carcassonne::protocol {

// Appends to `ops` (comma-separated JSON Patch operation texts, no brackets) exactly what
// `json::diff(json::parse(from), json::parse(to))` gives, each operation dumped, with every path
// under `prefix`. Both texts must be as nlohmann dumps them: no whitespace, object keys sorted.
// Returns false, with `ops` unchanged, where it cannot be sure to agree with nlohmann (a key
// with an escape, numbers of different texts that are not plain integers, malformed text): the
// caller then diffs the trees.
bool diff_json_text(std::string_view from, std::string_view to, std::string_view prefix,
                    std::string& ops);

}  // namespace carcassonne::protocol
