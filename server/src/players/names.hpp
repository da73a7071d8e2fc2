// Display names and passwords as the accounts take them (docs/protocol.md "Accounts").
//
// A claimed name is 3 to 20 characters of ASCII letters, digits, spaces, `_`, `-` and `.`,
// starting and ending with a letter or digit, without two separators in a row. ASCII only: a name
// cannot borrow a Cyrillic "а" to pass for another. Its comparison form (`name_key`) folds what
// still looks alike in ASCII — case, `0`/`o`, `1`/`l`/`i`, `5`/`s` and the separators — so that
// "Ann_1" cannot be claimed beside "ann l" or "ANNI".
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace carcassonne::server {

struct name_refusal {
  std::string code, message;  // bad_name, weak_password, password_too_long
};

// Nothing when `name` may be claimed, else why not.
std::optional<name_refusal> check_name(std::string_view name);
std::string name_key(std::string_view name);

// Passwords: 8 to 128 bytes (longer ones are refused, not cut: argon2id's cost grows with them),
// not one of the most common passwords, not the name itself.
inline constexpr std::size_t min_password = 8, max_password = 128;
std::optional<name_refusal> check_password(std::string_view password, std::string_view name);

}  // namespace carcassonne::server
