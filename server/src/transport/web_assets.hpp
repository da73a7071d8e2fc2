// Internal: the files of server/web/, embedded at build time by cmake/embed_web.cmake.
#pragma once
#include <span>
#include <string_view>

namespace carcassonne::server::web_assets {

struct file {
  std::string_view path;   // relative to server/web/, '/'-separated: "index.html", "js/main.js"
  std::string_view bytes;  // the file's content, unchanged
};

std::span<const file> files();

}  // namespace carcassonne::server::web_assets
