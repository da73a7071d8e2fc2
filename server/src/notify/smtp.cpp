// E-mail through the host's SMTP relay (RFC 5321): EHLO, STARTTLS when offered (RFC 3207) or
// implicit TLS (smtps://, RFC 8314), AUTH PLAIN (RFC 4616) only over TLS or to this machine,
// one message per connection.
#include <unistd.h>

#include <cctype>
#include <ctime>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/base64.hpp"
#include "notify/channels.hpp"
#include "notify/mail_text.hpp"
#include "outgoing/connection.hpp"
#include "outgoing/url.hpp"

namespace carcassonne::server::notify {

namespace {

using outcome = delivery::outcome;

struct relay {
  bool implicit_tls = false;
  std::string host, port, user, password;
};

std::string percent_decoded(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

// smtp://[user:password@]host[:port] (port 25) or smtps://... (port 465).
std::optional<relay> parse_relay(const std::string& url, std::string& why) {
  relay r;
  std::size_t at = 0;
  if (url.rfind("smtps://", 0) == 0) {
    r.implicit_tls = true, r.port = "465", at = 8;
  } else if (url.rfind("smtp://", 0) == 0) {
    r.port = "25", at = 7;
  } else {
    return why = "not an smtp:// or smtps:// URL", std::nullopt;
  }
  std::string authority = url.substr(at, url.find('/', at) - at);
  const std::size_t user_end = authority.rfind('@');
  if (user_end != std::string::npos) {
    const std::string info = authority.substr(0, user_end);
    const std::size_t colon = info.find(':');
    r.user = percent_decoded(info.substr(0, colon));
    if (colon != std::string::npos) r.password = percent_decoded(info.substr(colon + 1));
    authority.erase(0, user_end + 1);
  }
  auto hp = outgoing::parse_authority(authority, r.port, why);
  if (!hp) return std::nullopt;
  r.host = std::move(hp->host);
  r.port = std::move(hp->port);
  return r;
}

std::string this_host() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "localhost";
  return name;
}

// One conversation with the relay; every step's failure becomes the delivery's outcome.
class dialogue {
 public:
  explicit dialogue(outgoing::connection& c) : c_(c) {}

  std::optional<delivery> reply(int expected_class, const char* step,
                                std::vector<std::string>* lines = nullptr) {
    for (;;) {
      std::string line;
      if (auto f = c_.read_line(line, 4096, step)) return failed(*f);
      while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
      if (line.size() < 3 || line.find_first_not_of("0123456789") < 3)
        return delivery{outcome::retry, 0, std::string("smtp: ") + step + ": not SMTP: " + line};
      if (lines) lines->push_back(line.size() > 4 ? line.substr(4) : "");
      if (line.size() > 3 && line[3] == '-') continue;  // a multiline reply goes on
      const int code = std::stoi(line.substr(0, 3));
      last_code_ = code;
      if (code / 100 == expected_class) return std::nullopt;
      // 4xx: the relay asks to come back later; 5xx: it refuses this message for good.
      const outcome o = code / 100 == 4 ? outcome::retry : outcome::gone;
      return delivery{o, code, std::string("smtp: ") + step + ": " + line};
    }
  }

  std::optional<delivery> say(const std::string& command, int expected_class, const char* step,
                              std::vector<std::string>* lines = nullptr) {
    if (auto f = c_.write(command, step)) return failed(*f);
    return reply(expected_class, step, lines);
  }

  static delivery failed(const outgoing::failure& f) {
    return {outcome::retry, 0, "smtp: " + f.message};
  }

  int last_code() const { return last_code_; }

 private:
  outgoing::connection& c_;
  int last_code_ = 0;
};

bool offers(const std::vector<std::string>& capabilities, const std::string& keyword) {
  for (std::string line : capabilities) {
    for (char& ch : line) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    if (line == keyword || line.rfind(keyword + " ", 0) == 0) return true;
  }
  return false;
}

bool offers_auth_plain(const std::vector<std::string>& capabilities) {
  for (std::string line : capabilities) {
    for (char& ch : line) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    if (line.rfind("AUTH ", 0) == 0 && (" " + line + " ").find(" PLAIN ") != std::string::npos)
      return true;
  }
  return false;
}

bool loopback_host(const std::string& host) {
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

}  // namespace

delivery send_mail(const smtp_settings& settings, const mail& m, const outgoing_policy& policy) {
  std::string why;
  const auto r = parse_relay(settings.url, why);
  if (!r) return {outcome::gone, 0, "smtp: " + why};
  const std::string from = mailbox_address(settings.from);
  const std::string to = mailbox_address(m.to);
  if (from.empty()) return {outcome::gone, 0, "smtp: a bad sender address"};
  if (to.empty() || to != m.to) return {outcome::gone, 0, "smtp: a bad recipient address"};

  outgoing::connection c(policy.timeout, policy.extra_ca_pem);
  // The relay is the host's own choice: private addresses are fine.
  if (auto f = c.open(r->host, r->port, outgoing::reach::any)) return dialogue::failed(*f);
  bool tls = false;
  if (r->implicit_tls) {
    if (auto f = c.start_tls(r->host)) return dialogue::failed(*f);
    tls = true;
  }
  dialogue d(c);
  if (auto failed = d.reply(2, "greeting")) return *failed;
  const std::string ehlo = "EHLO " + this_host() + "\r\n";
  std::vector<std::string> capabilities;
  if (auto failed = d.say(ehlo, 2, "EHLO", &capabilities)) return *failed;
  if (!tls && offers(capabilities, "STARTTLS")) {
    if (auto failed = d.say("STARTTLS\r\n", 2, "STARTTLS")) return *failed;
    // Bytes sent before the handshake would be read as if protected (CVE-2011-0411's kind).
    if (c.unread()) return {outcome::retry, 0, "smtp: STARTTLS: commands injected before TLS"};
    if (auto f = c.start_tls(r->host)) return dialogue::failed(*f);
    tls = true;
    capabilities.clear();
    if (auto failed = d.say(ehlo, 2, "EHLO", &capabilities)) return *failed;
  }
  if (!r->user.empty()) {
    if (!tls && !loopback_host(r->host))
      return {outcome::gone, 0, "smtp: the relay offers no TLS: credentials not sent"};
    if (!offers_auth_plain(capabilities))
      return {outcome::gone, 0, "smtp: the relay does not offer AUTH PLAIN"};
    const std::string token = base64_encode(std::string(1, '\0') + r->user + '\0' + r->password);
    if (auto failed = d.say("AUTH PLAIN " + token + "\r\n", 2, "AUTH")) return *failed;
  }
  const std::string body_kind = offers(capabilities, "8BITMIME") ? " BODY=8BITMIME" : "";
  if (auto failed = d.say("MAIL FROM:<" + from + ">" + body_kind + "\r\n", 2, "MAIL FROM"))
    return *failed;
  if (auto failed = d.say("RCPT TO:<" + to + ">\r\n", 2, "RCPT TO")) return *failed;
  if (auto failed = d.say("DATA\r\n", 3, "DATA")) return *failed;
  const std::string text = dot_stuffed(mail_message(settings, m, std::time(nullptr)));
  if (auto failed = d.say(text, 2, "message")) return *failed;
  const int accepted = d.last_code();
  (void)d.say("QUIT\r\n", 2, "QUIT");  // the message is accepted: what follows changes nothing
  return {outcome::delivered, accepted, ""};
}

}  // namespace carcassonne::server::notify
