#include "transport/static_files.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "carcassonne/engine/tile_data.hpp"
#include "carcassonne/protocol/options_doc.hpp"
#include "transport/schema_assets.hpp"
#include "transport/web_assets.hpp"

namespace carcassonne::server {

namespace {

std::string etag_of(std::string_view bytes) {
  std::uint64_t h = 14695981039346656037ull;  // FNV-1a: a fingerprint, not a defence
  for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  char text[24];
  std::snprintf(text, sizeof text, "\"%016llx\"", static_cast<unsigned long long>(h));
  return text;
}

std::string content_type_of(std::string_view path) {
  const auto dot = path.rfind('.');
  const auto ext = dot == std::string_view::npos ? std::string_view{} : path.substr(dot + 1);
  if (ext == "html") return "text/html; charset=utf-8";
  if (ext == "css") return "text/css; charset=utf-8";
  if (ext == "js" || ext == "mjs") return "text/javascript; charset=utf-8";
  if (ext == "json") return "application/json";
  if (ext == "svg") return "image/svg+xml";
  if (ext == "png") return "image/png";
  if (ext == "ico") return "image/x-icon";
  if (ext == "webmanifest") return "application/manifest+json";
  if (ext == "txt") return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

// Only plain relative paths ([A-Za-z0-9._-] segments, none starting with a dot): nothing can
// name a file outside the web folder, whether embedded or on disk.
bool safe_relative_path(std::string_view path) {
  if (path.empty() || path.size() > 200) return false;
  bool segment_start = true;
  for (char c : path) {
    if (c == '/') {
      if (segment_start) return false;  // empty segment
      segment_start = true;
      continue;
    }
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '_' || c == '.';
    if (!plain || (segment_start && c == '.')) return false;
    segment_start = false;
  }
  return !segment_start;
}

std::optional<static_file> web_file(std::string_view rel, const std::string& web_root) {
  if (!safe_relative_path(rel)) return std::nullopt;
  static_file f;
  if (web_root.empty()) {
    const web_assets::file* found = nullptr;
    for (const auto& a : web_assets::files())
      if (a.path == rel) found = &a;
    if (!found) return std::nullopt;
    f.content.assign(found->bytes);
  } else {
    std::ifstream in(web_root + "/" + std::string(rel), std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (in.bad()) return std::nullopt;
    f.content = std::move(bytes).str();
  }
  f.content_type = content_type_of(rel);
  f.etag = etag_of(f.content);
  return f;
}

// The catalogue exactly as the engine embeds it: one JSON array, each tile type with its "set".
const static_file& tiles_json() {
  static const static_file file = [] {
    auto all = nlohmann::json::array();
    for (const auto& set : data::embedded_tile_sets()) {
      for (auto tile : nlohmann::json::parse(set.text)) {
        tile["set"] = set.set;
        all.push_back(std::move(tile));
      }
    }
    static_file f;
    f.content = nlohmann::json{{"format", "carcassonne-tiles/1"}, {"tiles", std::move(all)}}.dump();
    f.content_type = "application/json";
    f.etag = etag_of(f.content);
    return f;
  }();
  return file;
}

// The expansions and their rule options, from the registry's modules (options_doc.hpp).
const static_file& options_json() {
  static const static_file file = [] {
    static_file f;
    f.content = protocol::options_catalogue().dump();
    f.content_type = "application/json";
    f.etag = etag_of(f.content);
    return f;
  }();
  return file;
}

// The wire schema (docs/schema/, embedded): a file by its name, or the root for an empty name.
std::optional<static_file> schema_file(std::string_view name) {
  if (name.empty()) name = "protocol.json";
  if (name.find('/') != std::string_view::npos || !safe_relative_path(name)) return std::nullopt;
  for (const auto& a : schema_assets::files()) {
    if (a.path != name) continue;
    static_file f;
    f.content.assign(a.bytes);
    f.content_type = "application/json";
    f.etag = etag_of(f.content);
    return f;
  }
  return std::nullopt;
}

bool etag_matches(std::string_view if_none_match, std::string_view etag) {
  if (if_none_match.empty()) return false;
  if (if_none_match.find('*') != std::string_view::npos) return true;
  return if_none_match.find(etag) != std::string_view::npos;  // also inside W/"..." or a list
}

}  // namespace

std::optional<static_file> find_static_file(std::string_view target, const std::string& web_root) {
  if (const auto q = target.find('?'); q != std::string_view::npos) target = target.substr(0, q);
  if (target == "/" || target == "/index.html") return web_file("index.html", web_root);
  // The overlay for streaming software (docs/web.md "Overlay").
  if (target == "/overlay.html") return web_file("overlay.html", web_root);
  if (target == "/api/tiles") return tiles_json();
  if (target == "/api/options") return options_json();
  // At the root: a service worker's scope is its folder (docs/web.md "Notifications").
  if (target == "/sw.js") return web_file("sw.js", web_root);
  if (target == "/manifest.webmanifest") return web_file("manifest.webmanifest", web_root);
  if (target == "/api/schema") return schema_file("");
  if (constexpr std::string_view schema = "/api/schema/"; target.starts_with(schema))
    return schema_file(target.substr(schema.size()));
  constexpr std::string_view prefix = "/static/";
  if (target.starts_with(prefix)) return web_file(target.substr(prefix.size()), web_root);
  return std::nullopt;
}

http::response<http::string_body> static_file_response(const http::request<http::string_body>& req,
                                                       const static_file& file) {
  const bool fresh = etag_matches(req[http::field::if_none_match], file.etag);
  http::response<http::string_body> res{fresh ? http::status::not_modified : http::status::ok,
                                        req.version()};
  res.set(http::field::server, "carcassonne");
  res.set(http::field::etag, file.etag);
  // no-cache: the browser may keep a copy but asks every time; an unchanged file costs a 304.
  res.set(http::field::cache_control, "no-cache");
  res.set("X-Content-Type-Options", "nosniff");
  if (file.content_type.starts_with("text/html")) {
    // The page loads only its own files and talks only to its own server (the overlay's event
    // stream too: in a cluster every instance serves every room's stream, docs/scaling.md).
    res.set("Content-Security-Policy",
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:; connect-src 'self' ws: wss:; object-src 'none'; "
            "base-uri 'none'; frame-ancestors 'none'");
    res.set("Referrer-Policy", "no-referrer");
  }
  res.keep_alive(req.keep_alive());
  if (fresh) return res;
  res.set(http::field::content_type, file.content_type);
  if (req.method() == http::verb::head) {
    res.content_length(file.content.size());  // the size a GET would send, without the body
  } else {
    res.body() = file.content;
    res.prepare_payload();
  }
  return res;
}

std::optional<http::response<http::string_body>> serve_static(
    const http::request<http::string_body>& req, const std::string& web_root) {
  if (req.method() != http::verb::get && req.method() != http::verb::head) return std::nullopt;
  const auto file =
      find_static_file(std::string_view(req.target().data(), req.target().size()), web_root);
  if (!file) return std::nullopt;
  return static_file_response(req, *file);
}

}  // namespace carcassonne::server
