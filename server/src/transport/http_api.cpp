// The accounts' HTTP routes (docs/protocol.md "Accounts"): guests, sign-in and out, a player's
// own account, profiles, leaderboards, the records API and OpenID Connect sign-in. Each request
// is answered from the accounts' worker pool: argon2id and the database never run on an I/O
// thread.
#include <spdlog/spdlog.h>

#include <charconv>

#include "base/crypto.hpp"
#include "transport/cookies.hpp"
#include "transport/net.hpp"

namespace carcassonne::server {

namespace {

using json = nlohmann::json;
using response = http::response<http::string_body>;
using request = http::request<http::string_body>;

constexpr std::int64_t export_page = 100;  // records per export request (a games page's most)

response error_response(const request& req, const account_error& e) {
  auto res = json_response(req, static_cast<http::status>(e.status),
                           {{"error", e.code}, {"message", e.message}});
  if (e.retry_after > 0) res.set(http::field::retry_after, std::to_string(e.retry_after));
  return res;
}

response error_response(const request& req, int status, const std::string& code,
                        const std::string& message) {
  return error_response(req, account_error{status, code, message});
}

// The value of `key` in a query string ("" when absent), percent-decoding it.
std::string query_value(std::string_view query, std::string_view key) {
  while (!query.empty()) {
    const auto amp = query.find('&');
    const auto pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    const auto eq = pair.find('=');
    if (pair.substr(0, eq) != key || eq == std::string_view::npos) continue;
    std::string out;
    const auto v = pair.substr(eq + 1);
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i] == '+') {
        out += ' ';
      } else if (v[i] == '%' && i + 2 < v.size()) {
        int c = 0;
        std::from_chars(v.data() + i + 1, v.data() + i + 3, c, 16);
        out += static_cast<char>(c);
        i += 2;
      } else {
        out += v[i];
      }
    }
    return out;
  }
  return {};
}

// A non-negative integer query value, `fallback` when absent; nothing when malformed.
std::optional<std::int64_t> query_number(std::string_view query, std::string_view key,
                                         std::int64_t fallback) {
  const auto v = query_value(query, key);
  if (v.empty()) return fallback;
  std::int64_t n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end != v.data() + v.size() || n < 0) return std::nullopt;
  return n;
}

bool plausible_player_id(std::string_view id) {
  return !id.empty() && id.size() <= 40 &&
         id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
}

// One request on its way through the worker pool.
struct api_call {
  request req;
  shared_state& state;
  std::string address;
  http_reply reply;
  std::string path, query;

  void answer(const json& body, http::status status = http::status::ok) {
    reply(json_response(req, status, body));
  }
  void fail(const account_error& e) { reply(error_response(req, e)); }
  std::string session() const {
    bool from_cookie = false;
    return request_session(req, from_cookie).value_or("");
  }
  std::optional<json> body() {
    json b = json::parse(req.body(), nullptr, false);
    if (b.is_discarded() || !b.is_object()) {
      fail({400, "bad_json", "the request's body is not a JSON object"});
      return std::nullopt;
    }
    return b;
  }
  static std::string text(const json& b, const char* key) {
    const auto it = b.find(key);
    return it != b.end() && it->is_string() ? it->get<std::string>() : std::string();
  }
  // The page's session comes and goes with the cookie; other clients keep the token they get.
  void signed_in_answer(const signed_in& s, http::status status = http::status::ok) {
    json body{
        {"player", player_json(s.player)}, {"session", s.session}, {"expires_ms", s.expires_ms}};
    if (!s.key.empty()) body["key"] = s.key;
    auto res = json_response(req, status, body);
    res.set(http::field::set_cookie,
            session_cookie(req, s.session, state.cfg.session_days * 86400LL));
    reply(std::move(res));
  }
};

// Rooms learn of a vacation that starts or ends: on every instance, through the cluster's notices
// (competitions::announce_vacation), else here only.
void tell_rooms_of_vacation(shared_state& state, const vacation_change& v) {
  const std::int64_t until = v.doc["until_ms"].is_null() ? 0 : v.row.until_ms;
  if (!state.competitions || !state.competitions->announce_vacation(v.player, until))
    state.rooms.vacation_changed(v.player, until);
}

