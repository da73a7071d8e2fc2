# Finds jemalloc (Debian's libjemalloc-dev, which ships no CMake package) and defines
# Jemalloc::Jemalloc: the allocator the carcassonne executable links (app/CMakeLists.txt).
find_path(Jemalloc_INCLUDE_DIR jemalloc/jemalloc.h)
find_library(Jemalloc_LIBRARY NAMES jemalloc)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Jemalloc REQUIRED_VARS Jemalloc_LIBRARY Jemalloc_INCLUDE_DIR)
if(Jemalloc_FOUND AND NOT TARGET Jemalloc::Jemalloc)
  add_library(Jemalloc::Jemalloc UNKNOWN IMPORTED)
  set_target_properties(Jemalloc::Jemalloc PROPERTIES
    IMPORTED_LOCATION "${Jemalloc_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${Jemalloc_INCLUDE_DIR}")
endif()
mark_as_advanced(Jemalloc_INCLUDE_DIR Jemalloc_LIBRARY)
