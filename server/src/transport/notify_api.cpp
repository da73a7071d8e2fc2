// The notifications' HTTP routes (docs/protocol.md §23): a signed-in player's games and
// notification settings, push subscriptions, and the one-click unsubscribe that needs no session.
// Answered from the accounts' worker pool: the database never runs on an I/O thread.
#include <spdlog/spdlog.h>

#include <charconv>

#include "transport/cookies.hpp"
#include "transport/net.hpp"

namespace carcassonne::server {

namespace {

using json = nlohmann::json;
using response = http::response<http::string_body>;
using request = http::request<http::string_body>;

response json_answer(const request& req, int status, const json& body) {
  return json_response(req, static_cast<http::status>(status), body);
}

response refusal(const request& req, int status, const std::string& code,
                 const std::string& message) {
  return json_answer(req, status, {{"error", code}, {"message", message}});
}

// The token of a query string, percent-decoded (tokens hold [a-z0-9._-] only).
std::string token_of(std::string_view target) {
  const auto q = target.find('?');
  if (q == std::string_view::npos) return {};
  auto query = target.substr(q + 1);
  while (!query.empty()) {
    const auto amp = query.find('&');
    const auto pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.starts_with("token=")) return std::string(pair.substr(6));
  }
  return {};
}

// A page for a person who clicked the link (GET); mail clients' one-click POST (RFC 8058) reads
// the JSON.
response unsubscribe_page(const request& req, const notify::answer& a) {
  if (req.method() == http::verb::post || !a.error.empty())
    return json_answer(req, a.status, a.doc);
  response res{http::status::ok, req.version()};
  res.set(http::field::server, "carcassonne");
  res.set(http::field::content_type, "text/html; charset=utf-8");
  res.set(http::field::cache_control, "no-store");
  res.keep_alive(req.keep_alive());
  res.body() =
      "<!doctype html><meta charset=utf-8><title>Unsubscribed</title><p>You will no longer get "
      "these notifications (" +
      a.doc.value("kind", std::string()) + ", " + a.doc.value("channel", std::string()) +
      "). <a href=\"/\">Back to the game</a>";
  res.prepare_payload();
  return res;
}

bool is_notify_path(std::string_view path) {
  return path == "/api/me/games" || path == "/api/me/notifications" ||
         path == "/api/me/push-subscriptions" || path.starts_with("/api/me/push-subscriptions/") ||
         path == "/api/unsubscribe";
}

}  // namespace

bool serve_notify_api(const request& req, shared_state& state, http_reply reply) {
  const std::string_view full = req.target();
  const std::string path(full.substr(0, full.find('?')));
  if (!is_notify_path(path)) return false;
  auto* service = state.notifications.get();
  if (!service || !state.players) {
    reply(refusal(req, 503, "notifications_unavailable",
                  "notifications need the server's database (the journal is off)"));
    return true;
  }
  const auto method = req.method();
  if (path == "/api/unsubscribe") {
    if (method != http::verb::get && method != http::verb::post) {
      reply(refusal(req, 405, "method_not_allowed", "GET or POST"));
      return true;
    }
    const auto token = token_of(full);
    if (!state.players->try_post([service, token, req, reply] {
          reply(unsubscribe_page(req, service->unsubscribe(token)));
        }))
      reply(refusal(req, 503, "too_busy", "try again shortly"));
    return true;
  }
  // The signed-in player's routes: JSON bodies from this site only (as the accounts' routes).
  const bool writes =
      method == http::verb::put || method == http::verb::post || method == http::verb::delete_;
  if (writes && !origin_allowed(req, state.cfg)) {
    reply(refusal(req, 403, "bad_origin", "requests from another site are refused"));
    return true;
  }
  if (method == http::verb::put || method == http::verb::post) {
    const auto type = req[http::field::content_type];
    if (!std::string_view(type.data(), type.size()).starts_with("application/json")) {
      reply(refusal(req, 415, "bad_content_type", "send application/json"));
      return true;
    }
  }
  bool from_cookie = false;
  const auto session = request_session(req, from_cookie).value_or("");
  auto& players = *state.players;
  const bool taken = players.try_post([&players, service, session, path, method, req, reply] {
    try {
      auto who = players.authenticate(session);
      if (!who) {
        reply(json_answer(req, who.error.status,
                          {{"error", who.error.code}, {"message", who.error.message}}));
        return;
      }
      const auto& player = who.value->id;
      const auto body = [&] { return json::parse(req.body(), nullptr, false); };
      notify::answer a;
      if (path == "/api/me/games" && method == http::verb::get) {
        a = service->games(player);
      } else if (path == "/api/me/notifications" && method == http::verb::get) {
        a = service->settings(player);
      } else if (path == "/api/me/notifications" && method == http::verb::put) {
        a = service->put_settings(player, body());
      } else if (path == "/api/me/push-subscriptions" && method == http::verb::post) {
        a = service->add_push(player, body());
        if (a.error.empty()) a.status = 201;
      } else if (path.starts_with("/api/me/push-subscriptions/") && method == http::verb::delete_) {
        a = service->remove_push(player, path.substr(27));
      } else {
        reply(refusal(req, 405, "method_not_allowed", "see docs/protocol.md §23"));
        return;
      }
      reply(json_answer(req, a.status, a.doc));
    } catch (const std::exception& e) {  // a bug must not take the pool's thread down
      spdlog::error("notifications: {} {}: {}", req.method_string(), path, e.what());
      reply(refusal(req, 500, "internal_error", "the server failed on this request"));
    }
  });
  if (!taken) reply(refusal(req, 503, "too_busy", "try again shortly"));
  return true;
}

}  // namespace carcassonne::server
