// A client_link that records frames and keeps its view up to date by applying every patch in
// order, as a real client must (tests/server).
#pragma once
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

#include "room/room.hpp"

namespace carcassonne::testing {

using nlohmann::json;

struct fake_client : server::client_link {
  std::vector<std::string> raw;
  std::vector<json> frames;
  std::string room;
  json view;
  std::uint64_t seq = 0;
  bool gap = false;

  void deliver(server::frame_ptr f) override {
    raw.push_back(*f);
    frames.push_back(json::parse(*f));
    const auto& m = frames.back();
    if (m["type"] == "snapshot") {
      view = m["view"];
      seq = m["seq"].get<std::uint64_t>();
    } else if (m["type"] == "patch") {
      if (m["seq"].get<std::uint64_t>() != seq + 1) gap = true;
      seq = m["seq"].get<std::uint64_t>();
      view = view.patch(m["patch"]);
    }
  }
  void set_room(const std::string& r, bool member) override {
    if (member)
      room = r;
    else if (room == r)
      room.clear();
  }

  // The last frame of a type, or null.
  json last(const std::string& type) const {
    for (auto it = frames.rbegin(); it != frames.rend(); ++it)
      if ((*it)["type"] == type) return *it;
    return nullptr;
  }
  std::string last_error() const {
    auto e = last("error");
    return e.is_null() ? std::string() : e["code"].get<std::string>();
  }
};

inline std::shared_ptr<fake_client> make_client() {
  return std::make_shared<fake_client>();
}

// The client messages a room test sends, built in one line.
namespace messages {
inline protocol::join_msg join_as(const std::string& name) {
  protocol::join_msg m;
  m.name = name;
  return m;
}
inline protocol::move_msg move_of(const json& m) {
  protocol::move_msg msg;
  msg.move = protocol::flat_object::from_json(m);
  return msg;
}
inline protocol::resume_msg resume_with(const std::string& room, const std::string& token) {
  protocol::resume_msg m;
  m.room = room;
  m.token = token;
  return m;
}
}  // namespace messages

}  // namespace carcassonne::testing
