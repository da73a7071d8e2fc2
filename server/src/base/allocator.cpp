#include "base/allocator.hpp"

#include <dlfcn.h>

#include <cstddef>

namespace carcassonne::server {

std::string allocator_name() {
  // Looked up rather than linked: the server library is the same with either allocator, and a
  // jemalloc preloaded with LD_PRELOAD is found too.
  using mallctl_fn = int (*)(const char*, void*, std::size_t*, void*, std::size_t);
  const auto mallctl = reinterpret_cast<mallctl_fn>(dlsym(RTLD_DEFAULT, "mallctl"));
  const char* version = nullptr;
  std::size_t size = sizeof(version);
  if (mallctl && mallctl("version", &version, &size, nullptr, 0) == 0 && version)
    return std::string("jemalloc ") + version;
  return "the C library's malloc";
}

}  // namespace carcassonne::server