// POST /api/me/vacation {"days": n} starts or extends it; DELETE /api/me/vacation ends it.
void serve_vacation(const std::shared_ptr<api_call>& call, bool start) {
  auto& acc = *call->state.players;
  outcome<vacation_change> changed = account_error{};
  if (start) {
    auto body = call->body();
    if (!body) return;
    const auto days = body->find("days");
    if (days == body->end() || !days->is_number_integer() || days->get<std::int64_t>() < 1 ||
        days->get<std::int64_t>() > 366)
      return call->fail({400, "bad_days", "'days' is a whole number of days, at least 1"});
    changed = acc.start_vacation(call->session(), static_cast<int>(days->get<std::int64_t>()));
  } else {
    changed = acc.end_vacation(call->session());
  }
  if (!changed) return call->fail(changed.error);
  tell_rooms_of_vacation(call->state, *changed.value);
  call->answer({{"vacation", changed.value->doc}});
}

void serve_post(const std::shared_ptr<api_call>& call) {
  auto& acc = *call->state.players;
  const auto& path = call->path;
  if (path == "/api/guest") {
    // Exempt addresses (config.exempt_addresses: loopback by default) make guests without a budget.
    auto made = acc.create_guest(call->state.limits.exempt(call->address) ? "" : call->address);
    return made ? call->signed_in_answer(*made.value, http::status::created)
                : call->fail(made.error);
  }
  if (path == "/api/me/vacation") return serve_vacation(call, true);
  auto body = call->body();
  if (!body) return;
  if (path == "/api/sign-in") {
    const bool by_key = body->contains("key");
    auto in = by_key ? acc.sign_in_with_key(api_call::text(*body, "player"),
                                            api_call::text(*body, "key"), call->address)
                     : acc.sign_in(api_call::text(*body, "name"), api_call::text(*body, "password"),
                                   call->address);
    return in ? call->signed_in_answer(*in.value) : call->fail(in.error);
  }
  const auto session = call->session();
  if (path == "/api/sign-out") {
    const bool everywhere = body->value("everywhere", false);
    auto out = acc.sign_out(session, everywhere);
    if (!out) return call->fail(out.error);
    auto res = json_response(call->req, http::status::ok, {{"signed_out", true}});
    res.set(http::field::set_cookie, session_cookie(call->req, "", 0));
    return call->reply(std::move(res));
  }
  if (path == "/api/me/name") {
    auto p = acc.claim(session, api_call::text(*body, "name"), api_call::text(*body, "password"));
    return p ? call->answer({{"player", player_json(*p.value)}}) : call->fail(p.error);
  }
  if (path == "/api/me/password") {
    auto done = acc.change_password(session, api_call::text(*body, "old_password"),
                                    api_call::text(*body, "new_password"));
    return done ? call->answer({{"changed", true}}) : call->fail(done.error);
  }
  if (path == "/api/me/bot") {
    auto made = acc.make_bot(session);
    return made ? call->answer(
                      {{"player", player_json(made.value->player)}, {"token", made.value->token}})
                : call->fail(made.error);
  }
  if (path == "/api/me/bot/token") {
    auto token = acc.new_bot_token(session);
    return token ? call->answer({{"token", *token.value}}) : call->fail(token.error);
  }
  if (path == "/api/me/delete") {
    auto done = acc.delete_account(session);
    if (!done) return call->fail(done.error);
    auto res = json_response(call->req, http::status::ok, {{"deleted", true}});
    res.set(http::field::set_cookie, session_cookie(call->req, "", 0));
    return call->reply(std::move(res));
  }
  call->fail({404, "not_found", "no such route"});
}

