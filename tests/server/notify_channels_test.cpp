// The notification channels (notify/channels.hpp) against receivers the tests start on loopback:
// Web Push to a push service that checks each VAPID token and decrypts each message with its own
// code (notify_push_service.hpp), webhooks to a receiver that checks the signature, e-mail to an
// SMTP sink (notify_smtp_sink.hpp); the RFC 8291 example byte for byte; and the addresses a
// user's URL may not lead to (server-side request forgery).
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <chrono>
#include <fstream>

#include "free_port.hpp"
#include "notify/channels.hpp"
#include "notify/mail_text.hpp"
#include "notify/web_push_crypto.hpp"
#include "notify_push_service.hpp"
#include "notify_smtp_sink.hpp"
#include "outgoing/http_client.hpp"
#include "outgoing/url.hpp"
#include "temp_dir.hpp"

namespace notify_channels_tests {

using namespace carcassonne::server::notify;
using carcassonne::server::base64url_decode;
using carcassonne::server::base64url_encode;
using carcassonne::testing::notify_answer;
using carcassonne::testing::notify_https_server;
using carcassonne::testing::notify_request;
using carcassonne::testing::oidc_certificate;
using carcassonne::testing::oidc_self_signed;
using carcassonne::testing::push_browser;
using carcassonne::testing::push_service;
using carcassonne::testing::smtp_sink;
using carcassonne::testing::smtp_sink_options;
using outcome = delivery::outcome;
using namespace std::chrono_literals;

// The test CA's certificate, for the loopback receivers; private addresses allowed (they are).
const oidc_certificate& notify_ca() {
  static const oidc_certificate c = oidc_self_signed("IP:127.0.0.1,DNS:localhost");
  return c;
}

outgoing_policy loopback_policy(std::chrono::milliseconds timeout = 3000ms) {
  outgoing_policy p;
  p.allow_private = true;
  p.timeout = timeout;
  p.extra_ca_pem = notify_ca().cert_pem;
  return p;
}

std::string decoded(const std::string& b64url) {
  const auto d = base64url_decode(b64url);
  REQUIRE(d);
  return *d;
}

TEST_CASE("notify: RFC 8291 Appendix A: the example's keys and salt give the RFC's message") {
  const push_subscription s{"https://push.example.net/push/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV",
                            "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8"
                            "pZGH6SRpkNtoIAiw4",
                            "BTBZMqHH6r4Tts7J_aSIgg"};
  const std::string as_private = decoded("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw");
  const std::string salt = decoded("DGv6ra1nlYgDCS1FRnbzlw");
  std::string error;
  const auto body =
      encrypt_push_with(s, "When I grow up, I want to be a watermelon", as_private, salt, error);
  REQUIRE_MESSAGE(body, error);
  CHECK(base64url_encode(*body) ==
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYW"
        "AmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgS"
        "xsj_Qulcy4a-fN");

  // Malformed subscriptions and inputs are refused, with a reason.
  push_subscription off_curve = s;
  std::string point = decoded(s.p256dh);
  point[64] = static_cast<char>(point[64] ^ 1);
  off_curve.p256dh = base64url_encode(point);
  CHECK_FALSE(encrypt_push_with(off_curve, "x", as_private, salt, error));
  CHECK(error == "keys.p256dh is not a point of P-256");
  push_subscription short_auth = s;
  short_auth.auth = base64url_encode("0123456789");
  CHECK_FALSE(encrypt_push_with(short_auth, "x", as_private, salt, error));
  CHECK(error == "keys.auth is not 16 bytes of base64url");
  CHECK_FALSE(
      encrypt_push_with(s, std::string(max_push_plaintext + 1, 'x'), as_private, salt, error));
  CHECK(encrypt_push_with(s, std::string(max_push_plaintext, 'x'), as_private, salt, error));
  // Fresh key and salt every time: two encryptions of one text differ.
  const auto a = encrypt_push(s, "same", error), b = encrypt_push(s, "same", error);
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->substr(0, 16) != b->substr(0, 16));
  CHECK(a->substr(21, 65) != b->substr(21, 65));
}

