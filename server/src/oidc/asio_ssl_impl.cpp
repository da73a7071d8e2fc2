// Asio's TLS layer compiled once, like the rest of Asio (transport/beast_impl.cpp): only the
// OpenID Connect client (http_fetch.cpp) speaks TLS.
#include <boost/asio/ssl/impl/src.hpp>
