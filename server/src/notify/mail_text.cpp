#include "notify/mail_text.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <string_view>

#include "base/base64.hpp"
#include "base/crypto.hpp"

namespace carcassonne::server::notify {

namespace {

bool printable_ascii(const std::string& text) {
  return std::all_of(text.begin(), text.end(),
                     [](unsigned char c) { return c >= 0x20 && c < 0x7f; });
}

// RFC 5322 §3.3, written by hand: strftime would follow the locale.
std::string date_of(long long now_s) {
  static constexpr const char* days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr const char* months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                           "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const std::time_t t = static_cast<std::time_t>(now_s);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char out[64];
  std::snprintf(out, sizeof out, "%s, %02d %s %04d %02d:%02d:%02d +0000", days[utc.tm_wday],
                utc.tm_mday, months[utc.tm_mon], utc.tm_year + 1900, utc.tm_hour, utc.tm_min,
                utc.tm_sec);
  return out;
}

bool atext(unsigned char c) {  // RFC 5322 §3.2.3, with '.' for dot-atoms
  return std::isalnum(c) != 0 ||
         std::string_view("!#$%&'*+-/=?^_`{|}~.").find(static_cast<char>(c)) !=
             std::string_view::npos;
}

// <id@domain>: the idempotency key itself when it is a dot-atom, else its digest (a retry
// writes the same Message-ID, so that receivers can drop the repeat).
std::string message_id(const std::string& key, const std::string& from_address) {
  const std::size_t at = from_address.find('@');
  const std::string domain = at == std::string::npos ? "localhost" : from_address.substr(at + 1);
  const bool plain = !key.empty() && key.size() <= 64 && key.front() != '.' && key.back() != '.' &&
                     std::all_of(key.begin(), key.end(), [](unsigned char c) { return atext(c); });
  return "<" + (plain ? key : sha256_hex(key).substr(0, 32)) + "@" + domain + ">";
}

// The body's lines, each ending in CRLF, none longer than RFC 5321's 998 characters.
std::string body_lines(const std::string& text) {
  std::string out, line;
  const auto flush = [&] {
    std::size_t at = 0;
    do {
      out += line.substr(at, 998) + "\r\n";
      at += 998;
    } while (at < line.size());
    line.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    if (text[i] == '\n' || text[i] == '\r') {
      flush();
    } else {
      line.push_back(text[i]);
    }
  }
  if (!line.empty() || out.empty()) flush();
  return out;
}

// Header text without line breaks: a break in a subject must never start a new header.
std::string one_line(std::string text) {
  std::replace_if(
      text.begin(), text.end(), [](char c) { return c == '\r' || c == '\n'; }, ' ');
  return text;
}

}  // namespace

std::string header_text(const std::string& text) {
  if (printable_ascii(text)) return text;
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    // 45 bytes give 60 base64 characters: each encoded word within RFC 2047's 75.
    std::size_t end = std::min(at + 45, text.size());
    while (end < text.size() && end > at + 1 &&
           (static_cast<unsigned char>(text[end]) & 0xc0) == 0x80)
      --end;
    if (!out.empty()) out += "\r\n ";
    out += "=?UTF-8?B?" + base64_encode(text.substr(at, end - at)) + "?=";
    at = end;
  }
  return out;
}

std::string mailbox_address(const std::string& mailbox) {
  std::string address = mailbox;
  const std::size_t open = mailbox.rfind('<');
  if (open != std::string::npos) {
    const std::size_t close = mailbox.find('>', open);
    if (close == std::string::npos || close + 1 != mailbox.size()) return {};
    address = mailbox.substr(open + 1, close - open - 1);
  }
  const std::size_t at = address.find('@');
  const bool valid = !address.empty() && address.size() <= 254 && at != std::string::npos &&
                     at > 0 && at + 1 < address.size() &&
                     address.find('@', at + 1) == std::string::npos &&
                     std::all_of(address.begin(), address.end(), [](unsigned char c) {
                       return c > 0x20 && c < 0x7f && c != '<' && c != '>' && c != '(' &&
                              c != ')' && c != ',' && c != ';' && c != '"' && c != '\\';
                     });
  return valid ? address : std::string();
}

std::string mail_message(const smtp_settings& settings, const mail& m, long long now_s) {
  const std::string from_address = mailbox_address(settings.from);
  std::string from = one_line(settings.from);
  const std::size_t open = from.rfind('<');
  if (open != std::string::npos && open > 0 && !printable_ascii(from.substr(0, open))) {
    std::string name = from.substr(0, open);
    while (!name.empty() && name.back() == ' ') name.pop_back();
    from = header_text(name) + " " + from.substr(open);
  }
  std::string out;
  out += "From: " + from + "\r\n";
  out += "To: <" + one_line(m.to) + ">\r\n";
  out += "Subject: " + header_text(one_line(m.subject)) + "\r\n";
  out += "Date: " + date_of(now_s) + "\r\n";
  out += "Message-ID: " + message_id(m.message_id, from_address) + "\r\n";
  if (!m.unsubscribe_url.empty()) {  // RFC 2369 and RFC 8058: one click, no page to fill in
    out += "List-Unsubscribe: <" + one_line(m.unsubscribe_url) + ">\r\n";
    out += "List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n";
  }
  out += "MIME-Version: 1.0\r\n";
  out += "Content-Type: text/plain; charset=UTF-8\r\n";
  out += "Content-Transfer-Encoding: 8bit\r\n";
  out += "\r\n";
  out += body_lines(m.text);
  return out;
}

std::string dot_stuffed(const std::string& message) {
  std::string out;
  out.reserve(message.size() + 8);
  bool line_start = true;
  for (const char c : message) {
    if (line_start && c == '.') out.push_back('.');
    out.push_back(c);
    line_start = c == '\n';
  }
  if (!line_start) out += "\r\n";
  return out + ".\r\n";
}

}  // namespace carcassonne::server::notify
