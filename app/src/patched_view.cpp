#include "carcassonne/app/patched_view.hpp"

#include <charconv>
#include <cstddef>
#include <new>

namespace carcassonne::app {

namespace json = boost::json;

namespace {

constexpr std::size_t scratch_bytes = 16384;

// One reference token of a JSON Pointer (RFC 6901), unescaped: ~1 is '/', ~0 is '~'.
std::string unescape(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
      out.push_back(token[++i] == '0' ? '~' : '/');
    } else {
      out.push_back(token[i]);
    }
  }
  return out;
}

// An array index token: digits only, no leading zero (RFC 6901 section 4).
bool read_index(std::string_view token, std::size_t& index) {
  if (token.empty() || (token.size() > 1 && token[0] == '0')) return false;
  const auto end = token.data() + token.size();
  const auto [at, ec] = std::from_chars(token.data(), end, index);
  return ec == std::errc() && at == end;
}

// The value the pointer's tokens before the last one name, and that last token; null if a step
// of the way is missing.
json::value* parent_of(json::value& doc, std::string_view pointer, std::string& last) {
  if (pointer.empty() || pointer[0] != '/') return nullptr;
  json::value* at = &doc;
  pointer.remove_prefix(1);
  for (;;) {
    const auto slash = pointer.find('/');
    if (slash == std::string_view::npos) {
      last = unescape(pointer);
      return at;
    }
    const std::string token = unescape(pointer.substr(0, slash));
    pointer.remove_prefix(slash + 1);
    if (auto* o = at->if_object()) {
      auto it = o->find(token);
      if (it == o->end()) return nullptr;
      at = &it->value();
    } else if (auto* a = at->if_array()) {
      std::size_t i = 0;
      if (!read_index(token, i) || i >= a->size()) return nullptr;
      at = &(*a)[i];
    } else {
      return nullptr;
    }
  }
}

// The op's value is moved into doc (a copy when it lives in another storage).
std::string apply_op(json::value& doc, json::object& op) {
  const auto* kind = op.if_contains("op");
  const auto* path = op.if_contains("path");
  if (!kind || !kind->is_string() || !path || !path->is_string()) return "an op without op or path";
  const std::string_view name = kind->get_string(), pointer = path->get_string();
  const bool add = name == "add", replace = name == "replace", remove = name == "remove";
  if (!add && !replace && !remove) return "unsupported op " + std::string(name);
  auto* value = op.if_contains("value");
  if (!remove && !value) return std::string(name) + " without value at " + std::string(pointer);
  std::string last;
  json::value* parent = parent_of(doc, pointer, last);
  if (!parent) return "no parent at " + std::string(pointer);
  if (auto* o = parent->if_object()) {
    if (add) {
      o->insert_or_assign(last, json::value(std::move(*value), doc.storage()));
      return "";
    }
    auto it = o->find(last);
    if (it == o->end()) return "no member at " + std::string(pointer);
    if (replace)
      it->value() = json::value(std::move(*value), doc.storage());
    else
      o->erase(it);
    return "";
  }
  auto* a = parent->if_array();
  if (!a) return "not a container at " + std::string(pointer);
  if (add && last == "-") {
    a->emplace_back(json::value(std::move(*value), doc.storage()));
    return "";
  }
  std::size_t i = 0;
  if (!read_index(last, i) || i > a->size() || (!add && i == a->size()))
    return "no element at " + std::string(pointer);
  if (add)
    a->insert(a->begin() + static_cast<std::ptrdiff_t>(i),
              json::value(std::move(*value), doc.storage()));
  else if (replace)
    (*a)[i] = json::value(std::move(*value), doc.storage());
  else
    a->erase(a->begin() + static_cast<std::ptrdiff_t>(i));
  return "";
}

}  // namespace

block_pool::~block_pool() {
  for (auto& list : free_)
    for (void* p : list) ::operator delete(p);  // unsized: clang has no sized delete by default
}

void* block_pool::do_allocate(std::size_t bytes, std::size_t align) {
  if (bytes > largest || align > alignof(std::max_align_t))
    return ::operator new(bytes, std::align_val_t(align));
  const std::size_t c = (bytes + grain - 1) / grain;
  if (free_[c].empty()) return ::operator new(grain* c);
  void* p = free_[c].back();
  free_[c].pop_back();
  return p;
}

void block_pool::do_deallocate(void* p, std::size_t bytes, std::size_t align) {
  if (bytes > largest || align > alignof(std::max_align_t))
    return ::operator delete(p, std::align_val_t(align));
  free_[(bytes + grain - 1) / grain].push_back(p);
}

std::string apply_json_patch(json::value& doc, json::array& ops) {
  for (auto& op : ops) {
    auto* o = op.if_object();
    if (!o) return "an op that is not an object";
    if (auto failed = apply_op(doc, *o); !failed.empty()) return failed;
  }
  return "";
}

const json::value& patched_view::parse(std::string_view frame) {
  return parse_frame(frame);
}

json::value& patched_view::parse_frame(std::string_view frame) {
  frame_.reset();  // its memory is the scratch arena's: gone before the arena is made anew
  if (!buffer_) {
    buffer_ = std::make_unique<unsigned char[]>(scratch_bytes);
    parser_.emplace();
  }
  // Made anew, not release()d: Boost 1.81's release() keeps doubling the size of the next block
  // it asks for beyond the buffer, until an allocation fails.
  parser_->reset();  // lets go of what a failed parse left in the old arena
  scratch_.emplace(buffer_.get(), scratch_bytes);
  parser_->reset(json::storage_ptr(&*scratch_));
  json::error_code ec;
  parser_->write(frame.data(), frame.size(), ec);
  if (!ec) frame_.emplace(parser_->release());
  if (!frame_) frame_.emplace();
  return *frame_;
}

void patched_view::reset(const json::value& view) {
  if (view.is_object())
    view_ = json::value(view, view_.storage());  // the same storage: moved, not copied again
  else
    view_.emplace_null();
}

std::string patched_view::apply_frame(std::string_view frame) {
  // Parsed into the arena, its values copied into the view's pool (measured: cheaper than
  // parsing into the pool and moving them).
  auto& m = parse_frame(frame);
  auto* o = m.if_object();
  auto* patch = o ? o->if_contains("patch") : nullptr;
  std::string failed = !patch || !patch->is_array() ? "a patch frame without a patch"
                                                    : apply_json_patch(view_, patch->get_array());
  if (!failed.empty()) view_.emplace_null();
  return failed;
}

}  // namespace carcassonne::app