TEST_CASE("notify: the VAPID key pair is made once, kept readable by the server only, reused") {
  carcassonne::server::test::temp_dir dir("notify-vapid");
  const std::string path = (dir.path / "vapid.pem").string();
  std::string error;
  const auto made = load_or_create_vapid_keys(path, error);
  REQUIRE_MESSAGE(made, error);
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  CHECK(decoded(made->public_key).size() == 65);
  CHECK(decoded(made->public_key)[0] == '\x04');
  const auto again = load_or_create_vapid_keys(path, error);
  REQUIRE(again);
  CHECK(again->public_key == made->public_key);
  CHECK(again->private_pem == made->private_pem);
  CHECK(generate_vapid_keys().public_key != made->public_key);

  std::ofstream(path, std::ios::trunc) << "not a key";
  CHECK_FALSE(load_or_create_vapid_keys(path, error));
  CHECK(error == path + ": not a P-256 private key (PEM)");
  CHECK_FALSE(load_or_create_vapid_keys((dir.path / "none" / "vapid.pem").string(), error));
}

TEST_CASE("notify: Web Push reaches a push service that checks VAPID and decrypts the message") {
  const vapid_keys keys = generate_vapid_keys();
  push_browser browser;
  push_service service(notify_ca(), browser, keys.public_key);
  const push_subscription s{service.endpoint("sub1"), browser.p256dh(), browser.auth_b64()};
  const std::string subject = "mailto:games@example.org";
  const std::string payload =
      R"({"title":"Your turn","body":"Ann played — Ü","url":"/?room=ab12","tag":"ab12"})";

  const auto t0 = std::time(nullptr);
  const delivery d =
      send_web_push(s, {payload, 3600, "high", "room-ab12"}, keys, subject, loopback_policy());
  CHECK_MESSAGE(d.result == outcome::delivered, d.error);
  CHECK(d.status == 201);
  auto got = service.messages();
  REQUIRE(got.size() == 1);
  CHECK(got[0].problem == "");
  CHECK(got[0].plaintext == payload);
  CHECK(got[0].ttl == "3600");
  CHECK(got[0].urgency == "high");
  CHECK(got[0].topic == "room-ab12");
  CHECK(got[0].claims["aud"] == service.origin());
  CHECK(got[0].claims["sub"] == subject);
  const long long exp = got[0].claims["exp"].get<long long>();
  CHECK(exp > t0);
  CHECK(exp <= t0 + 24 * 3600);

  // A malformed topic is left out, an unknown urgency becomes normal: the message still goes.
  CHECK(send_web_push(s, {"{}", 60, "urgent!", "not a topic"}, keys, subject, loopback_policy())
            .result == outcome::delivered);
  got = service.messages();
  REQUIRE(got.size() == 2);
  CHECK(got[1].topic == "");
  CHECK(got[1].urgency == "normal");
  CHECK(got[1].plaintext == "{}");

  // The push service's answers: 404 and 410 end the subscription, 429 and 5xx come back later,
  // another 4xx is final, a redirect is not followed.
  const std::pair<int, outcome> answers[] = {{410, outcome::gone},  {404, outcome::gone},
                                             {429, outcome::retry}, {503, outcome::retry},
                                             {400, outcome::gone},  {302, outcome::retry}};
  for (const auto& [status, expected] : answers) {
    service.answer_with(status);
    const delivery r = send_web_push(s, {"{}"}, keys, subject, loopback_policy());
    CHECK(r.status == status);
    CHECK(r.result == expected);
  }
  CHECK(service.messages().size() == 2 + std::size(answers));

  // Keys that are no subscription's: refused before anything is sent.
  push_subscription broken = s;
  broken.p256dh = "AAAA";
  CHECK(send_web_push(broken, {"{}"}, keys, subject, loopback_policy()).result == outcome::gone);
  CHECK(service.messages().size() == 2 + std::size(answers));
  // Signed with another key than the subscription's: the service refuses it (400: gone).
  service.answer_with(201);
  const delivery other =
      send_web_push(s, {"{}"}, generate_vapid_keys(), subject, loopback_policy());
  CHECK(other.result == outcome::gone);
  CHECK(service.messages().back().problem == "k= is another key");
}

