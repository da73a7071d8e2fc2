#include "carcassonne/protocol/flat_object.hpp"

#include "flat_scan.hpp"

namespace carcassonne::protocol {

bool flat_object::parse(std::string_view text, std::size_t& at) {
  text_.clear();
  count_ = 0;
  flat_scan::skip_space(text, at);
  const std::size_t begin = at;
  std::size_t i = at;
  if (text.size() - begin > 0xff00) return false;  // offsets are 16 bits (a frame is smaller)
  const auto offset = [&](std::string_view part) {
    return static_cast<std::uint16_t>(part.data() - text.data() - begin);
  };
  const bool ok = flat_scan::object(
      text, i,
      [&](const flat_scan::scanned& s) {
        return add({offset(s.key), static_cast<std::uint16_t>(s.key.size()), offset(s.text),
                    static_cast<std::uint16_t>(s.text.size()), s.type, s.negative, s.number},
                   text.substr(begin));
      },
      [](std::string_view, std::size_t&) { return false; });
  if (!ok) {
    count_ = 0;
    return false;
  }
  text_.assign(text.substr(begin, i - begin));
  at = i;
  return true;
}

// Before text_ is assigned: keys are compared in the text being read.
bool flat_object::add(member m, std::string_view source) {
  const auto key = source.substr(m.key_at, m.key_size);
  for (std::size_t k = 0; k < count_; ++k)
    if (source.substr(members_[k].key_at, members_[k].key_size) == key)
      return members_[k] = m, true;             // the last value wins
  if (count_ + 1 == max_members) return false;  // one slot kept for set_integer
  members_[count_++] = m;
  return true;
}

std::size_t flat_object::index_of(std::string_view k) const {
  std::size_t i = 0;
  while (i < count_ && key(members_[i]) != k) ++i;
  return i;
}

const flat_object::member* flat_object::find(std::string_view k) const {
  const auto i = index_of(k);
  return i < count_ ? &members_[i] : nullptr;
}

void flat_object::set_integer(std::string_view k, std::int64_t value) {
  member m;
  m.type = kind::integer;
  m.number = value;
  m.negative = value < 0;
  m.text_at = static_cast<std::uint16_t>(text_.size());
  text_ += std::to_string(value);
  m.text_size = static_cast<std::uint16_t>(text_.size() - m.text_at);
  if (const auto i = index_of(k); i < count_) {
    m.key_at = members_[i].key_at;
    m.key_size = members_[i].key_size;
    members_[i] = m;
    return;
  }
  m.key_at = static_cast<std::uint16_t>(text_.size());
  m.key_size = static_cast<std::uint16_t>(k.size());
  text_ += k;
  members_[count_++] = m;  // parse keeps a slot free
}

}  // namespace carcassonne::protocol
