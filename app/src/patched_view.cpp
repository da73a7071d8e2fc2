#include "carcassonne/app/patched_view.hpp"

#include <charconv>
#include <cstddef>

namespace carcassonne::app {

using json = nlohmann::json;

namespace {

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
json* parent_of(json& doc, std::string_view pointer, std::string& last) {
  if (pointer.empty() || pointer[0] != '/') return nullptr;
  json* at = &doc;
  pointer.remove_prefix(1);
  for (;;) {
    const auto slash = pointer.find('/');
    if (slash == std::string_view::npos) {
      last = unescape(pointer);
      return at;
    }
    const std::string token = unescape(pointer.substr(0, slash));
    pointer.remove_prefix(slash + 1);
    if (at->is_object()) {
      auto it = at->find(token);
      if (it == at->end()) return nullptr;
      at = &*it;
    } else if (at->is_array()) {
      std::size_t i = 0;
      if (!read_index(token, i) || i >= at->size()) return nullptr;
      at = &(*at)[i];
    } else {
      return nullptr;
    }
  }
}

// The op's value is moved into doc.
std::string apply_op(json& doc, json& op) {
  const auto kind = op.find("op");
  const auto path = op.find("path");
  if (kind == op.end() || !kind->is_string() || path == op.end() || !path->is_string())
    return "an op without op or path";
  const std::string& name = kind->get_ref<const std::string&>();
  const std::string& pointer = path->get_ref<const std::string&>();
  const bool add = name == "add", replace = name == "replace", remove = name == "remove";
  if (!add && !replace && !remove) return "unsupported op " + name;
  const auto value = op.find("value");
  if (!remove && value == op.end()) return name + " without value at " + pointer;
  std::string last;
  json* parent = parent_of(doc, pointer, last);
  if (!parent) return "no parent at " + pointer;
  if (parent->is_object()) {
    if (add) {
      (*parent)[last] = std::move(*value);
      return "";
    }
    auto it = parent->find(last);
    if (it == parent->end()) return "no member at " + pointer;
    if (replace)
      *it = std::move(*value);
    else
      parent->erase(it);
    return "";
  }
  if (!parent->is_array()) return "not a container at " + pointer;
  auto& a = parent->get_ref<json::array_t&>();
  if (add && last == "-") {
    a.push_back(std::move(*value));
    return "";
  }
  std::size_t i = 0;
  if (!read_index(last, i) || i > a.size() || (!add && i == a.size()))
    return "no element at " + pointer;
  if (add)
    a.insert(a.begin() + static_cast<std::ptrdiff_t>(i), std::move(*value));
  else if (replace)
    a[i] = std::move(*value);
  else
    a.erase(a.begin() + static_cast<std::ptrdiff_t>(i));
  return "";
}

}  // namespace

std::string apply_json_patch(json& doc, json& ops) {
  for (auto& op : ops) {
    if (!op.is_object()) return "an op that is not an object";
    if (auto failed = apply_op(doc, op); !failed.empty()) return failed;
  }
  return "";
}

const json& patched_view::parse(std::string_view frame) {
  frame_ = json::parse(frame, nullptr, false);
  return frame_;
}

void patched_view::reset(const json& view) {
  if (view.is_object())
    view_ = view;
  else
    view_ = nullptr;
}

std::string patched_view::apply_frame(std::string_view frame) {
  parse(frame);
  const auto patch = frame_.find("patch");  // end() unless an object
  std::string failed = patch == frame_.end() || !patch->is_array()
                           ? "a patch frame without a patch"
                           : apply_json_patch(view_, *patch);
  if (!failed.empty()) view_ = nullptr;
  return failed;
}

}  // namespace carcassonne::app