// The receiver's side of a webhook's signature, written apart: HMAC() over "timestamp.body".
std::string receiver_signature(const std::string& secret, const std::string& timestamp,
                               const std::string& body) {
  const std::string input = timestamp + "." + body;
  unsigned char mac[32];
  unsigned int length = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
       reinterpret_cast<const unsigned char*>(input.data()), input.size(), mac, &length);
  static constexpr char hex[] = "0123456789abcdef";
  std::string out = "sha256=";
  for (unsigned int i = 0; i < length; ++i) out += {hex[mac[i] >> 4], hex[mac[i] & 15]};
  return out;
}

TEST_CASE("notify: a webhook is signed; a receiver that fails or is slow gives retry in time") {
  const std::string secret = "whsec-3f9a";
  std::atomic<int> status{204};
  std::atomic<int> hold_ms{0};
  notify_https_server receiver(notify_ca(), [&](const notify_request& r) {
    notify_answer a;
    const bool signed_well =
        r["X-Carcassonne-Signature"] ==
        receiver_signature(secret, std::string(r["X-Carcassonne-Timestamp"]), r.body());
    a.status = signed_well ? status.load() : 401;
    a.hold_back = std::chrono::milliseconds(hold_ms.load());
    return a;
  });
  const std::string url = receiver.url("/hooks/club?x=1");
  const webhook_message m{"your_turn", "ab12:7:your_turn:p1",
                          R"({"event":"your_turn","room":"ab12"})", 1765000000};

  const delivery d = send_webhook(url, secret, m, loopback_policy());
  CHECK_MESSAGE(d.result == outcome::delivered, d.error);
  CHECK(d.status == 204);
  auto got = receiver.requests();
  REQUIRE(got.size() == 1);
  CHECK(got[0].method() == boost::beast::http::verb::post);
  CHECK(got[0].target() == "/hooks/club?x=1");
  CHECK(got[0]["Content-Type"] == "application/json");
  CHECK(got[0]["X-Carcassonne-Event"] == "your_turn");
  CHECK(got[0]["X-Carcassonne-Delivery"] == "ab12:7:your_turn:p1");
  CHECK(got[0]["X-Carcassonne-Timestamp"] == "1765000000");
  CHECK(got[0].body() == m.json_body);
  CHECK(webhook_signature(secret, 1765000000, m.json_body) ==
        receiver_signature(secret, "1765000000", m.json_body));

  // Another secret: the receiver refuses the signature (401, final).
  CHECK(send_webhook(url, "guess", m, loopback_policy()).result == outcome::gone);
  status = 500;
  const delivery failing = send_webhook(url, secret, m, loopback_policy());
  CHECK(failing.result == outcome::retry);
  CHECK(failing.status == 500);
  CHECK(failing.error == "the webhook answered HTTP 500");

  // Slower than the timeout: given up at the deadline, to be tried again.
  status = 200;
  hold_ms = 1000;
  const auto t0 = std::chrono::steady_clock::now();
  const delivery slow = send_webhook(url, secret, m, loopback_policy(300ms));
  const auto waited = std::chrono::steady_clock::now() - t0;
  CHECK(slow.result == outcome::retry);
  CHECK(slow.status == 0);
  // Normally in the exchange; on a loaded machine the deadline may pass in an earlier step
  // (the name lookup runs on Asio's resolver thread): the same deadline whatever the step.
  CHECK(slow.error.ends_with(": no answer within 300 ms"));
  CHECK(waited >= 300ms);
  CHECK(waited < 1000ms);  // before the receiver would have answered
  hold_ms = 0;

  // Nobody listening: retry; TLS the receiver's CA did not sign: retry.
  const std::string closed =
      "https://127.0.0.1:" + std::to_string(carcassonne::testing::free_loopback_port()) + "/";
  CHECK(send_webhook(closed, secret, m, loopback_policy()).result == outcome::retry);
  outgoing_policy untrusting = loopback_policy();
  untrusting.extra_ca_pem.clear();
  const delivery untrusted = send_webhook(url, secret, m, untrusting);
  CHECK(untrusted.result == outcome::retry);
  CHECK(untrusted.error.find("TLS handshake: certificate verify failed") == 0);
}

