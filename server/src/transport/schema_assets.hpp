// Internal: the files of docs/schema/ (the wire schema), embedded at build time by
// cmake/embed_web.cmake and served at /api/schema.
#pragma once
#include <span>

#include "transport/web_assets.hpp"

namespace carcassonne::server::schema_assets {

using file = web_assets::file;  // path: the file's name in docs/schema/, "protocol.json"

std::span<const file> files();

}  // namespace carcassonne::server::schema_assets
