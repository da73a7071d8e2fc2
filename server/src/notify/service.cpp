#include "notify/service.hpp"

#include <algorithm>
#include <chrono>

#include "base/crypto.hpp"

namespace carcassonne::server::notify {

namespace {

using json = nlohmann::json;

answer failed(int status, const std::string& code) {
  return {{{"error", code}}, status, code};
}

answer storage_failed() {
  return failed(503, "storage_failed");
}

// The host of an http(s) URL, without port or brackets; "" when there is none or the URL has
// user information.
std::string host_of(const std::string& url) {
  const auto scheme = url.find("://");
  if (scheme == std::string::npos) return {};
  auto rest = url.substr(scheme + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (rest.find('@') != std::string::npos) return {};
  if (!rest.empty() && rest.front() == '[') {
    const auto close = rest.find(']');
    return close == std::string::npos ? std::string() : rest.substr(1, close - 1);
  }
  return rest.substr(0, rest.find(':'));
}

// A host that names an address (IPv4, IPv6) or this machine rather than a public name.
bool names_an_address(const std::string& host) {
  if (host == "localhost" || host.ends_with(".localhost") || host.find(':') != std::string::npos)
    return true;
  return !host.empty() && host.find_first_not_of("0123456789.") == std::string::npos;
}

bool plausible_email(const std::string& e) {
  const auto at = e.find('@');
  if (e.size() > 254 || at == std::string::npos || at == 0 ||
      e.find('@', at + 1) != std::string::npos)
    return false;
  const auto domain = e.substr(at + 1);
  if (domain.find('.') == std::string::npos || domain.front() == '.' || domain.back() == '.')
    return false;
  return std::none_of(e.begin(), e.end(), [](char c) {
    return static_cast<unsigned char>(c) <= ' ' || c == '<' || c == '>' || c == ',' || c == '"';
  });
}

bool plausible_key(const json& v) {
  if (!v.is_string()) return false;
  const auto s = v.get<std::string>();
  return !s.empty() && s.size() <= 200 &&
         s.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=") ==
             std::string::npos;
}

}  // namespace

service::service(std::unique_ptr<notify_store> db, service_settings s, std::string secret)
    : db_(std::move(db)), settings_(std::move(s)), secret_(std::move(secret)) {
  if (!settings_.now_ms)
    settings_.now_ms = [] {
      return std::chrono::duration_cast<std::chrono::milliseconds>(
                 std::chrono::system_clock::now().time_since_epoch())
          .count();
    };
}

std::string service::token(const std::string& player, const std::string& channel,
                           const std::string& kind, const std::string& subscription) const {
  return unsubscribe_token(secret_, {player, channel, kind, subscription});
}

std::string service::check_url(const std::string& url) const {
  const auto host = host_of(url);
  if (url.size() > 2000 || host.empty()) return "bad_url";
  std::string why;
  if (settings_.url_check && !settings_.url_check(url, why))
    return names_an_address(host) ? "private_address" : "bad_url";
  return {};
}

answer service::games(const std::string& player) {
  std::string error;
  constexpr std::int64_t week_ms = 7 * 86'400'000LL;
  auto doc = db_->my_games(player, settings_.now_ms() - week_ms, error);
  if (!doc) return storage_failed();
  return {std::move(*doc)};
}

answer service::settings(const std::string& player) {
  return settings_doc(player, "");
}

answer service::settings_doc(const std::string& player, const std::string& new_secret) {
  std::string error;
  const auto p = db_->prefs(player, error);
  const auto subs = p ? db_->subscriptions(player, error) : std::nullopt;
  if (!subs) return storage_failed();
  json events = json::object();
  for (const auto& k : kinds) {
    json list = json::array();
    for (const auto& c : channels)
      if (p->wants(k, c)) list.push_back(c);
    events[k] = std::move(list);
  }
  json push = json::array();
  for (const auto& s : *subs)
    push.push_back({{"id", s.id}, {"host", host_of(s.endpoint)}, {"created_ms", s.created_ms}});
  json doc{{"vapid_public_key", settings_.vapid_public_key},
           {"email_available", settings_.email_available},
           {"events", std::move(events)},
           {"realtime_turns", p->realtime_turns},
           {"push", std::move(push)},
           {"webhook", p->webhook_url.empty() ? json() : json{{"url", p->webhook_url}}},
           {"email", p->email.empty() ? json() : json(p->email)}};
  if (!new_secret.empty()) doc["webhook_secret"] = new_secret;
  return {std::move(doc)};
}

answer service::put_settings(const std::string& player, const json& body) {
  if (!body.is_object()) return failed(400, "bad_request");
  std::string error;
  auto p = db_->prefs(player, error);
  if (!p) return storage_failed();
  if (const auto e = body.find("events"); e != body.end()) {
    if (!e->is_object()) return failed(400, "bad_request");
    for (const auto& [kind, list] : e->items()) {
      if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end() || !list.is_array())
        return failed(400, "bad_request");
      std::set<std::string> chosen;
      for (const auto& c : list) {
        if (!c.is_string() ||
            std::find(channels.begin(), channels.end(), c.get<std::string>()) == channels.end())
          return failed(400, "bad_request");
        chosen.insert(c.get<std::string>());
      }
      p->events[kind] = std::move(chosen);
    }
  }
  if (const auto r = body.find("realtime_turns"); r != body.end()) {
    if (!r->is_boolean()) return failed(400, "bad_request");
    p->realtime_turns = r->get<bool>();
  }
  std::string new_secret;
  if (const auto w = body.find("webhook"); w != body.end()) {
    if (w->is_null()) {
      p->webhook_url.clear();
      p->webhook_secret.clear();
    } else {
      if (!w->is_object() || !w->contains("url") || !(*w)["url"].is_string())
        return failed(400, "bad_request");
      const auto url = (*w)["url"].get<std::string>();
      if (const auto bad = check_url(url); !bad.empty()) return failed(400, bad);
      if (url != p->webhook_url || p->webhook_secret.empty()) {
        new_secret = random_hex(64);
        p->webhook_url = url;
        p->webhook_secret = new_secret;
      }
    }
  }
  if (const auto m = body.find("email"); m != body.end()) {
    if (m->is_null()) {
      p->email.clear();
    } else {
      if (!m->is_string() || !plausible_email(m->get<std::string>()))
        return failed(400, "bad_email");
      p->email = m->get<std::string>();
    }
  }
  if (!db_->save_prefs(player, *p, error)) return storage_failed();
  return settings_doc(player, new_secret);
}

answer service::add_push(const std::string& player, const json& s) {
  if (!s.is_object() || !s.contains("endpoint") || !s["endpoint"].is_string() ||
      !s.contains("keys") || !s["keys"].is_object())
    return failed(400, "bad_request");
  const auto& keys = s["keys"];
  if (!plausible_key(keys.value("p256dh", json())) || !plausible_key(keys.value("auth", json())))
    return failed(400, "bad_request");
  const auto endpoint = s["endpoint"].get<std::string>();
  if (const auto bad = check_url(endpoint); !bad.empty()) return failed(400, bad);
  subscription row{random_hex(16),
                   player,
                   endpoint,
                   keys["p256dh"].get<std::string>(),
                   keys["auth"].get<std::string>(),
                   settings_.now_ms()};
  std::string error;
  if (!db_->add_subscription(row, error)) return storage_failed();
  return {{{"id", row.id}}};
}

answer service::remove_push(const std::string& player, const std::string& id) {
  std::string error;
  if (db_->remove_subscription(player, id, error)) return {{{"removed", true}}};
  return error.empty() ? failed(404, "no_such_subscription") : storage_failed();
}

answer service::unsubscribe(const std::string& token) {
  const auto t = read_unsubscribe_token(secret_, token);
  if (!t || std::find(channels.begin(), channels.end(), t->channel) == channels.end() ||
      std::find(kinds.begin(), kinds.end(), t->kind) == kinds.end())
    return failed(404, "bad_token");
  std::string error;
  if (t->channel == "push" && !t->subscription.empty()) {
    // That browser only: the kind off for its subscription.
    if (!db_->subscription_kind_off(t->subscription, t->kind, error) && !error.empty())
      return storage_failed();
  } else {
    auto p = db_->prefs(t->player, error);
    if (!p) return storage_failed();
    p->events[t->kind].erase(t->channel);
    if (!db_->save_prefs(t->player, *p, error)) return storage_failed();
  }
  return {{{"unsubscribed", true}, {"channel", t->channel}, {"kind", t->kind}}};
}

}  // namespace carcassonne::server::notify
