// Which addresses an outgoing request may reach when it must stay on the public Internet (a
// push endpoint or a webhook that a user chose: server-side request forgery). Thread-safe.
#pragma once
#include <boost/asio/ip/address.hpp>
#include <string>

namespace carcassonne::server::outgoing {

// Why `a` is no public address ("loopback", "private (RFC 1918)", "link-local", ...), or empty
// when it is one. IPv4 inside IPv6 (mapped, NAT64) is judged as the IPv4 address it carries.
std::string non_public_kind(const boost::asio::ip::address& a);

// Whether `a` is an address of one of this machine's interfaces (this server's own public
// address among them), read when asked.
bool own_address(const boost::asio::ip::address& a);

// non_public_kind, or "an address of this machine"; empty when a user's URL may lead there.
std::string refused_address(const boost::asio::ip::address& a);

}  // namespace carcassonne::server::outgoing
