// An e-mail's text (internal to notify/, exposed for tests): RFC 5322 headers (RFC 2047 for
// non-ASCII words), a text/plain UTF-8 body with CRLF lines, and SMTP's dot-stuffing.
#pragma once
#include <string>

#include "notify/channels.hpp"

namespace carcassonne::server::notify {

// The message as it follows DATA, before dot-stuffing: headers, an empty line, the body; every
// line ends in CRLF. `now_s` (Unix seconds) gives the Date header.
std::string mail_message(const smtp_settings& settings, const mail& m, long long now_s);

// `text` as header text: itself when printable ASCII, else RFC 2047 encoded words
// ("=?UTF-8?B?...?=", folded), never splitting a UTF-8 sequence.
std::string header_text(const std::string& text);

// `message` with every line that starts with '.' given a second one, and the final ".\r\n"
// (RFC 5321 §4.5.2).
std::string dot_stuffed(const std::string& message);

// The address of a mailbox: "Name <a@b>" or "a@b" gives "a@b"; empty when it is not a plain
// ASCII address (no spaces, brackets or control characters, one '@').
std::string mailbox_address(const std::string& mailbox);

}  // namespace carcassonne::server::notify