TEST_CASE("notify: URLs and addresses a user's endpoint may not lead to (SSRF)") {
  const outgoing_policy strict;
  std::string why;
  CHECK(url_acceptable("https://fcm.googleapis.com/fcm/send/abc:def", strict, why));
  CHECK(url_acceptable("https://updates.push.services.mozilla.com/wpush/v2/x", strict, why));
  CHECK(url_acceptable("https://8.8.8.8/hook", strict, why));
  CHECK(url_acceptable("https://[2606:4700:4700::1111]:8443/hook", strict, why));
  const std::pair<const char*, const char*> refused[] = {
      {"https://127.0.0.1/", "a private address: 127.0.0.1 is loopback"},
      {"https://10.1.2.3/", "a private address: 10.1.2.3 is private (RFC 1918)"},
      {"https://192.168.0.10:8080/x", "a private address: 192.168.0.10 is private (RFC 1918)"},
      {"https://172.20.0.1/", "a private address: 172.20.0.1 is private (RFC 1918)"},
      {"https://169.254.169.254/latest/meta-data/",
       "a private address: 169.254.169.254 is link-local"},
      {"https://0.0.0.0/", "a private address: 0.0.0.0 is unspecified"},
      {"https://224.0.0.1/", "a private address: 224.0.0.1 is multicast"},
      {"https://[::1]/", "a private address: ::1 is loopback"},
      {"https://[::]/", "a private address: :: is unspecified"},
      {"https://[fc00::1]/", "a private address: fc00::1 is unique local (ULA)"},
      {"https://[fd12:3456::1]/", "a private address: fd12:3456::1 is unique local (ULA)"},
      {"https://[fe80::1]/", "a private address: fe80::1 is link-local"},
      {"https://[ff02::1]/", "a private address: ff02::1 is multicast"},
      {"https://[::ffff:10.0.0.1]/",
       "a private address: ::ffff:10.0.0.1 is private (RFC 1918) (IPv4-mapped)"},
      {"https://[::ffff:127.0.0.1]/",
       "a private address: ::ffff:127.0.0.1 is loopback (IPv4-mapped)"},
      {"https://localhost/", "a private address: localhost is this machine"},
      {"https://LocalHost./", "a private address: LocalHost. is this machine"},
      {"https://push.localhost/", "a private address: push.localhost is this machine"},
      {"https://2130706433/", "not a host name: 2130706433"},
      {"https://0x7f.1/", "not a host name: 0x7f.1"},
      {"http://push.example.net/", "https:// only: http://push.example.net/"},
      {"https://user@push.example.net/", "a URL with user information"},
      {"https://user:pw@push.example.net/", "a URL with user information"},
      {"https://push.example.net/a b", "a URL with a space or a control character"},
      {"ftp://push.example.net/", "not an http(s) URL: ftp://push.example.net/"},
      {"https://push.example.net:0/", "a bad port in https://push.example.net:0/"},
  };
  for (const auto& entry : refused) {
    const char* url = entry.first;
    CAPTURE(url);
    CHECK_FALSE(url_acceptable(url, strict, why));
    CHECK(why == entry.second);
  }
  // The host (and tests) may allow private addresses and plain http.
  outgoing_policy lenient;
  lenient.allow_private = true;
  CHECK(url_acceptable("https://10.1.2.3/", lenient, why));
  CHECK(url_acceptable("https://localhost:8443/", lenient, why));
  CHECK_FALSE(url_acceptable("http://10.1.2.3/", lenient, why));
  lenient.allow_plain_http = true;
  CHECK(url_acceptable("http://10.1.2.3/", lenient, why));
  CHECK_FALSE(url_acceptable("http://user@10.1.2.3/", lenient, why));

  // At send time: the refused URL never leaves (gone), and a name is judged by where it leads,
  // resolved once: "localhost" and a numeric form reach a loopback receiver only when allowed.
  std::atomic<int> reached{0};
  notify_https_server receiver(notify_ca(), [&](const notify_request&) {
    ++reached;
    return notify_answer{200};
  });
  outgoing_policy trusting = strict;
  trusting.extra_ca_pem = notify_ca().cert_pem;
  const webhook_message m{"game_over", "k1", "{}", 1};
  const delivery d = send_webhook(receiver.url("/"), "s", m, trusting);
  CHECK(d.result == outcome::gone);
  CHECK(d.error == "a private address: 127.0.0.1 is loopback");
  namespace out = carcassonne::server::outgoing;
  out::http_limits limits;
  limits.extra_ca_pem = notify_ca().cert_pem;
  out::failure f;
  const std::string port = std::to_string(receiver.port());
  CHECK_FALSE(out::fetch({"POST", "https://localhost:" + port + "/"}, limits, f));
  CHECK(f.what == out::failure::kind::refused);
  CHECK(f.message.find("name lookup: localhost leads to ") == 0);
  CHECK_FALSE(out::fetch({"POST", "https://2130706433:" + port + "/"}, limits, f));
  CHECK(f.message == "name lookup: 2130706433 leads to 127.0.0.1, loopback");
  CHECK(reached == 0);
  limits.where = out::reach::any;
  const auto answer = out::fetch({"POST", "https://localhost:" + port + "/"}, limits, f);
  REQUIRE_MESSAGE(answer, f.message);
  CHECK(answer->status == 200);
  CHECK(reached == 1);
  // A header that would smuggle another header is refused before any connection.
  CHECK_FALSE(
      out::fetch({"POST", "https://localhost:" + port + "/", {{"Topic", "a\r\nX: y"}}}, limits, f));
  CHECK(f.what == out::failure::kind::refused);
  CHECK(reached == 1);
}

