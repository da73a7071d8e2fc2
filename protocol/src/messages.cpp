#include "carcassonne/protocol/messages.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

#include "flat_scan.hpp"

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

namespace {

// One message type's body: fills msg, or records a bad_message in f, or returns another error
// (bad_nonce) that answers the message as it is.
using body_parser = std::optional<proto_error> (*)(const json& j, std::string_view type, fields& f,
                                                   client_message& msg);

const proto_error bad_nonce{"bad_nonce", "'nonce' is 1 to 64 hex or base64 characters"};

std::optional<proto_error> parse_hello(const json&, std::string_view, fields& f,
                                       client_message& msg) {
  hello_msg m;
  f.integer("protocol", 1, 1'000'000, m.protocol) && f.string("client", m.client, max_name, false);
  msg = std::move(m);
  return std::nullopt;
}

std::optional<proto_error> parse_create_room(const json& j, std::string_view, fields& f,
                                             client_message& msg) {
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
      f.integer("spectator_delay", 0, 20, m.spectator_delay, false) && f.boolean("rated", m.rated);
  if (!f.failed)
    if (auto e = parse_room_bot_settings(j, m.seats, m.bots)) f.fail(e->message);
  if (auto match = j.find("match"); match != j.end()) m.match = *match;  // checked by the lobby
  msg = std::move(m);
  return std::nullopt;
}

std::optional<proto_error> parse_list_rooms(const json& j, std::string_view, fields& f,
                                            client_message& msg) {
  proto_error e;
  if (auto filter = parse_room_filter(j, e))
    msg = list_rooms_msg{std::move(*filter)};
  else
    f.fail(e.message);
  return std::nullopt;
}

std::optional<proto_error> parse_join(const json& j, std::string_view, fields& f,
                                      client_message& msg) {
  join_msg m;
  int seat = -1;
  f.string("room", m.room, max_room_id) && f.string("name", m.name, max_name, false) &&
      f.integer("seat", 0, 5, seat, false);
  if (seat >= 0) m.seat = seat;
  if (!f.failed && m.name.empty() && j.contains("name")) f.fail("'name' must not be empty");
  if (!f.failed && j.contains("nonce")) {
    const auto& n = j["nonce"];
    if (!n.is_string() || !valid_nonce(n.get_ref<const std::string&>())) return bad_nonce;
    m.nonce = n.get<std::string>();
  }
  msg = std::move(m);
  return std::nullopt;
}

std::optional<proto_error> parse_spectate(const json&, std::string_view, fields& f,
                                          client_message& msg) {
  spectate_msg m;
  f.string("room", m.room, max_room_id);
  msg = std::move(m);
  return std::nullopt;
}

std::optional<proto_error> parse_authenticate(const json& j, std::string_view, fields& f,
                                              client_message& msg) {
  authenticate_msg m;
  if (j.contains("session")) {
    std::string token;
    if (f.string("session", token, 128)) m.session = std::move(token);
  }
  msg = std::move(m);
  return std::nullopt;
}

template <class Message>
std::optional<proto_error> parse_empty(const json&, std::string_view, fields&,
                                       client_message& msg) {
  msg = Message{};
  return std::nullopt;
}

std::optional<proto_error> parse_move(const json& j, std::string_view, fields& f,
                                      client_message& msg) {
  move_msg m;
  auto mv = j.find("move");
  if (mv == j.end() || !mv->is_object())
    f.fail("'move' must be an object");
  else
    m.move = flat_object::from_json(*mv);
  f.sequence("seq", m.seq);
  msg = std::move(m);
  return std::nullopt;
}

std::optional<proto_error> parse_resume(const json&, std::string_view, fields& f,
                                        client_message& msg) {
  resume_msg m;
  f.string("room", m.room, max_room_id) && f.string("token", m.token, 128, false) &&
      f.sequence("last_seq", m.last_seq);
  msg = std::move(m);
  return std::nullopt;
}

std::optional<proto_error> parse_chat(const json&, std::string_view, fields& f,
                                      client_message& msg) {
  chat_msg m;
  f.string("text", m.text, max_chat);
  msg = std::move(m);
  return std::nullopt;
}

std::optional<proto_error> parse_nonce(const json& j, std::string_view, fields&,
                                       client_message& msg) {
  const auto n = j.find("nonce");
  if (n == j.end() || !n->is_string() || !valid_nonce(n->get_ref<const std::string&>()))
    return bad_nonce;
  msg = nonce_msg{n->get<std::string>()};
  return std::nullopt;
}

std::optional<proto_error> parse_match(const json& j, std::string_view type, fields& f,
                                       client_message& msg) {
  match_msg m;
  m.what = type == "resign"        ? match_msg::kind::resign
           : type == "undo"        ? match_msg::kind::undo
           : type == "undo_answer" ? match_msg::kind::undo_answer
                                   : match_msg::kind::rematch;
  f.boolean("accept", m.accept);
  if (!f.failed && m.what == match_msg::kind::undo_answer && !j.contains("accept"))
    f.fail("'accept' (true or false) answers the undo request");
  if (!f.failed && m.what == match_msg::kind::rematch && j.contains("nonce")) {
    const auto& n = j["nonce"];
    if (!n.is_string() || !valid_nonce(n.get_ref<const std::string&>())) return bad_nonce;
    m.nonce = n.get<std::string>();
  }
  msg = std::move(m);
  return std::nullopt;
}

std::optional<proto_error> parse_replay(const json&, std::string_view, fields& f,
                                        client_message& msg) {
  replay_msg m;
  f.string("room", m.room, max_room_id) && f.integer("move", 0, 1'000'000, m.move, false);
  msg = std::move(m);
  return std::nullopt;
}

std::optional<proto_error> parse_history(const json&, std::string_view, fields& f,
                                         client_message& msg) {
  history_msg m;
  f.integer("from", 0, 1'000'000, m.from, false);
  msg = std::move(m);
  return std::nullopt;
}

std::optional<proto_error> parse_bot(const json& j, std::string_view type, fields& f,
                                     client_message& msg) {
  const auto e = type == "add_bot" ? parse_add_bot(j, msg.emplace<add_bot_msg>())
                                   : parse_remove_bot(j, msg.emplace<remove_bot_msg>());
  if (e) f.fail(e->message);
  return std::nullopt;
}

// Quick play, series and tournaments: the server's competition part reads the fields.
std::optional<proto_error> parse_competition(const json& j, std::string_view type, fields&,
                                             client_message& msg) {
  competition_msg m;
  m.type = std::string(type);
  m.body = j;
  m.body.erase("type");
  m.body.erase("id");
  msg = std::move(m);
  return std::nullopt;
}

struct message_kind {
  std::string_view type;
  body_parser parse;
};
constexpr std::array<message_kind, 28> message_kinds{{
    {"hello", parse_hello},
    {"create_room", parse_create_room},
    {"list_rooms", parse_list_rooms},
    {"join", parse_join},
    {"spectate", parse_spectate},
    {"leave", parse_empty<leave_msg>},
    {"start", parse_empty<start_msg>},
    {"move", parse_move},
    {"resume", parse_resume},
    {"chat", parse_chat},
    {"ping", parse_empty<ping_msg>},
    {"snapshot", parse_empty<snapshot_msg>},
    {"nonce", parse_nonce},
    {"resign", parse_match},
    {"undo", parse_match},
    {"undo_answer", parse_match},
    {"rematch", parse_match},
    {"replay", parse_replay},
    {"history", parse_history},
    {"add_bot", parse_bot},
    {"remove_bot", parse_bot},
    {"authenticate", parse_authenticate},
    {"seek", parse_competition},
    {"cancel_seek", parse_competition},
    {"create_tournament", parse_competition},
    {"tournament", parse_competition},
    {"get_tournament", parse_competition},
    {"get_series", parse_competition},
}};

// The envelope: JSON, an object, its optional id; the error is set when it is not one.
bool parse_envelope(const json& j, parsed_request& out) {
  if (j.is_discarded()) {
    out.error = {"bad_json", "the message is not valid JSON"};
    return false;
  }
  if (!j.is_object()) {
    out.error = {"bad_message", "a message is a JSON object"};
    return false;
  }
  if (auto id = j.find("id"); id != j.end()) {
    if (!id->is_string() && !id->is_number_integer()) {
      out.error = {"bad_message", "'id' must be a string or an integer"};
      return false;
    }
    if (id->is_string() && id->get_ref<const std::string&>().size() > max_room_id) {
      out.error = {"bad_message", "'id' is too long"};
      return false;
    }
    out.id = *id;
  }
  return true;
}

// A valid move message whose move is a flat object, read without a tree: what the slow path
// below gives for it, or nothing (any other message, any error: the slow path decides, so that
// errors are the same). Members other than the envelope's and the move are ignored, as there.
std::optional<parsed_request> parse_flat_move(std::string_view text) {
  using kind = flat_object::kind;
  move_msg m;
  flat_scan::scanned type, id, seq, moved;
  bool has_type = false, has_id = false, has_seq = false, has_moved = false, has_move = false;
  std::size_t i = 0;
  const auto on_member = [&](const flat_scan::scanned& v) {
    if (v.key == "type")
      type = v, has_type = true;
    else if (v.key == "id")
      id = v, has_id = true;
    else if (v.key == "seq")
      seq = v, has_seq = true;
    else if (v.key == "moved")
      moved = v, has_moved = true;
    else if (v.key == "move")
      return false;  // a move that is not an object: the slow path's error
    return true;
  };
  const auto on_object = [&](std::string_view key, std::size_t& at) {
    if (key != "move" || has_move) return false;
    has_move = true;
    return m.move.parse(text, at);
  };
  if (!flat_scan::object(text, i, on_member, on_object)) return std::nullopt;
  flat_scan::skip_space(text, i);
  if (i != text.size() || !has_move || !has_type || type.type != kind::string ||
      type.text != "move")
    return std::nullopt;
  parsed_request out;
  if (has_id) {
    if (id.type == kind::integer)
      out.id = id.negative ? json(id.number) : json(static_cast<std::uint64_t>(id.number));
    else if (id.type == kind::string && id.text.size() <= max_room_id)
      out.id = std::string(id.text);
    else
      return std::nullopt;
  }
  if (has_seq) {
    if (seq.type != kind::integer || seq.negative) return std::nullopt;
    m.seq = static_cast<std::uint64_t>(seq.number);
  }
  bool is_moved = false;
  if (has_moved) {
    if (moved.type != kind::boolean) return std::nullopt;
    is_moved = moved.text == "true";
  }
  out.value = request{std::move(m), out.id, is_moved};
  return out;
}

}  // namespace

