// Boost.JSON compiled once, here (its header-only mode: Debian ships the headers, not the
// library), for the load tool's checking clients (patched_view.cpp).
#include <boost/json/src.hpp>