smtp_settings sink_relay(const smtp_sink& sink, const std::string& scheme,
                         const std::string& user_info = "") {
  return {scheme + "://" + user_info + "127.0.0.1:" + std::to_string(sink.port()),
          "Carcassonne <games@example.org>"};
}

const mail turn_mail{"ann@example.net", "Your turn — Ärger im Turm (ab12)",
                     "Bob placed a tile.\n.hidden line\n..two dots\nOpen /?room=ab12\n",
                     "ab12.7.your_turn.p1", "https://games.example.org/api/unsubscribe?token=t1"};

TEST_CASE("notify: a host and port as the push, webhook and SMTP URLs read them") {
  using carcassonne::server::outgoing::parse_authority;
  std::string why;
  const auto v6 = parse_authority("[::1]:2525", "25", why);
  REQUIRE(v6);
  CHECK(v6->host == "::1");
  CHECK(v6->port == "2525");
  const auto plain = parse_authority("mail.example.net", "465", why);
  REQUIRE(plain);
  CHECK(plain->host == "mail.example.net");
  CHECK(plain->port == "465");
  CHECK_FALSE(parse_authority("mail.example.net:0", "25", why));
  CHECK(why == "a bad port");
  CHECK_FALSE(parse_authority("mail.example.net:65536", "25", why));
  CHECK(why == "a bad port");
  CHECK_FALSE(parse_authority("[::1]x", "25", why));
  CHECK(why == "a bad host");
  CHECK_FALSE(parse_authority("[::1", "25", why));
  CHECK(why == "a bad IPv6 address");
  CHECK_FALSE(parse_authority(":25", "25", why));
  CHECK(why == "no host");
}

