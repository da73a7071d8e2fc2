// The address settings of docker/compose.cluster.yaml behind a forwarding proxy on loopback:
// the instances trust X-Forwarded-For from the proxy's address alone, so players arriving
// through the proxy at once are counted one address each, while a client's own X-Forwarded-For,
// sent directly or through the proxy, counts for nothing. The proxy here does what HAProxy's
// `option forwardfor` does: it appends a line with the address it saw the client connect from.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>

#include "e2e_client.hpp"

namespace {

using namespace e2e;

// `key: value` on a line of the compose file (the first such line), quotes and comment removed.
std::string compose_value(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const auto at = line.find(key + ":");
    if (at == std::string::npos || line.find_first_not_of(' ') != at) continue;
    std::string value = line.substr(at + key.size() + 1);
    if (const auto hash = value.find(" #"); hash != std::string::npos) value.erase(hash);
    value.erase(0, value.find_first_not_of(" \""));
    value.erase(value.find_last_not_of(" \"") + 1);
    return value;
  }
  FAIL("no '" << key << "' in docker/compose.cluster.yaml");
  return {};
}

// A TCP socket from `source` (any 127.x address is loopback) to 127.0.0.1:port; -1 on failure.
int connect_from(const std::string& source, std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in from{}, to{};
  from.sin_family = to.sin_family = AF_INET;
  ::inet_pton(AF_INET, source.c_str(), &from.sin_addr);
  ::inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
  to.sin_port = htons(port);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof from) != 0 ||
      ::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool send_all(int fd, const std::string& bytes) {
  for (std::size_t at = 0; at < bytes.size();) {
    const auto n = ::send(fd, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
    if (n <= 0) return false;
    at += static_cast<std::size_t>(n);
  }
  return true;
}

// An HTTP head (up to its blank line), within io_timeout; "" if it does not come whole.
std::string read_head(int fd) {
  std::string head;
  const auto deadline = steady::now() + io_timeout;
  while (head.find("\r\n\r\n") == std::string::npos) {
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - steady::now());
    pollfd p{fd, POLLIN, 0};
    if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) != 1) return "";
    char buffer[1024];
    const auto n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) return "";
    head.append(buffer, static_cast<std::size_t>(n));
  }
  return head;
}

std::string upgrade_request(const std::string& forged) {
  std::string r =
      "GET /ws HTTP/1.1\r\nHost: games.example.org\r\nUpgrade: websocket\r\n"
      "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
      "Sec-WebSocket-Version: 13\r\n";
  if (!forged.empty()) r += "X-Forwarded-For: " + forged + "\r\n";
  return r + "\r\n";
}

// The proxy on loopback: accepts one client, appends its X-Forwarded-For line, and passes the
// upgrade to the server from its own address; the answer goes back to the client. Sockets stay
// open until the proxy goes (an admitted connection keeps its address's slot).
class forwarding_proxy {
 public:
  forwarding_proxy(std::uint16_t server_port, std::string own_address)
      : server_port_(server_port), own_(std::move(own_address)) {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in at{};
    at.sin_family = AF_INET;
    ::inet_pton(AF_INET, "127.0.0.1", &at.sin_addr);
    socklen_t size = sizeof at;
    REQUIRE(::bind(listener_, reinterpret_cast<sockaddr*>(&at), size) == 0);
    REQUIRE(::listen(listener_, 64) == 0);
    REQUIRE(::getsockname(listener_, reinterpret_cast<sockaddr*>(&at), &size) == 0);
    port_ = ntohs(at.sin_port);
  }
  ~forwarding_proxy() {
    for (const int fd : open_) ::close(fd);
    ::close(listener_);
  }
  std::uint16_t port() const { return port_; }

  // A client from `source` (sending `forged` as its own X-Forwarded-For, if not empty) asks
  // for the upgrade through the proxy: the status of the answer it gets (0: none).
  int upgrade(const std::string& source, const std::string& forged = "") {
    const int client = connect_from(source, port_);
    REQUIRE(client >= 0);
    open_.push_back(client);
    REQUIRE(send_all(client, upgrade_request(forged)));
    sockaddr_in peer{};
    socklen_t size = sizeof peer;
    const int accepted = ::accept(listener_, reinterpret_cast<sockaddr*>(&peer), &size);
    REQUIRE(accepted >= 0);
    open_.push_back(accepted);
    char seen[INET_ADDRSTRLEN] = {};
    ::inet_ntop(AF_INET, &peer.sin_addr, seen, sizeof seen);
    std::string head = read_head(accepted);
    REQUIRE(!head.empty());
    head.insert(head.size() - 2, std::string("X-Forwarded-For: ") + seen + "\r\n");
    const int upstream = connect_from(own_, server_port_);
    REQUIRE(upstream >= 0);
    open_.push_back(upstream);
    REQUIRE(send_all(upstream, head));
    const auto answer = read_head(upstream);
    REQUIRE(send_all(accepted, answer));
    return status_of(read_head(client));
  }

