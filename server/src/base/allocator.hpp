// Which malloc the process runs on, for the log at start: the executable links jemalloc unless it
// was built without it (CARCASSONNE_JEMALLOC=OFF, or a sanitizer build).
#pragma once
#include <string>

namespace carcassonne::server {

// "jemalloc <version>" when jemalloc's malloc is the process's, else "the C library's malloc".
std::string allocator_name();

}  // namespace carcassonne::server