TEST_CASE("notify: e-mail over STARTTLS with AUTH PLAIN: the dialogue and the message") {
  smtp_sink_options options;
  options.starttls = true;
  options.user = "games";
  options.password = "p@ss:word";
  smtp_sink sink(options, notify_ca());
  const delivery d =
      send_mail(sink_relay(sink, "smtp", "games:p%40ss%3Aword@"), turn_mail, loopback_policy());
  CHECK_MESSAGE(d.result == outcome::delivered, d.error);
  CHECK(d.status == 250);
  const auto sessions = sink.sessions(1);
  REQUIRE(sessions.size() == 1);
  const auto& s = sessions[0];
  CHECK(s.problem == "");
  REQUIRE(s.commands.size() == 8);
  CHECK(s.commands[0].rfind("EHLO ", 0) == 0);
  CHECK(s.commands[1] == "STARTTLS");
  CHECK(s.commands[2] == s.commands[0]);
  CHECK(s.commands[3].rfind("AUTH PLAIN ", 0) == 0);
  CHECK(s.commands[4] == "MAIL FROM:<games@example.org> BODY=8BITMIME");
  CHECK(s.commands[5] == "RCPT TO:<ann@example.net>");
  CHECK(s.commands[6] == "DATA");
  CHECK(s.commands[7] == "QUIT");
  CHECK(s.tls_at_mail);
  CHECK(s.auth_user == "games");
  CHECK(s.auth_password == "p@ss:word");
  // Dot-stuffed on the wire, the text itself once undone.
  CHECK(s.raw_data.find("\r\n..hidden line\r\n...two dots\r\n") != std::string::npos);
  const std::string& text = s.message;
  const std::size_t blank = text.find("\r\n\r\n");
  REQUIRE(blank != std::string::npos);
  CHECK(text.substr(blank + 4) ==
        "Bob placed a tile.\r\n.hidden line\r\n..two dots\r\nOpen /?room=ab12\r\n");
  const std::string headers = text.substr(0, blank + 2);
  CHECK(headers.find("From: Carcassonne <games@example.org>\r\n") == 0);
  CHECK(headers.find("\r\nTo: <ann@example.net>\r\n") != std::string::npos);
  CHECK(headers.find("\r\nSubject: =?UTF-8?B?" +
                     carcassonne::server::base64_encode("Your turn — Ärger im Turm (ab12)") +
                     "?=\r\n") != std::string::npos);
  CHECK(headers.find("\r\nMessage-ID: <ab12.7.your_turn.p1@example.org>\r\n") != std::string::npos);
  CHECK(headers.find("\r\nList-Unsubscribe: <https://games.example.org/api/unsubscribe?token=t1>"
                     "\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n") !=
        std::string::npos);
  CHECK(headers.find("\r\nContent-Type: text/plain; charset=UTF-8\r\n") != std::string::npos);
  CHECK(headers.find("\r\nDate: ") != std::string::npos);
  CHECK(headers.find("+0000\r\n") != std::string::npos);
}