// A page of the player's finished games as records (the record format, game-record.md).
void serve_export(const std::shared_ptr<api_call>& call, const std::string& player) {
  const auto offset = query_number(call->query, "offset", 0);
  if (!offset) return call->fail({400, "bad_message", "offset is an integer >= 0"});
  auto page = call->state.players->games(player, 0, 0, *offset, export_page);
  if (!page) return call->fail(page.error);
  json records = json::array();
  for (const auto& g : (*page.value)["games"]) {
    json record;
    if (call->state.rooms.finished_record(g["room"].get<std::string>(), record) ==
        lobby::record_status::found) {
      record["room"] = g["room"];
      records.push_back(std::move(record));
    }
  }
  const auto total = (*page.value)["total"].get<std::int64_t>();
  const auto next = *offset + export_page;
  call->answer({{"format", "carcassonne-records/1"},
                {"player", player},
                {"records", std::move(records)},
                {"total", total},
                {"next", next < total ? json(next) : json()}});
}

// Tournaments and series (docs/protocol.md §24), read from the database.
void serve_competition(const std::shared_ptr<api_call>& call, const std::string& kind,
                       const std::string& id) {
  auto* service = call->state.competitions.get();
  if (!service) return call->fail({503, "competition_unavailable", "no competitions here"});
  std::string error;
  auto doc = service->document(kind, id, error);
  if (!doc && !error.empty()) return call->fail({503, "storage_failed", "cannot be read now"});
  if (!doc) return call->fail({404, "no_such_" + kind, "no " + kind + " '" + id + "'"});
  call->answer({{kind, std::move(*doc)}});
}

void serve_competitions(const std::shared_ptr<api_call>& call, const std::string& kind,
                        const std::string& player, std::int64_t offset, std::int64_t limit) {
  auto* service = call->state.competitions.get();
  if (!service) return call->fail({503, "competition_unavailable", "no competitions here"});
  limit = std::clamp<std::int64_t>(limit, 1, 100);
  offset = std::min<std::int64_t>(offset, 1'000'000);
  std::string error;
  auto page =
      player.empty()
          ? service->listing(kind, static_cast<int>(limit), static_cast<int>(offset), error)
          : service->of_player(player, static_cast<int>(limit), static_cast<int>(offset), error);
  if (!page) return call->fail({503, "storage_failed", "cannot be read now"});
  call->answer({{player.empty() ? "tournaments" : "competitions", std::move(*page)}});
}

void serve_get(const std::shared_ptr<api_call>& call) {
  auto& acc = *call->state.players;
  const std::string_view path = call->path;
  if (path == "/api/me") {
    auto p = acc.authenticate(call->session());
    if (!p) return call->fail(p.error);
    auto vacation = acc.vacation_of(p.value->id);
    if (!vacation) return call->fail(vacation.error);
    return call->answer({{"player", player_json(*p.value)}, {"vacation", *vacation.value}});
  }
  const auto offset = query_number(call->query, "offset", 0);
  const auto limit = query_number(call->query, "limit", 50);
  if (!offset || !limit) return call->fail({400, "bad_message", "offset and limit are integers"});
  if (path.starts_with("/api/leaderboards/")) {
    auto page = acc.leaderboard(std::string(path.substr(18)), *offset, *limit);
    return page ? call->answer(*page.value) : call->fail(page.error);
  }
  if (path == "/api/bots") {
    auto levels = acc.bot_levels();
    return levels ? call->answer(*levels.value) : call->fail(levels.error);
  }
  if (path == "/api/games") {
    const auto from = query_number(call->query, "from", 0), to = query_number(call->query, "to", 0);
    if (!from || !to) return call->fail({400, "bad_message", "from and to are Unix milliseconds"});
    auto page = acc.games(query_value(call->query, "player"), *from, *to, *offset, *limit);
    return page ? call->answer(*page.value) : call->fail(page.error);
  }
  if (path.starts_with("/api/players/")) {
    auto rest = path.substr(13);
    const auto slash = rest.find('/');
    const std::string player(rest.substr(0, slash));
    const auto what = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
    if (!plausible_player_id(player))
      return call->fail({404, "no_such_player", "no player '" + player + "'"});
    if (what.empty()) {
      auto p = acc.profile(player);
      return p ? call->answer(*p.value) : call->fail(p.error);
    }
    if (what == "/games") {
      auto page = acc.games(player, 0, 0, *offset, *limit);
      return page ? call->answer(*page.value) : call->fail(page.error);
    }
    if (what == "/export") return serve_export(call, player);
    if (what == "/competitions") return serve_competitions(call, "", player, *offset, *limit);
  }
  if (path == "/api/tournaments")
    return serve_competitions(call, "tournament", "", *offset, *limit);
  if (path.starts_with("/api/tournaments/"))
    return serve_competition(call, "tournament", std::string(path.substr(17)));
  if (path.starts_with("/api/series/"))
    return serve_competition(call, "series", std::string(path.substr(12)));
  call->fail({404, "not_found", "no such route"});
}

