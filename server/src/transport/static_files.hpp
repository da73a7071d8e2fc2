// The web page: the files of server/web/ (embedded in the binary at build time, or read from
// --web-root for development) and the tile catalogue as JSON, served over plain HTTP.
//   GET /             index.html
//   GET /static/PATH  server/web/PATH (JavaScript modules, CSS, images)
//   GET /api/tiles    the engine's own tile catalogue (engine/data/tiles/*.json, as embedded)
//   GET /api/options  the expansions and their rule options, with labels (options_doc.hpp)
//   GET /api/schema   the wire schema's root (docs/schema/protocol.json, embedded), and
//   GET /api/schema/F the other files of docs/schema/ (JSON Schema 2020-12, AsyncAPI 3.0)
// Every answer carries an ETag and Cache-Control: no-cache; If-None-Match gives 304.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "transport/net.hpp"

namespace carcassonne::server {

struct static_file {
  std::string content;
  std::string content_type;
  std::string etag;  // strong, quoted: "\"0123456789abcdef\""
};

// The file served at `target` (its query string ignored), or nothing when there is none.
// With a non-empty `web_root`, files of server/web/ come from that folder, read at each request.
std::optional<static_file> find_static_file(std::string_view target, const std::string& web_root);

// 200 with the file (no body for HEAD), or 304 when the request's If-None-Match names its ETag.
http::response<http::string_body> static_file_response(const http::request<http::string_body>& req,
                                                       const static_file& file);

// The whole answer for a GET/HEAD of one of the paths above, or nothing when `req` is not one.
std::optional<http::response<http::string_body>> serve_static(
    const http::request<http::string_body>& req, const std::string& web_root);

}  // namespace carcassonne::server