TEST_CASE("notify: e-mail over implicit TLS; 4xx retry, 5xx gone, a silent relay retry in time") {
  smtp_sink_options implicit;
  implicit.implicit_tls = true;
  smtp_sink tls_sink(implicit, notify_ca());
  const delivery d = send_mail(sink_relay(tls_sink, "smtps"), turn_mail, loopback_policy());
  CHECK_MESSAGE(d.result == outcome::delivered, d.error);
  const auto tls_sessions = tls_sink.sessions(1);
  REQUIRE(tls_sessions.size() == 1);
  CHECK(tls_sessions[0].tls_at_mail);
  CHECK(tls_sessions[0].problem == "");
  // Implicit TLS to a relay that does not trust... the relay's certificate not trusted: retry.
  outgoing_policy untrusting = loopback_policy();
  untrusting.extra_ca_pem.clear();
  CHECK(send_mail(sink_relay(tls_sink, "smtps"), turn_mail, untrusting).result == outcome::retry);

  smtp_sink_options later;
  later.rcpt_reply = 451;
  smtp_sink busy(later, notify_ca());
  const delivery r = send_mail(sink_relay(busy, "smtp"), turn_mail, loopback_policy());
  CHECK(r.result == outcome::retry);
  CHECK(r.status == 451);
  CHECK(r.error == "smtp: RCPT TO: 451 not now or not here");
  const auto busy_sessions = busy.sessions(1);
  REQUIRE(busy_sessions.size() == 1);
  CHECK_FALSE(busy_sessions[0].tls_at_mail);  // no STARTTLS offered: plain, no credentials

  smtp_sink_options never;
  never.rcpt_reply = 550;
  smtp_sink refusing(never, notify_ca());
  const delivery g = send_mail(sink_relay(refusing, "smtp"), turn_mail, loopback_policy());
  CHECK(g.result == outcome::gone);
  CHECK(g.status == 550);

  smtp_sink_options wrong;
  wrong.starttls = true;
  wrong.user = "games";
  wrong.password = "right";
  smtp_sink auth_sink(wrong, notify_ca());
  const delivery a =
      send_mail(sink_relay(auth_sink, "smtp", "games:wrong@"), turn_mail, loopback_policy());
  CHECK(a.result == outcome::gone);
  CHECK(a.status == 535);

  smtp_sink_options quiet;
  quiet.silent = true;
  smtp_sink silent(quiet, notify_ca());
  const auto t0 = std::chrono::steady_clock::now();
  const delivery s = send_mail(sink_relay(silent, "smtp"), turn_mail, loopback_policy(300ms));
  const auto waited = std::chrono::steady_clock::now() - t0;
  CHECK(s.result == outcome::retry);
  // The greeting, unless a loaded machine spent the time in an earlier step (as above).
  CHECK(s.error.starts_with("smtp: "));
  CHECK(s.error.ends_with(": no answer within 300 ms"));
  CHECK(waited >= 300ms);
  CHECK(waited < 1500ms);

  // Addresses that would break the dialogue are refused before connecting.
  mail bad = turn_mail;
  bad.to = "ann@example.net>\r\nRCPT TO:<eve@example.net";
  CHECK(send_mail(sink_relay(silent, "smtp"), bad, loopback_policy()).result == outcome::gone);
  CHECK(send_mail({"mail.example.org", "games@example.org"}, turn_mail, loopback_policy()).result ==
        outcome::gone);
}

TEST_CASE("notify: mail text: encoded words, dot-stuffing, addresses") {
  CHECK(header_text("Your turn") == "Your turn");
  const std::string long_subject(40, 'x');
  const std::string encoded = header_text(long_subject + "ÄÖÜ€ and more text to fold");
  // Every encoded word within 75 characters, folded, never cutting a UTF-8 sequence.
  std::size_t at = 0;
  std::string joined;
  while (at < encoded.size()) {
    const std::size_t end = std::min(encoded.find("\r\n ", at), encoded.size());
    const std::string word = encoded.substr(at, end - at);
    CHECK(word.size() <= 75);
    REQUIRE(word.rfind("=?UTF-8?B?", 0) == 0);
    std::string b64 = word.substr(10, word.size() - 12);
    for (char& c : b64) c = c == '+' ? '-' : c == '/' ? '_' : c;
    while (!b64.empty() && b64.back() == '=') b64.pop_back();
    const auto bytes = base64url_decode(b64);
    REQUIRE(bytes);
    CHECK((static_cast<unsigned char>(bytes->front()) & 0xc0) != 0x80);
    joined += *bytes;
    at = end + 3;
  }
  CHECK(joined == long_subject + "ÄÖÜ€ and more text to fold");
  CHECK(dot_stuffed(".a\r\nb.\r\n.\r\n") == "..a\r\nb.\r\n..\r\n.\r\n");
  CHECK(dot_stuffed("no break") == "no break\r\n.\r\n");
  CHECK(mailbox_address("Carcassonne <games@example.org>") == "games@example.org");
  CHECK(mailbox_address("ann@example.net") == "ann@example.net");
  CHECK(mailbox_address("ann@example.net\r\n") == "");
  CHECK(mailbox_address("ann example.net") == "");
  CHECK(mailbox_address("a@b@c") == "");
  // A subject with a line break cannot start a header of its own.
  const std::string text =
      mail_message({"smtp://x", "g@example.org"},
                   {"a@example.net", "hi\r\nBcc: eve@example.net", "t", "k", ""}, 0);
  CHECK(text.find("\r\nBcc:") == std::string::npos);
  CHECK(text.find("Date: Thu, 01 Jan 1970 00:00:00 +0000\r\n") != std::string::npos);
  CHECK(text.find("List-Unsubscribe") == std::string::npos);
}

}  // namespace notify_channels_tests