// OpenID Connect: /auth/oidc/start sends the browser to the provider with a fresh state, PKCE
// verifier and nonce, kept in a cookie of this site only (HttpOnly, 10 minutes, SameSite=Lax so
// that it comes back with the provider's redirect); /auth/oidc/callback checks the state against
// it, finishes the sign-in and sets the session cookie. Browsers are the only clients of these
// routes: a failure sends the browser back to the page with its code (/#signin-error=CODE), and
// the page says what went wrong.
constexpr std::string_view pending_cookie = "carcassonne_oidc";

void serve_oidc(const std::shared_ptr<api_call>& call) {
  auto redirect = [&](const std::string& to, const std::string& cookie) {
    response res{http::status::found, call->req.version()};
    res.set(http::field::server, "carcassonne");
    res.set(http::field::location, to);
    res.set(http::field::cache_control, "no-store");
    if (!cookie.empty()) res.insert(http::field::set_cookie, cookie);
    res.keep_alive(call->req.keep_alive());
    res.prepare_payload();
    return res;
  };
  auto refuse = [&](const std::string& code, const std::string& message) {
    // The provider's or the host's trouble is for the host to see; a bad callback is not.
    if (code == "provider_unreachable" || code == "bad_provider" || code == "bad_settings")
      spdlog::warn("oidc: {}: {}", code, message);
    call->reply(redirect("/#signin-error=" + code, ""));
  };
  const std::string pending_attrs = "; Path=/auth/oidc; HttpOnly; SameSite=Lax";
  oidc::error e;
  if (call->path == "/auth/oidc/start") {
    auto started = call->state.oidc->begin(e);
    if (!started) return refuse(e.code, e.message);
    const std::string value = started->state + "." + started->code_verifier + "." + started->nonce;
    return call->reply(redirect(
        started->url, std::string(pending_cookie) + "=" + value + pending_attrs + "; Max-Age=600"));
  }
  if (call->path != "/auth/oidc/callback") return call->fail({404, "not_found", "no such route"});
  const auto pending = cookie_value(call->req, pending_cookie).value_or("");
  const auto dot1 = pending.find('.'), dot2 = pending.rfind('.');
  const auto state = query_value(call->query, "state");
  if (dot1 == std::string::npos || dot2 == dot1 ||
      !equal_constant_time(pending.substr(0, dot1), state) || state.empty())
    return refuse("bad_oidc_state", "");
  // The provider's own refusal (the user said no): RFC 6749 §4.1.2.1.
  if (!query_value(call->query, "error").empty()) return refuse("oidc_denied", "");
  oidc::authorization started{"", state, pending.substr(dot1 + 1, dot2 - dot1 - 1),
                              pending.substr(dot2 + 1)};
  auto who = call->state.oidc->finish(query_value(call->query, "code"), started, e);
  if (!who) return refuse(e.code, e.message);
  auto in = call->state.players->sign_in_with_identity(*who);
  if (!in) return refuse(in.error.code, in.error.message);
  auto res = redirect("/", std::string(pending_cookie) + "=" + pending_attrs + "; Max-Age=0");
  res.insert(http::field::set_cookie,
             session_cookie(call->req, in.value->session, call->state.cfg.session_days * 86400LL));
  call->reply(std::move(res));
}

bool is_accounts_path(std::string_view path) {
  return path == "/api/guest" || path == "/api/sign-in" || path == "/api/sign-out" ||
         path == "/api/me" || path.starts_with("/api/me/") || path.starts_with("/api/players/") ||
         path.starts_with("/api/leaderboards/") || path == "/api/games" || path == "/api/bots" ||
         path == "/api/tournaments" || path.starts_with("/api/tournaments/") ||
         path.starts_with("/api/series/") || path.starts_with("/auth/oidc/");
}

}  // namespace

