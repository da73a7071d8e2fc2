#include "outgoing/addresses.hpp"

#include <ifaddrs.h>
#include <netinet/in.h>

#include <array>
#include <cstdint>
#include <cstring>

namespace carcassonne::server::outgoing {

namespace {

namespace ip = boost::asio::ip;

bool in_v4(std::uint32_t a, std::uint32_t net, int bits) {
  const std::uint32_t mask = bits == 0 ? 0 : ~std::uint32_t{0} << (32 - bits);
  return (a & mask) == (net & mask);
}

constexpr std::uint32_t v4(unsigned a, unsigned b, unsigned c, unsigned d) {
  return a << 24 | b << 16 | c << 8 | d;
}

std::string v4_kind(const ip::address_v4& address) {
  const std::uint32_t a = address.to_uint();
  struct range {
    std::uint32_t net;
    int bits;
    const char* kind;
  };
  // RFC 6890's special-purpose registry: none of these is a host on the public Internet.
  static constexpr std::array ranges{
      range{v4(0, 0, 0, 0), 8, "unspecified"},
      range{v4(10, 0, 0, 0), 8, "private (RFC 1918)"},
      range{v4(100, 64, 0, 0), 10, "shared (carrier-grade NAT)"},
      range{v4(127, 0, 0, 0), 8, "loopback"},
      range{v4(169, 254, 0, 0), 16, "link-local"},
      range{v4(172, 16, 0, 0), 12, "private (RFC 1918)"},
      range{v4(192, 0, 0, 0), 24, "reserved (IETF)"},
      range{v4(192, 0, 2, 0), 24, "documentation"},
      range{v4(192, 88, 99, 0), 24, "reserved (6to4 relay)"},
      range{v4(192, 168, 0, 0), 16, "private (RFC 1918)"},
      range{v4(198, 18, 0, 0), 15, "benchmarking"},
      range{v4(198, 51, 100, 0), 24, "documentation"},
      range{v4(203, 0, 113, 0), 24, "documentation"},
      range{v4(224, 0, 0, 0), 4, "multicast"},
      range{v4(240, 0, 0, 0), 4, "reserved"},
  };
  for (const range& r : ranges)
    if (in_v4(a, r.net, r.bits)) return r.kind;
  return {};
}

bool v6_prefix(const ip::address_v6::bytes_type& b, std::initializer_list<unsigned char> prefix,
               int bits) {
  int i = 0;
  for (const unsigned char p : prefix) {
    const int take = std::min(8, bits - 8 * i);
    if (take <= 0) break;
    const unsigned char mask = static_cast<unsigned char>(0xff << (8 - take));
    if ((b[static_cast<std::size_t>(i)] & mask) != (p & mask)) return false;
    ++i;
  }
  return true;
}

ip::address_v4 embedded_v4(const ip::address_v6::bytes_type& b) {
  return ip::address_v4({b[12], b[13], b[14], b[15]});
}

std::string v6_kind(const ip::address_v6& address) {
  const auto b = address.to_bytes();
  if (address.is_unspecified()) return "unspecified";
  if (address.is_loopback()) return "loopback";
  if (address.is_v4_mapped()) {
    const std::string inner = v4_kind(embedded_v4(b));
    return inner.empty() ? std::string() : inner + " (IPv4-mapped)";
  }
  // NAT64 (RFC 6052): the IPv4 address it leads to decides.
  if (v6_prefix(b, {0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0}, 96)) {
    const std::string inner = v4_kind(embedded_v4(b));
    return inner.empty() ? std::string() : inner + " (NAT64)";
  }
  if (v6_prefix(b, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 96)) return "reserved (IPv4-compatible)";
  if (v6_prefix(b, {0xfc}, 7)) return "unique local (ULA)";
  if (v6_prefix(b, {0xfe, 0x80}, 10)) return "link-local";
  if (v6_prefix(b, {0xfe, 0xc0}, 10)) return "site-local";
  if (v6_prefix(b, {0xff}, 8)) return "multicast";
  if (v6_prefix(b, {0x20, 0x01, 0x0d, 0xb8}, 32)) return "documentation";
  if (v6_prefix(b, {0x01, 0x00, 0, 0, 0, 0, 0, 0}, 64)) return "discard";
  // 6to4 (RFC 3056): judged by the IPv4 address in bits 16..47.
  if (v6_prefix(b, {0x20, 0x02}, 16)) {
    const std::string inner = v4_kind(ip::address_v4({b[2], b[3], b[4], b[5]}));
    return inner.empty() ? std::string() : inner + " (6to4)";
  }
  return {};
}

}  // namespace

std::string non_public_kind(const ip::address& a) {
  return a.is_v4() ? v4_kind(a.to_v4()) : v6_kind(a.to_v6());
}

bool own_address(const ip::address& a) {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return false;
  bool found = false;
  for (const ifaddrs* i = list; i && !found; i = i->ifa_next) {
    if (!i->ifa_addr) continue;
    if (i->ifa_addr->sa_family == AF_INET && a.is_v4()) {
      const auto* in = reinterpret_cast<const sockaddr_in*>(i->ifa_addr);
      found = ntohl(in->sin_addr.s_addr) == a.to_v4().to_uint();
    } else if (i->ifa_addr->sa_family == AF_INET6 && a.is_v6()) {
      const auto* in6 = reinterpret_cast<const sockaddr_in6*>(i->ifa_addr);
      const auto bytes = a.to_v6().to_bytes();
      found = std::memcmp(in6->sin6_addr.s6_addr, bytes.data(), bytes.size()) == 0;
    }
  }
  freeifaddrs(list);
  return found;
}

std::string refused_address(const ip::address& a) {
  std::string kind = non_public_kind(a);
  if (kind.empty() && own_address(a)) kind = "an address of this machine";
  return kind;
}

}  // namespace carcassonne::server::outgoing
