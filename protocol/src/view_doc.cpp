#include "carcassonne/protocol/view_doc.hpp"

#include <utility>

namespace carcassonne::protocol {

view_field& view_doc::scalar(std::string key, std::string text) {
  fields.push_back(view_field{std::move(key), false, std::move(text), {}});
  return fields.back();
}

view_field& view_doc::array(std::string key) {
  fields.push_back(view_field{std::move(key), true, {}, {}});
  return fields.back();
}

const view_field* view_doc::find(std::string_view key) const {
  for (const auto& f : fields)
    if (f.key == key) return &f;
  return nullptr;
}

view_field* view_doc::find(std::string_view key) {
  return const_cast<view_field*>(std::as_const(*this).find(key));
}

namespace {

void append_value(std::string& out, const view_field& f) {
  if (!f.is_array) {
    out += f.text;
    return;
  }
  out.push_back('[');
  out += f.items.joined();
  out.push_back(']');
}

void append_fields(std::string& out, const view_doc& d, bool& first) {
  for (const auto& f : d.fields) {
    if (!first) out.push_back(',');
    first = false;
    append_quoted(out, f.key);
    out.push_back(':');
    append_value(out, f);
  }
}

constexpr std::size_t no_index = static_cast<std::size_t>(-1);
constexpr std::size_t end_index = no_index - 1;  // "-": past the end

void op(std::string& ops, const char* kind, std::string_view prefix, std::string_view key,
        std::size_t index, const std::string_view* value_text, const view_field* value_field) {
  if (!ops.empty()) ops.push_back(',');
  ops += R"({"op":")";
  ops += kind;
  ops += R"(","path":")";
  ops += prefix;
  ops.push_back('/');
  ops += key;  // keys are plain identifiers: no escaping needed in a JSON Pointer
  if (index == end_index) {
    ops += "/-";
  } else if (index != no_index) {
    ops.push_back('/');
    append_number(ops, static_cast<long long>(index));
  }
  ops.push_back('"');
  if (value_text || value_field) {
    ops += R"(,"value":)";
    if (value_text)
      ops += *value_text;
    else
      append_value(ops, *value_field);
  }
  ops.push_back('}');
}

// The common elements that differ; one comparison when `b` only added elements (a board).
std::size_t changed_items(const item_list& a, const item_list& b, std::size_t common) {
  if (common == a.size() && b.starts_with(a)) return 0;
  std::size_t changed = 0;
  for (std::size_t i = 0; i < common; ++i) changed += a[i] != b[i];
  return changed;
}

void diff_array(const view_field& a, const view_field& b, std::string_view prefix,
                std::string& ops) {
  // b took a's elements (carry_from): a had that many, and they are b's first.
  const bool carried = b.items.carried() > 0 && a.items.empty();
  const std::size_t a_size = carried ? b.items.carried() : a.items.size();
  const std::size_t common = std::min(a_size, b.items.size());
  const std::size_t changed = carried ? 0 : changed_items(a.items, b.items, common);
  const std::size_t total = changed + (a_size - common) + (b.items.size() - common);
  if (total == 0) return;
  if (2 * total > b.items.size() + 1)
    return op(ops, "replace", prefix, b.key, no_index, nullptr, &b);
  for (std::size_t i = 0; changed > 0 && i < common; ++i) {
    const auto item = b.items[i];
    if (a.items[i] != item) op(ops, "replace", prefix, b.key, i, &item, nullptr);
  }
  for (std::size_t i = a_size; i > common; --i)  // remove from the end backwards
    op(ops, "remove", prefix, b.key, i - 1, nullptr, nullptr);
  for (std::size_t i = common; i < b.items.size(); ++i) {
    const auto item = b.items[i];
    op(ops, "add", prefix, b.key, end_index, &item, nullptr);
  }
}

}  // namespace

std::string view_doc::text(const view_doc* more) const {
  std::string out = "{";
  bool first = true;
  append_fields(out, *this, first);
  if (more) append_fields(out, *more, first);
  out.push_back('}');
  return out;
}

std::size_t view_doc::bytes() const {
  std::size_t n = sizeof(view_doc) + fields.capacity() * sizeof(view_field);
  for (const auto& f : fields) {
    n += f.key.capacity() + f.text.capacity() + f.items.bytes();
  }
  return n;
}

void diff_docs(const view_doc& from, const view_doc& to, std::string_view prefix,
               std::string& ops) {
  for (std::size_t i = 0; i < from.fields.size(); ++i) {
    const auto& f = from.fields[i];
    const bool kept = (i < to.fields.size() && to.fields[i].key == f.key) || to.find(f.key);
    if (!kept) op(ops, "remove", prefix, f.key, no_index, nullptr, nullptr);
  }
  for (std::size_t i = 0; i < to.fields.size(); ++i) {
    const auto& f = to.fields[i];
    // Both documents usually have the same keys in the same order: look at the same index first.
    const view_field* old =
        i < from.fields.size() && from.fields[i].key == f.key ? &from.fields[i] : from.find(f.key);
    if (!old)
      op(ops, "add", prefix, f.key, no_index, nullptr, &f);
    else if (old->is_array && f.is_array)
      diff_array(*old, f, prefix, ops);
    else if (old->is_array != f.is_array || old->text != f.text)
      op(ops, "replace", prefix, f.key, no_index, nullptr, &f);
  }
}

}  // namespace carcassonne::protocol