response json_response(const request& req, http::status status, const json& body) {
  response res{status, req.version()};
  res.set(http::field::server, "carcassonne");
  res.set(http::field::content_type, "application/json");
  res.set(http::field::cache_control, "no-store");
  res.keep_alive(req.keep_alive());
  res.body() = body.dump();
  res.prepare_payload();
  return res;
}

bool serve_accounts_api(const request& req, shared_state& state, const std::string& address,
                        http_reply reply) {
  const std::string_view full = req.target();
  const auto path = full.substr(0, full.find('?'));
  if (path == "/api/sign-in-methods") {
    // The page's sign-in buttons: what this server offers (no database needed to say it).
    if (req.method() != http::verb::get) {
      reply(error_response(req, 405, "method_not_allowed", "GET"));
      return true;
    }
    const bool on = state.players != nullptr, oidc = on && state.oidc != nullptr;
    reply(json_response(req, http::status::ok,
                        {{"password", on},
                         {"oidc", oidc},
                         {"oidc_issuer", oidc ? json(state.cfg.oidc_issuer) : json()}}));
    return true;
  }
  if (!is_accounts_path(path)) return false;
  const bool post = req.method() == http::verb::post;
  if (path == "/api/bots" && !state.players && !post) {
    // Without a database the levels are still there, unrated.
    json levels = json::array();
    for (std::size_t i = 0; i < bot_level_names.size(); ++i)
      levels.push_back(bot_level_json(static_cast<bot_level>(i), {}));
    reply(json_response(req, http::status::ok, {{"levels", std::move(levels)}}));
    return true;
  }
  if (!state.players) {
    reply(error_response(req, 503, "accounts_unavailable",
                         "accounts need the server's database (the journal is off)"));
    return true;
  }
  if (path.starts_with("/auth/oidc/") && !state.oidc) {
    reply(error_response(req, 404, "oidc_off", "this server has no OpenID Connect sign-in"));
    return true;
  }
  // DELETE: only the routes that end something of the player's (a vacation).
  const bool remove = req.method() == http::verb::delete_ && path == "/api/me/vacation";
  if (!post && !remove && req.method() != http::verb::get) {
    reply(error_response(req, 405, "method_not_allowed", "GET or POST"));
    return true;
  }
  if (remove && !origin_allowed(req, state.cfg)) {
    reply(error_response(req, 403, "bad_origin", "requests from another site are refused"));
    return true;
  }
  if (post) {
    // A cross-site page could post with the player's cookie: its Origin says where it comes from,
    // and a form cannot send JSON without the browser asking first.
    const auto type = req[http::field::content_type];
    if (!std::string_view(type.data(), type.size()).starts_with("application/json")) {
      reply(error_response(req, 415, "bad_content_type", "send application/json"));
      return true;
    }
    if (!origin_allowed(req, state.cfg)) {
      reply(error_response(req, 403, "bad_origin", "requests from another site are refused"));
      return true;
    }
  }
  auto call = std::make_shared<api_call>(
      api_call{req, state, address, std::move(reply), std::string(path), ""});
  if (path.size() < full.size()) call->query = std::string(full.substr(path.size() + 1));
  const bool taken = state.players->try_post([call, post, remove] {
    try {
      if (call->path.starts_with("/auth/oidc/"))
        serve_oidc(call);
      else if (remove)
        serve_vacation(call, false);
      else if (post)
        serve_post(call);
      else
        serve_get(call);
    } catch (const std::exception& e) {  // a bug must not take the pool's thread down
      spdlog::error("accounts: {} {}: {}", call->req.method_string(), call->path, e.what());
      call->fail({500, "internal_error", "the server failed on this request"});
    }
  });
  if (!taken)
    call->fail({503, "too_busy", "too many account requests are waiting: try again shortly", 1});
  return true;
}

}  // namespace carcassonne::server
