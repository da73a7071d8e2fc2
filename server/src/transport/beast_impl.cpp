// Asio and Beast compiled once for the whole project (separate compilation keeps builds short).
#include <boost/asio/impl/src.hpp>
#include <boost/beast/src.hpp>
