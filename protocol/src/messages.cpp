#include "carcassonne/protocol/messages.hpp"

namespace carcassonne::protocol {

namespace {

constexpr std::size_t max_name = 40;
constexpr std::size_t max_chat = 500;
constexpr std::size_t max_room_id = 64;

struct fields {
  const json& j;
  proto_error error;
  bool failed = false;

  bool fail(std::string message) {
    if (!failed) error = {"bad_message", std::move(message)};
    failed = true;
    return false;
  }
  bool string(const char* key, std::string& out, std::size_t max, bool required = true) {
    auto it = j.find(key);
    if (it == j.end()) return required ? fail(std::string("missing '") + key + "'") : true;
    if (!it->is_string()) return fail(std::string("'") + key + "' must be a string");
    if (it->get_ref<const std::string&>().size() > max)
      return fail(std::string("'") + key + "' is too long");
    out = it->get<std::string>();
    return true;
  }
  bool integer(const char* key, int lo, int hi, int& out, bool required = true) {
    auto it = j.find(key);
    if (it == j.end()) return required ? fail(std::string("missing '") + key + "'") : true;
    if (!it->is_number_integer() || it->get<long long>() < lo || it->get<long long>() > hi)
      return fail(std::string("'") + key + "' must be an integer from " + std::to_string(lo) +
                  " to " + std::to_string(hi));
    out = static_cast<int>(it->get<long long>());
    return true;
  }
  bool sequence(const char* key, std::optional<std::uint64_t>& out) {
    auto it = j.find(key);
    if (it == j.end()) return true;
    if (!it->is_number_unsigned())
      return fail(std::string("'") + key + "' must be a sequence number");
    out = it->get<std::uint64_t>();
    return true;
  }
  bool boolean(const char* key, bool& out) {
    auto it = j.find(key);
    if (it == j.end()) return true;
    if (!it->is_boolean()) return fail(std::string("'") + key + "' must be true or false");
    out = it->get<bool>();
    return true;
  }
};

}  // namespace

bool valid_nonce(std::string_view nonce) {
  std::size_t end = nonce.size();
  for (int pad = 0; pad < 2 && end > 0 && nonce[end - 1] == '='; ++pad) --end;
  if (end == 0 || nonce.size() > max_nonce) return false;
  for (std::size_t i = 0; i < end; ++i) {
    const char c = nonce[i];
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '+' || c == '/' || c == '-' || c == '_';
    if (!ok) return false;
  }
  return true;
}

std::optional<room_filter> parse_room_filter(const json& j, proto_error& error) {
  room_filter out;
  fields f{j, {}};
  f.integer("offset", 0, 10'000'000, out.offset, false) &&
      f.integer("limit", 1, max_room_page, out.limit, false) &&
      f.string("state", out.state, 16, false);
  if (!f.failed && !out.state.empty() && out.state != "waiting" && out.state != "playing" &&
      out.state != "finished")
    f.fail("'state' must be waiting, playing or finished");
  if (auto it = j.find("expansions"); !f.failed && it != j.end()) {
    if (!it->is_array() || it->size() > 16)
      f.fail("'expansions' must be an array of at most 16 names");
    else
      for (const auto& e : *it) {
        if (!e.is_string() || e.get_ref<const std::string&>().size() > max_name) {
          f.fail("'expansions' must be an array of expansion names");
          break;
        }
        out.expansions.push_back(e.get<std::string>());
      }
  }
  if (f.failed) return error = f.error, std::nullopt;
  return out;
}

parsed_request parse_request(std::string_view text) {
  parsed_request out;
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) {
    out.error = {"bad_json", "the message is not valid JSON"};
    return out;
  }
  if (!j.is_object()) {
    out.error = {"bad_message", "a message is a JSON object"};
    return out;
  }
  if (auto id = j.find("id"); id != j.end()) {
    if (!id->is_string() && !id->is_number_integer()) {
      out.error = {"bad_message", "'id' must be a string or an integer"};
      return out;
    }
    if (id->is_string() && id->get_ref<const std::string&>().size() > max_room_id) {
      out.error = {"bad_message", "'id' is too long"};
      return out;
    }
    out.id = *id;
  }
  auto type_it = j.find("type");
  if (type_it == j.end() || !type_it->is_string()) {
    out.error = {"bad_message", "a message needs a string 'type'"};
    return out;
  }
  const auto& type = type_it->get_ref<const std::string&>();
  fields f{j};
  client_message msg;
  if (type == "hello") {
    hello_msg m;
    f.integer("protocol", 1, 1'000'000, m.protocol) &&
        f.string("client", m.client, max_name, false);
    msg = m;
  } else if (type == "create_room") {
    create_room_msg m;
    if (auto s = j.find("setup"); s != j.end()) {
      if (!s->is_object()) f.fail("'setup' must be an object");
      m.setup = *s;
    } else {
      m.setup = json::object();
      for (const char* key : {"expansions", "options"})
        if (j.contains(key)) m.setup[key] = j[key];
    }
    f.integer("seats", 2, 6, m.seats, false) && f.boolean("public", m.is_public) &&
        f.string("name", m.name, max_name, false) &&
        f.integer("spectator_delay", 0, 20, m.spectator_delay, false);
    if (!f.failed)
      if (auto e = parse_room_bot_settings(j, m.seats, m.bots)) f.fail(e->message);
    if (auto match = j.find("match"); match != j.end()) m.match = *match;  // checked by the lobby
    msg = m;
  } else if (type == "list_rooms") {
    proto_error e;
    if (auto filter = parse_room_filter(j, e))
      msg = list_rooms_msg{std::move(*filter)};
    else
      f.fail(e.message);
  } else if (type == "join") {
    join_msg m;
    int seat = -1;
    f.string("room", m.room, max_room_id) && f.string("name", m.name, max_name) &&
        f.integer("seat", 0, 5, seat, false);
    if (seat >= 0) m.seat = seat;
    if (!f.failed && m.name.empty()) f.fail("'name' must not be empty");
    if (!f.failed && j.contains("nonce")) {
      const auto& n = j["nonce"];
      if (!n.is_string() || !valid_nonce(n.get_ref<const std::string&>())) {
        out.error = {"bad_nonce", "'nonce' is 1 to 64 hex or base64 characters"};
        return out;
      }
      m.nonce = n.get<std::string>();
    }
    msg = m;
  } else if (type == "spectate") {
    spectate_msg m;
    f.string("room", m.room, max_room_id);
    msg = m;
  } else if (type == "leave") {
    msg = leave_msg{};
  } else if (type == "start") {
    msg = start_msg{};
  } else if (type == "move") {
    move_msg m;
    auto mv = j.find("move");
    if (mv == j.end() || !mv->is_object())
      f.fail("'move' must be an object");
    else
      m.move = *mv;
    f.sequence("seq", m.seq);
    msg = m;
  } else if (type == "resume") {
    resume_msg m;
    f.string("room", m.room, max_room_id) && f.string("token", m.token, 128) &&
        f.sequence("last_seq", m.last_seq);
    msg = m;
  } else if (type == "chat") {
    chat_msg m;
    f.string("text", m.text, max_chat);
    msg = m;
  } else if (type == "ping") {
    msg = ping_msg{};
  } else if (type == "snapshot") {
    msg = snapshot_msg{};
  } else if (type == "nonce") {
    const auto n = j.find("nonce");
    if (n == j.end() || !n->is_string() || !valid_nonce(n->get_ref<const std::string&>())) {
      out.error = {"bad_nonce", "'nonce' is 1 to 64 hex or base64 characters"};
      return out;
    }
    msg = nonce_msg{n->get<std::string>()};
  } else if (type == "resign" || type == "undo" || type == "undo_answer" || type == "rematch") {
    match_msg m;
    m.what = type == "resign"        ? match_msg::kind::resign
             : type == "undo"        ? match_msg::kind::undo
             : type == "undo_answer" ? match_msg::kind::undo_answer
                                     : match_msg::kind::rematch;
    f.boolean("accept", m.accept);
    if (!f.failed && m.what == match_msg::kind::undo_answer && !j.contains("accept"))
      f.fail("'accept' (true or false) answers the undo request");
    msg = m;
  } else if (type == "replay") {
    replay_msg m;
    f.string("room", m.room, max_room_id) && f.integer("move", 0, 1'000'000, m.move, false);
    msg = m;
  } else if (type == "history") {
    history_msg m;
    f.integer("from", 0, 1'000'000, m.from, false);
    msg = m;
  } else if (type == "add_bot" || type == "remove_bot") {
    const auto e = type == "add_bot" ? parse_add_bot(j, msg.emplace<add_bot_msg>())
                                     : parse_remove_bot(j, msg.emplace<remove_bot_msg>());
    if (e) f.fail(e->message);
  } else {
    out.error = {"unknown_type", "unknown message type '" + type + "'"};
    return out;
  }
  if (f.failed) {
    out.error = f.error;
    return out;
  }
  out.value = request{std::move(msg), out.id};
  return out;
}

json error_message(const proto_error& e, const json& id) {
  json j{{"type", "error"}, {"code", e.code}, {"message", e.message}};
  if (!id.is_null()) j["id"] = id;
  return j;
}

json reply(std::string_view type, const json& id, json fields) {
  json j = std::move(fields);
  j["type"] = type;
  if (!id.is_null()) j["id"] = id;
  return j;
}

}  // namespace carcassonne::protocol
