// Asio's TLS layer compiled once, like the rest of Asio (transport/beast_impl.cpp): only the
// outgoing connections (connection.cpp) speak TLS as a client.
#include <boost/asio/ssl/impl/src.hpp>
