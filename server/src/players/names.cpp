#include "players/names.hpp"

#include <algorithm>
#include <array>

namespace carcassonne::server {

namespace {

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool is_separator(char c) {
  return c == ' ' || c == '_' || c == '-' || c == '.';
}

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// The passwords that lists of leaked passwords rank first; a guesser tries them before any other.
constexpr std::array<std::string_view, 24> common_passwords{
    "12345678",   "123456789", "1234567890", "password", "password1",   "password123",
    "qwertyuiop", "qwerty123", "11111111",   "00000000", "iloveyou",    "abc12345",
    "123123123",  "87654321",  "12341234",   "1q2w3e4r", "sunshine",    "princess",
    "football",   "baseball",  "welcome1",   "letmein1", "carcassonne", "meeple123"};

}  // namespace

std::optional<name_refusal> check_name(std::string_view name) {
  if (name.size() < 3 || name.size() > 20)
    return name_refusal{"bad_name", "a name has 3 to 20 characters"};
  for (char c : name)
    if (!is_alnum(c) && !is_separator(c))
      return name_refusal{"bad_name",
                          "a name is made of letters A-Z, digits, spaces, '_', '-' and '.'"};
  if (!is_alnum(name.front()) || !is_alnum(name.back()))
    return name_refusal{"bad_name", "a name starts and ends with a letter or a digit"};
  for (std::size_t i = 1; i < name.size(); ++i)
    if (is_separator(name[i]) && is_separator(name[i - 1]))
      return name_refusal{"bad_name", "a name has no two spaces or separators in a row"};
  if (name_key(name).starts_with("guest") || name_key(name).starts_with("bot"))
    return name_refusal{"bad_name", "names starting with 'Guest' or 'Bot' are the server's"};
  return std::nullopt;
}

std::string name_key(std::string_view name) {
  std::string key;
  for (char c : name) {
    if (is_separator(c)) continue;
    c = lower(c);
    switch (c) {
      case '0':
        c = 'o';
        break;
      case '1':
      case 'i':
        c = 'l';
        break;
      case '5':
        c = 's';
        break;
      default:
        break;
    }
    key += c;
  }
  return key;
}

std::optional<name_refusal> check_password(std::string_view password, std::string_view name) {
  if (password.size() > max_password)
    return name_refusal{"password_too_long", "a password has at most 128 bytes"};
  if (password.size() < min_password)
    return name_refusal{"weak_password", "a password has at least 8 characters"};
  std::string folded;
  for (char c : password) folded += lower(c);
  if (std::find(common_passwords.begin(), common_passwords.end(), folded) != common_passwords.end())
    return name_refusal{"weak_password", "that password is among the first a guesser tries"};
  if (!name.empty() && name_key(password) == name_key(name))
    return name_refusal{"weak_password", "a password is not the name"};
  if (std::all_of(password.begin(), password.end(), [&](char c) { return c == password[0]; }))
    return name_refusal{"weak_password", "a password is not one character repeated"};
  return std::nullopt;
}

}  // namespace carcassonne::server