  static int status_of(const std::string& head) {
    return head.size() > 12 && head.rfind("HTTP/1.1 ", 0) == 0 ? std::stoi(head.substr(9, 3)) : 0;
  }

  // A client that reaches the server directly, not through the proxy.
  int direct_upgrade(const std::string& source, const std::string& forged) {
    const int fd = connect_from(source, server_port_);
    REQUIRE(fd >= 0);
    open_.push_back(fd);
    REQUIRE(send_all(fd, upgrade_request(forged)));
    return status_of(read_head(fd));
  }

 private:
  std::uint16_t server_port_, port_ = 0;
  std::string own_;
  int listener_ = -1;
  std::vector<int> open_;
};

// How many of `statuses` are 101 (admitted) and 429 (refused by an address limit).
std::pair<int, int> admitted_refused(const std::vector<int>& statuses) {
  int admitted = 0, refused = 0;
  for (const int s : statuses) {
    admitted += s == 101;
    refused += s == 429;
  }
  return {admitted, refused};
}

}  // namespace

TEST_CASE("e2e: the cluster's address settings: players through the proxy are one address each") {
  std::ifstream file(std::string(CARCASSONNE_SOURCE_DIR) + "/docker/compose.cluster.yaml");
  REQUIRE(file);
  const std::string compose{std::istreambuf_iterator<char>(file), {}};
  const auto proxy_address = compose_value(compose, "ipv4_address");
  const auto exempt = compose_value(compose, "CARCASSONNE_EXEMPT_ADDRESSES");
  const auto trust = compose_value(compose, "CARCASSONNE_TRUST_FORWARDED_FOR");
  // The instances exempt the proxy's address, and nothing else (no loopback: a client there
  // could forge its address too).
  CHECK(exempt == proxy_address);
  // The compose file's settings, the server's own parser; the proxy here is 127.0.0.2.
  const std::string proxy_here = "127.0.0.2";
  const std::vector<std::string> args{"--exempt-addresses", proxy_here, "--trust-forwarded-for",
                                      trust};
  std::string message;
  bool help = false;
  auto parsed = carcassonne::server::parse_config(args, false, message, help);
  REQUIRE_MESSAGE(parsed, message);
  auto cfg = test_config();
  cfg.exempt_addresses = parsed->exempt_addresses;
  cfg.trust_forwarded_for = parsed->trust_forwarded_for;
  REQUIRE(cfg.max_connections_per_address == parsed->max_connections_per_address);
  REQUIRE(cfg.address_connection_burst == parsed->address_connection_burst);
  test_server server(cfg);
  forwarding_proxy proxy(server.port(), proxy_here);

  // Forty players arriving at once through the proxy, each from an address of its own: all in.
  std::vector<int> players;
  for (int i = 0; i < 40; ++i)
    players.push_back(proxy.upgrade("127.0.0." + std::to_string(10 + i)));
  CHECK(admitted_refused(players) == std::pair{40, 0});

  // A client that forges an X-Forwarded-For through the proxy is its own address still: beyond
  // the connection burst (20, 5 more a second) it is refused.
  const auto limit = static_cast<int>(cfg.address_connection_burst);
  std::vector<int> forged_through;
  for (int i = 0; i < limit + 25; ++i)
    forged_through.push_back(proxy.upgrade("127.0.0.60", "198.51.100." + std::to_string(i)));
  const auto [through_in, through_refused] = admitted_refused(forged_through);
  CHECK(through_in >= limit);
  CHECK(through_refused > 0);
  CHECK(through_in + through_refused == limit + 25);

  // A client that reaches an instance directly (not from the proxy's address) with a forged
  // X-Forwarded-For is not believed either.
  std::vector<int> direct;
  for (int i = 0; i < limit + 25; ++i)
    direct.push_back(proxy.direct_upgrade("127.0.0.1", "203.0.113." + std::to_string(i)));
  const auto [direct_in, direct_refused] = admitted_refused(direct);
  CHECK(direct_in >= limit);
  CHECK(direct_refused > 0);
  CHECK(direct_in + direct_refused == limit + 25);
  // (From the server's own metrics: /metrics from 127.0.0.1, which flooded, is turned away.) A
  // refusal is either the ordinary 429 or, once the address floods, the 429 at accept.
  using why = carcassonne::server::metrics::refusal;
  const auto& stats = server.get().stats();
  CHECK(stats.refused_count(why::address_connection_rate) +
            stats.refused_count(why::address_flood) ==
        through_refused + direct_refused);
}