std::optional<parsed_request> parse_flat_move_request(std::string_view text) {
  return parse_flat_move(text);
}

parsed_request parse_request(std::string_view text) {
  if (auto flat = parse_flat_move(text)) return std::move(*flat);
  parsed_request out;
  const json j = json::parse(text, nullptr, false);
  if (!parse_envelope(j, out)) return out;
  auto type_it = j.find("type");
  if (type_it == j.end() || !type_it->is_string()) {
    out.error = {"bad_message", "a message needs a string 'type'"};
    return out;
  }
  const auto& type = type_it->get_ref<const std::string&>();
  const auto kind = std::find_if(message_kinds.begin(), message_kinds.end(),
                                 [&](const message_kind& k) { return k.type == type; });
  if (kind == message_kinds.end()) {
    out.error = {"unknown_type", "unknown message type '" + type + "'"};
    return out;
  }
  fields f{j};
  client_message msg;
  if (auto e = kind->parse(j, type, f, msg)) {
    out.error = *e;
    return out;
  }
  if (f.failed) {
    out.error = f.error;
    return out;
  }
  bool moved = false;
  if (auto m = j.find("moved"); m != j.end()) {
    if (!m->is_boolean()) {
      out.error = {"bad_message", "'moved' must be a boolean"};
      return out;
    }
    moved = m->get<bool>();
  }
  out.value = request{std::move(msg), out.id, moved};
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
