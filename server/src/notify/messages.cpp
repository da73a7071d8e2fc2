#include "notify/messages.hpp"

#include <algorithm>
#include <map>

#include "base/crypto.hpp"

namespace carcassonne::server::notify {

namespace {

using json = nlohmann::json;

std::string line_of(const json& n) {
  const auto& data = n.value("data", json::object());
  const std::string room = data.value("name", n.value("room", std::string()));
  const std::string kind = n.value("kind", std::string());
  if (kind == "your_turn") return "Your turn in " + room;
  if (kind == "undo_requested") return "A take-back is asked in " + room;
  if (kind == "rematch_offered") return "A rematch is offered in " + room;
  if (kind == "game_over") return "The game in " + room + " is over";
  if (kind == "tournament_round") return "A new round of " + room + " starts";
  return kind + " in " + room;
}

std::string link_of(const json& n) {
  return "/?room=" + n.value("room", std::string());
}

std::vector<std::string> kinds_of(const json& notices) {
  std::vector<std::string> out;
  for (const auto& n : notices) {
    const auto k = n.value("kind", std::string());
    if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
  }
  return out;
}

std::string title_of(const json& notices) {
  return notices.size() == 1 ? line_of(notices[0])
                             : std::to_string(notices.size()) + " updates in your games";
}

std::string body_of(const json& notices) {
  std::string body;
  for (const auto& n : notices) {
    if (!body.empty()) body += '\n';
    body += line_of(n);
  }
  return body;
}

}  // namespace

std::string delivery_id(const std::string& channel, const std::string& target,
                        const std::vector<std::string>& keys) {
  auto sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  std::string text = channel + '\n' + target;
  for (const auto& k : sorted) text += '\n' + k;
  return sha256_hex(text).substr(0, 32);
}

push_message push_of(const std::string& id, const json& notices, const std::string& unsubscribe) {
  push_message m;
  const json first = notices.empty() ? json::object() : notices[0];
  m.plaintext = json{{"title", title_of(notices)}, {"body", body_of(notices)},
                     {"url", link_of(first)},      {"tag", first.value("room", id)},
                     {"kinds", kinds_of(notices)}, {"unsubscribe", unsubscribe}}
                    .dump();
  m.topic = id;
  const auto kinds = kinds_of(notices);
  m.urgency = std::find(kinds.begin(), kinds.end(), "your_turn") != kinds.end() ? "high" : "normal";
  return m;
}

webhook_message webhook_of(const std::string& id, const std::string& player, const json& notices,
                           const std::string& page_url, const std::string& unsubscribe,
                           long long now_s) {
  json events = json::array();
  for (const auto& n : notices) {
    const auto& data = n.value("data", json::object());
    json e{{"kind", n.value("kind", std::string())},
           {"key", n.value("key", std::string())},
           {"room", n.value("room", std::string())},
           {"text", line_of(n)},
           {"url", page_url + link_of(n)}};
    for (const char* k : {"name", "seat", "clock"})
      if (data.contains(k)) e[k] = data[k];
    events.push_back(std::move(e));
  }
  const auto kinds = kinds_of(notices);
  webhook_message m;
  m.event = kinds.size() == 1 ? kinds[0] : "batch";
  m.delivery_id = id;
  m.timestamp_s = now_s;
  m.json_body = json{{"delivery", id},
                     {"player", player},
                     {"events", std::move(events)},
                     {"unsubscribe", page_url + unsubscribe}}
                    .dump();
  return m;
}

mail mail_of(const std::string& id, const std::string& to, const json& notices,
             const std::string& page_url, const std::string& unsubscribe) {
  mail m;
  m.to = to;
  m.subject = "Carcassonne: " + title_of(notices);
  for (const auto& n : notices) m.text += line_of(n) + ": " + page_url + link_of(n) + "\r\n";
  m.text += "\r\nNo more of these: " + page_url + unsubscribe + "\r\n";
  m.message_id = id;
  m.unsubscribe_url = page_url + unsubscribe;
  return m;
}

}  // namespace carcassonne::server::notify
