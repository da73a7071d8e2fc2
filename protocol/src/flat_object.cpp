#include "carcassonne/protocol/flat_object.hpp"

#include "flat_scan.hpp"

namespace carcassonne::protocol {

bool flat_object::parse(std::string_view text, std::size_t& at) {
  text_.clear();
  members_.clear();
  nested_.clear();
  members_.reserve(8);  // a move's keys: one allocation
  flat_scan::skip_space(text, at);
  const std::size_t begin = at;
  std::size_t i = at;
  const auto offset = [&](std::string_view part) {
    return static_cast<std::uint32_t>(part.data() - text.data() - begin);
  };
  // Keys and values are kept where they are in the text, which is copied whole at the end.
  text_.assign(text.substr(begin));
  const bool ok = flat_scan::object(
      text, i,
      [&](const flat_scan::scanned& s) {
        add({offset(s.key), static_cast<std::uint32_t>(s.key.size()), offset(s.text),
             static_cast<std::uint32_t>(s.text.size()), s.type, s.negative, s.number});
        return true;
      },
      [](std::string_view, std::size_t&) { return false; });
  if (!ok) {
    text_.clear();
    members_.clear();
    return false;
  }
  text_.resize(i - begin);
  at = i;
  return true;
}

flat_object flat_object::from_json(const nlohmann::json& j) {
  flat_object f;
  for (const auto& [key, v] : j.items()) {
    member m;
    m.key_at = static_cast<std::uint32_t>(f.text_.size());
    m.key_size = static_cast<std::uint32_t>(key.size());
    f.text_ += key;
    m.text_at = static_cast<std::uint32_t>(f.text_.size());
    if (v.is_string()) {
      m.type = kind::string;
      f.text_ += v.get_ref<const std::string&>();
    } else if (v.is_number_integer()) {
      m.type = kind::integer;
      m.negative = !v.is_number_unsigned();
      m.number = v.get<std::int64_t>();
      f.text_ += v.dump();
    } else if (v.is_boolean() || v.is_null()) {
      m.type = v.is_null() ? kind::null : kind::boolean;
      f.text_ += v.dump();
    } else {
      m.type = kind::other;
      m.number = static_cast<std::int64_t>(f.nested_.size());
      f.nested_.push_back(v);
    }
    m.text_size = static_cast<std::uint32_t>(f.text_.size() - m.text_at);
    f.members_.push_back(m);  // the keys of a tree are distinct
  }
  return f;
}

// While parsing: text_ holds the text from the object on, so keys compare in it already.
void flat_object::add(member m) {
  if (const auto i = index_of(key(m)); i < members_.size())
    members_[i] = m;  // the last value wins
  else
    members_.push_back(m);
}

std::size_t flat_object::index_of(std::string_view k) const {
  std::size_t i = 0;
  while (i < members_.size() && key(members_[i]) != k) ++i;
  return i;
}

const flat_object::member* flat_object::find(std::string_view k) const {
  const auto i = index_of(k);
  return i < members_.size() ? &members_[i] : nullptr;
}

void flat_object::set_integer(std::string_view k, std::int64_t value) {
  member m;
  m.type = kind::integer;
  m.number = value;
  m.negative = value < 0;
  m.text_at = static_cast<std::uint32_t>(text_.size());
  text_ += std::to_string(value);
  m.text_size = static_cast<std::uint32_t>(text_.size() - m.text_at);
  if (const auto i = index_of(k); i < members_.size()) {
    m.key_at = members_[i].key_at;
    m.key_size = members_[i].key_size;
    members_[i] = m;
    return;
  }
  m.key_at = static_cast<std::uint32_t>(text_.size());
  m.key_size = static_cast<std::uint32_t>(k.size());
  text_ += k;
  members_.push_back(m);
}

}  // namespace carcassonne::protocol
